/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A program that meets its address-space limit only barely
 * (tests/cases/robust/memory_rules.sh): it makes a thread, which maps its 8 MB
 * stack, after its limit is set.
 *
 *   as_limit measure     no limit: print the VmPeak (kB) the work reaches
 *   as_limit KB          set RLIMIT_AS (soft and hard) to KB first
 *   as_limit -           the limit as it came (ulimit -v)
 *   as_limit soft KB     set the soft limit to KB as a shell's `ulimit -S -v`
 *                        would before exec, then exec `as_limit -`
 *   as_limit hard KB     the same for both limits (`ulimit -v`)
 *
 * soft and hard set the limit by the system call itself, which a runtime
 * preloaded here does not see, so the `as_limit -` they exec starts with
 * exactly the limit a shell would have given it; and only the program
 * runs under it, not a launcher before it (fntrace, which an ASan build
 * could not even start under a tight limit).
 */
#define _GNU_SOURCE
#include "robust.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

KEEP static int leaf(int x)
{
	sink = x;
	return x + 1;
}

KEEP static void *worker(void *arg)
{
	sink = leaf((int)(long)arg);
	return NULL;
}

static long vm_peak_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPeak: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

KEEP static int work(void)
{
	pthread_t t;
	int err = pthread_create(&t, NULL, worker, (void *)1L);

	if (err) {
		printf("pthread_create: %s\n", strerror(err));
		return 1;
	}
	pthread_join(t, NULL);
	printf("thread made\n");
	return 0;
}

/* Set RLIMIT_AS to KB (the hard limit too if "hard"), out of any
 * wrapper's sight, and exec this program (a path) again with "-". */
static int exec_limited(const char *self, const char *which, const char *kb)
{
	rlim64_t bytes = (rlim64_t)strtoul(kb, NULL, 10) << 10;
	struct rlimit64 r;
	char *const argv[] = { (char *)self, "-", NULL };

	if (syscall(SYS_prlimit64, 0, RLIMIT_AS, NULL, &r)) {
		perror("as_limit: prlimit64");
		return 2;
	}
	r.rlim_cur = bytes;
	if (!strcmp(which, "hard"))
		r.rlim_max = bytes;
	if (syscall(SYS_prlimit64, 0, RLIMIT_AS, &r, NULL)) {
		perror("as_limit: prlimit64");
		return 2;
	}
	execv(self, argv);
	perror("as_limit: exec");
	return 2;
}

int main(int argc, char **argv)
{
	const char *arg = argc > 1 ? argv[1] : "-";
	int ret;

	if (argc > 2 && (!strcmp(arg, "soft") || !strcmp(arg, "hard")))
		return exec_limited(argv[0], arg, argv[2]);
	if (strcmp(arg, "measure") && strcmp(arg, "-")) {
		rlim_t bytes = (rlim_t)strtoul(arg, NULL, 10) << 10;
		struct rlimit r = { bytes, bytes };

		if (setrlimit(RLIMIT_AS, &r)) {
			perror("as_limit: setrlimit");
			return 2;
		}
	}
	fflush(stdout);
	ret = work();
	if (!strcmp(arg, "measure"))
		printf("%ld\n", vm_peak_kb());
	return ret;
}
