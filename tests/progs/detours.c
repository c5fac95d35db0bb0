/*
 * Functions for detours (tests/cases/trace/detours.sh), built with plain
 * gcc -O2: no call sites.  Each computes something its caller checks, so
 * that a wrong copy of its first instructions shows.
 *
 *   detours run N        each function N times, the results printed
 *   detours threads T N  T threads calling them N times each, every
 *                        result checked; "bad" and exit 1 if one is wrong
 *   detours wait T       T threads calling them, "ready", and the calls go
 *                        on until stdin ends
 *   detours block        a thread blocked in raw_read() on stdin, inside
 *                        its first five bytes; each line read said
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOIPA __attribute__((noipa))

static const int table[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };
static volatile long total;

NOIPA int leaf_add(int a, int b)
{
	return a * 3 + b;
}

NOIPA long sum_array(const int *v, int n)
{
	long s = 0;

	for (int i = 0; i < n; i++)
		s += v[i] * (i + 1);
	return s;
}

NOIPA long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/* A RIP-relative load and store among its first instructions. */
NOIPA int mix(unsigned x)
{
	total += x;
	return table[x & 7] + (int)(x >> 3);
}

NOIPA int too_short(void)
{
	return 0;
}

/* A conditional branch first (aarch64: cbz, 1 MB of reach, moved as the
 * opposite test over a B; x86_64: test, je rel8 made rel32). */
NOIPA int pick(const int *v, unsigned i)
{
	if (!v)
		return -1;
	return v[i & 7] * 2;
}

/* A global read first (aarch64: adrp, re-aimed page by page). */
int scale = 3;

NOIPA int scaled(int x)
{
	return x * scale;
}

/*
 * read(2) made by its own system call instruction.  x86_64: two bytes
 * into the function, so that a thread blocked in it is inside the bytes a
 * jump at the entry would replace (xor, syscall and a nop: five bytes).
 * aarch64 replaces one word, which has no inside: the svc is two words on.
 */
ssize_t raw_read(int fd, void *buf, size_t n);
#if defined(__x86_64__)
__asm__(".text\n"
	".globl raw_read\n"
	".type raw_read, @function\n"
	"raw_read:\n"
	"	xor %eax, %eax\n"
	"	syscall\n"
	"	nop\n"
	"	nop\n"
	"	ret\n"
	".size raw_read, . - raw_read\n");
#elif defined(__aarch64__)
__asm__(".text\n"
	".globl raw_read\n"
	".type raw_read, %function\n"
	"raw_read:\n"
	"	mov x8, #63\n"
	"	svc #0\n"
	"	ret\n"
	".size raw_read, . - raw_read\n");
#else
ssize_t raw_read(int fd, void *buf, size_t n)
{
	return read(fd, buf, n);
}
#endif

static void *reader(void *arg)
{
	char line[64];
	size_t n = 0;

	(void)arg;
	while (raw_read(0, line + n, 1) == 1)
		if (line[n] == '\n' || ++n == sizeof(line) - 1) {
			printf("read %.*s\n", (int)n, line);
			fflush(stdout);
			n = 0;
		}
	return NULL;
}

NOIPA int round_once(unsigned i)
{
	int v[8];

	int r;

	for (int k = 0; k < 8; k++)
		v[k] = leaf_add((int)i, k);
	r = (int)(sum_array(v, 8) % 1000) + mix(i) + (int)fib((int)(i % 10)) + too_short();
	r += pick(i & 1 ? v : NULL, i);
	return r + scaled((int)(i & 15));
}

/* What round_once(i) must return, computed without the traced functions. */
static int expected(unsigned i)
{
	long s = 0, a = 0, b = 1;

	for (int k = 0; k < 8; k++)
		s += ((long)i * 3 + k) * (k + 1);
	for (unsigned k = 0; k < i % 10; k++) {
		long t = a + b;

		a = b;
		b = t;
	}
	return (int)(s % 1000) + table[i & 7] + (int)(i >> 3) + (int)a +
	       (i & 1 ? ((int)i * 3 + (int)(i & 7)) * 2 : -1) + (int)(i & 15) * 3;
}

static long rounds;
static volatile int stop;

static void *worker(void *arg)
{
	for (long n = 0; stop ? 0 : (rounds < 0 || n < rounds); n++) {
		/* Below 2^28 / 3: sum_array's int products never overflow
		 * (a long torture reaches i = 89478483 in 90 M rounds). */
		unsigned i = (unsigned)((n + (long)(uintptr_t)arg * 7) % 1000003);

		if (round_once(i) != expected(i)) {
			printf("bad: round_once(%u) = %d, not %d\n", i, round_once(i), expected(i));
			exit(1);
		}
	}
	return NULL;
}

static int threads(int nr)
{
	pthread_t t[64];

	for (int i = 0; i < nr && i < 64; i++)
		pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)i);
	for (int i = 0; i < nr && i < 64; i++)
		pthread_join(t[i], NULL);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "run")) {
		long sum = 0;

		for (int i = 0; i < atoi(argv[2]); i++)
			sum += round_once((unsigned)i);
		printf("sum %ld total %ld\n", sum, (long)total);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "threads")) {
		rounds = atol(argv[3]);
		threads(atoi(argv[2]));
		printf("ok\n");
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "wait")) {
		pthread_t t[64];
		int nr = atoi(argv[2]);
		char c;

		rounds = -1;
		for (int i = 0; i < nr && i < 64; i++)
			pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)i);
		printf("ready\n");
		fflush(stdout);
		while (read(0, &c, 1) > 0)
			;
		stop = 1;
		for (int i = 0; i < nr && i < 64; i++)
			pthread_join(t[i], NULL);
		printf("ok\n");
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "block")) {
		pthread_t t;

		pthread_create(&t, NULL, reader, NULL);
		printf("ready\n");
		fflush(stdout);
		pthread_join(t, NULL);
		printf("ok\n");
		return 0;
	}
	fprintf(stderr, "usage: detours run N | threads T N | wait T | block\n");
	return 2;
}
