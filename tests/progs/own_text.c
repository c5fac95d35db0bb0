/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A program that sets the protections of its own code, as hot-patchers
 * and hardened programs do (tests/cases/robust/memory_rules.sh): one page of
 * text it makes rwx and writes into (a byte of an untraced function,
 * written back as it is, so the code stays the same), then calls; one
 * page of traced functions it makes execute-only; a second thread sets
 * both protections again and again meanwhile, as a program whose threads
 * share the hot-patching would (a batch that read a page's protection
 * before such a call and wrote after it would fault).  It goes round until
 * it has made ROUNDS rounds and STOPFILE exists (the test switches
 * tracers meanwhile, then makes it), and then checks, in /proc/self/maps,
 * that both pages have the protection it gave them (while a batch patches
 * them, they are readable and writable for the batch).  Prints both
 * protections, as the kernel shows them, and what it found at the end.
 *
 *   own_text ROUNDS STOPFILE      a round every millisecond
 */
#include "robust.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* The page written into: an untraced function at its start, traced
 * ones after it, which the runtime patches while the program writes. */
__attribute__((section(".text.own_rwx"), aligned(4096), noinline, no_instrument_function))
int poked(int x)
{
	return x + 1;
}

__attribute__((section(".text.own_rwx"))) KEEP int beside_poked(int x)
{
	sink = x;
	return poked(x) * 2;
}

/* The page made execute-only: traced functions the runtime must read to
 * patch. */
__attribute__((section(".text.own_xo"), aligned(4096))) KEEP int execute_only(int x)
{
	sink = x;
	return x - 1;
}

__attribute__((section(".text.own_xo"))) KEEP int beside_execute_only(int x)
{
	sink = x;
	return execute_only(x) + 3;
}

static _Atomic int stopping;

struct pages {
	uintptr_t rwx, xo;
};

/* The program's own mprotect calls, racing with the runtime's batches. */
static void *protector(void *arg)
{
	const struct pages *p = arg;
	long ps = sysconf(_SC_PAGESIZE);

	while (!atomic_load(&stopping)) {
		mprotect((void *)p->rwx, ps, PROT_READ | PROT_WRITE | PROT_EXEC);
		mprotect((void *)p->xo, ps, PROT_EXEC);
	}
	return NULL;
}

static uintptr_t page_of(const void *p)
{
	return (uintptr_t)p & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
}

/* The protection maps shows for the page at addr ("r-xp"), into perms. */
static int protection(uintptr_t addr, char perms[8])
{
	FILE *maps = fopen("/proc/self/maps", "r");
	unsigned long lo, hi;
	char line[4096];
	int found = 0;

	while (maps && !found && fgets(line, sizeof(line), maps))
		found = sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && lo <= addr && addr < hi;
	if (maps)
		fclose(maps);
	return found ? 0 : -1;
}

KEEP static int write_own_code(void)
{
	volatile uint8_t *at = (volatile uint8_t *)(uintptr_t)poked;

	*at = *at;
	return beside_poked(3) + beside_execute_only(4);
}

static void nap_ms(void)
{
	struct timespec ms = { 0, 1000000 };

	nanosleep(&ms, NULL);
}

KEEP static int check(uintptr_t page, const char *want, const char *what)
{
	char now[8] = "?";

	if (protection(page, now) == 0 && !strcmp(now, want))
		return 0;
	printf("the %s page is %s, was set %s\n", what, now, want);
	return 1;
}

int main(int argc, char **argv)
{
	int rounds = argc > 2 ? atoi(argv[1]) : 100, bad, i;
	const char *stop = argc > 2 ? argv[2] : "/";
	uintptr_t rwx = page_of(poked), xo = page_of(execute_only);
	char rwx_prot[8], xo_prot[8];

	if (rwx == xo || mprotect((void *)rwx, sysconf(_SC_PAGESIZE),
				  PROT_READ | PROT_WRITE | PROT_EXEC) ||
	    mprotect((void *)xo, sysconf(_SC_PAGESIZE), PROT_EXEC)) {
		perror("own_text: mprotect");
		return 2;
	}
	if (protection(rwx, rwx_prot) || protection(xo, xo_prot))
		return 2;
	printf("rwx page: %s\nexecute-only page: %s\n", rwx_prot, xo_prot);
	fflush(stdout);
	struct pages pages = { rwx, xo };
	pthread_t t;

	if (pthread_create(&t, NULL, protector, &pages))
		return 2;
	for (i = 0; i < rounds || access(stop, F_OK); i++) {
		sink = write_own_code();
		nap_ms();
	}
	atomic_store(&stopping, 1);
	pthread_join(t, NULL);
	bad = check(rwx, rwx_prot, "rwx") + check(xo, xo_prot, "execute-only");
	printf("%s\n", bad ? "protection changed" : "protections kept");
	return bad;
}
