// SPDX-License-Identifier: GPL-2.0
/*
 * Calls whose numbers are known, at known depths.  A round is run_round()
 * calling, N times, fa(), which calls leaf() and then fb() or fc() in
 * turn, and, every fourth time, fc() itself, outside fa:
 *
 *   run_round -> fa -> leaf
 *                   -> fb -> leaf            (odd i)
 *                   -> fc -> fb -> leaf      (even i)
 *             -> fc -> fb -> leaf            (i % 4 == 0)
 *
 * profile_counts N runs one round and prints the calls each function
 * made: "fa 4 fb 5 fc 3 leaf 9" for N = 4.  profile_counts N DIR runs a
 * round each time DIR/go appears (removing it first), writes that
 * round's counts to DIR/done, and ends when DIR/stop appears: a program
 * to profile with settings changed between rounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef __clang__
#define noinline __attribute__((noinline))
#else
#define noinline __attribute__((noinline, noipa))
#endif

static volatile long fa_calls, fb_calls, fc_calls, leaf_calls;

noinline void leaf(void)
{
	leaf_calls++;
}

noinline void fb(void)
{
	fb_calls++;
	leaf();
	__asm__ volatile("" ::: "memory");	/* no tail call: every return is its own */
}

noinline void fc(void)
{
	fc_calls++;
	fb();
	__asm__ volatile("" ::: "memory");
}

noinline void fa(long i)
{
	fa_calls++;
	leaf();
	if (i & 1)
		fb();
	else
		fc();
	__asm__ volatile("" ::: "memory");
}

noinline void run_round(long n)
{
	for (long i = 0; i < n; i++) {
		fa(i);
		if (i % 4 == 0)
			fc();
	}
}

static void print_counts(FILE *f)
{
	fprintf(f, "fa %ld fb %ld fc %ld leaf %ld\n", fa_calls, fb_calls, fc_calls, leaf_calls);
}

static int exists(const char *dir, const char *name, int take)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (access(path, F_OK))
		return 0;
	return !take || unlink(path) == 0;
}

static int say_done(const char *dir)
{
	char path[4096], tmp[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/done", dir);
	snprintf(tmp, sizeof(tmp), "%s/done.tmp", dir);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	print_counts(f);
	return fclose(f) || rename(tmp, path) ? -1 : 0;
}

/* Rounds on demand, for at most 60 s of waiting. */
static int serve(long n, const char *dir)
{
	for (int waited = 0; waited < 6000 && !exists(dir, "stop", 0); waited++) {
		if (!exists(dir, "go", 1)) {
			usleep(10000);
			continue;
		}
		fa_calls = fb_calls = fc_calls = leaf_calls = 0;
		run_round(n);
		if (say_done(dir))
			return 1;
		waited = 0;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;

	if (argc < 2 || argc > 3 || n <= 0) {
		fprintf(stderr, "usage: profile_counts N [DIR]\n");
		return 2;
	}
	if (argc == 3)
		return serve(n, argv[2]);
	run_round(n);
	print_counts(stdout);
	return 0;
}
