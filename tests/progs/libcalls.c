// SPDX-License-Identifier: GPL-2.0
/*
 * Calls into libc through the GOT (tests/cases/trace/libcalls.sh).
 *
 *   libcalls run N     use_heap() N times (malloc, strlen and free once
 *                      each), qsort() with a traced comparator, a longjmp
 *                      out of a traced function, then exit() from one;
 *                      prints how many times it called each
 *   libcalls live      a command per line on stdin, "ok" on stdout after
 *                      each:  got FILE  its JUMP_SLOT slots into FILE, a
 *                      line each: its symbol, its word;  work N  use_heap()
 *                      N times;  quit
 *   libcalls threads T N [HOLD]   T threads, each use_heap() N times,
 *                      and on while the file HOLD exists
 *   libcalls dl LIB N  N times: LIB (libcalls_lib.c) dlopen()ed lazily and
 *                      locally, its lib_work() called, LIB closed
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *volatile kept;
static volatile char fill = 'x';	/* not known to be non-zero: strlen stays */
static unsigned long nr_malloc, nr_strlen, nr_free, nr_qsort;
static jmp_buf env;

__attribute__((noinline)) size_t use_heap(size_t size)
{
	char *p = malloc(size);
	size_t n;

	kept = p;
	memset(p, fill, size - 1);
	p[size - 1] = '\0';
	n = strlen(p);
	free(p);
	__atomic_add_fetch(&nr_malloc, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&nr_strlen, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&nr_free, 1, __ATOMIC_RELAXED);
	return n;
}

__attribute__((noinline)) int by_value(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

__attribute__((noinline)) void sort_some(void)
{
	int v[5] = { 4, 3, 1, 2, 0 };

	qsort(v, 5, sizeof(v[0]), by_value);
	nr_qsort++;
}

__attribute__((noinline)) void jump_back(void)
{
	longjmp(env, 1);
}

/* getpid's address, taken where the program calls it too: the library's
 * own, traced or not (-fno-plt: one GOT slot serves both). */
__attribute__((noinline)) void leave(void)
{
	char n;

	printf("malloc %lu strlen %lu free %lu qsort %lu\n", nr_malloc, nr_strlen, nr_free,
	       nr_qsort);
	printf("getpid %s %d\n", (void *)getpid == dlsym(RTLD_DEFAULT, "getpid") ?
	       "the library's" : "another", getpid() > 0);
	/* a library call's errno reaches its caller */
	errno = 0;
	printf("read(-1): %s\n", read(-1, &n, 1) == -1 && errno == EBADF ? "EBADF" : "errno lost");
	/* dlsym knows its caller by its return address: the program's */
	printf("dlsym: %s\n", dlsym(RTLD_NEXT, "sigaction") == dlsym(RTLD_DEFAULT, "sigaction") ?
	       "the next sigaction is the first" : "the next sigaction is another");
	fflush(stdout);
	exit(0);
}

/* The words of the program's own JUMP_SLOT slots. */
static int dump_slots(struct dl_phdr_info *info, size_t size, void *arg)
{
	const ElfW(Dyn) *dyn = NULL;
	const ElfW(Rela) *rel = NULL;
	const ElfW(Sym) *sym = NULL;
	const char *str = NULL;
	size_t relsz = 0;

	for (unsigned i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_JMPREL)
			rel = (const ElfW(Rela) *)dyn->d_un.d_ptr;
		if (dyn->d_tag == DT_PLTRELSZ)
			relsz = dyn->d_un.d_val;
		if (dyn->d_tag == DT_SYMTAB)
			sym = (const ElfW(Sym) *)dyn->d_un.d_ptr;
		if (dyn->d_tag == DT_STRTAB)
			str = (const char *)dyn->d_un.d_ptr;
	}
	for (size_t i = 0; rel && sym && str && i < relsz / sizeof(*rel); i++)
		fprintf(arg, "%s %#lx\n", str + sym[ELF64_R_SYM(rel[i].r_info)].st_name,
			*(const unsigned long *)(info->dlpi_addr + rel[i].r_offset));
	return 1;		/* the program only: it comes first */
}

static void got(const char *path)
{
	FILE *out = fopen(path, "w");

	if (!out)
		return;
	dl_iterate_phdr(dump_slots, out);
	fclose(out);
}

static void live(void)
{
	char line[256], arg[200];

	got("/dev/null");	/* every slot the dump calls through bound */
	while (fgets(line, sizeof(line), stdin)) {
		if (sscanf(line, "got %199s", arg) == 1)
			got(arg);
		else if (sscanf(line, "work %199s", arg) == 1)
			for (long i = atol(arg); i > 0; i--)
				use_heap(16);
		else
			break;
		printf("ok\n");
		fflush(stdout);
	}
}

static const char *hold;

/* n calls, then on while the file hold exists (asked once in 1024). */
static void *worker(void *arg)
{
	long n = (long)arg;

	for (long i = 0; i < n; i++)
		use_heap(16);
	while (hold && access(hold, F_OK) == 0)
		for (int k = 0; k < 1024; k++)
			use_heap(16);
	return NULL;
}

static void threads(int t, long n)
{
	pthread_t tid[64];

	for (int i = 0; i < t && i < 64; i++)
		pthread_create(&tid[i], NULL, worker, (void *)n);
	for (int i = 0; i < t && i < 64; i++)
		pthread_join(tid[i], NULL);
}

static void from_library(const char *path, long n)
{
	double sum = 0;
	long done = 0;

	for (long i = 0; i < n; i++) {
		void *h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
		double (*work)(void) = h ? (double (*)(void))dlsym(h, "lib_work") : NULL;

		if (work) {
			sum += work();
			done++;
		}
		if (h)
			dlclose(h);
	}
	printf("lib_work %ld %.3f\n", done, sum);
}

int main(int argc, char **argv)
{
	if (argc > 3 && !strcmp(argv[1], "dl")) {
		from_library(argv[2], atol(argv[3]));
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "live")) {
		live();
		return 0;
	}
	if (argc > 3 && !strcmp(argv[1], "threads")) {
		hold = argc > 4 ? argv[4] : NULL;
		threads(atoi(argv[2]), atol(argv[3]));
		leave();
	}
	for (long i = argc > 2 ? atol(argv[2]) : 1; i > 0; i--)
		use_heap(32);
	sort_some();
	if (!setjmp(env))
		jump_back();
	leave();
}
