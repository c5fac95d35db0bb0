/* Two threads doing the same work (tests/cases/export/export_flame.sh): their
 * stacks, worker;leaf, merge into one in the flame graph; main;leaf is
 * the main thread's own. */
#include <pthread.h>
#include <stdio.h>

static volatile unsigned long sink;

#define SPIN(n)	for (unsigned long i = 0; i < (n); i++) sink += i

__attribute__((noinline)) void leaf(void) { SPIN(100000); }

__attribute__((noinline)) void *worker(void *arg)
{
	SPIN(50000);
	leaf();
	return arg;
}

int main(void)
{
	pthread_t t[2];

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	leaf();
	printf("%lu\n", sink);
	return 0;
}
