/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A program that meets its address-space limit only barely
 * (tests/cases/memory_rules.sh): it makes a thread, which maps its 8 MB
 * stack, after its limit is set.
 *
 *   as_limit measure     no limit: print the VmPeak (kB) the work reaches
 *   as_limit KB          set RLIMIT_AS (soft and hard) to KB first
 *   as_limit -           the limit as it came (ulimit -v)
 */
#include "robust.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

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

int main(int argc, char **argv)
{
	const char *arg = argc > 1 ? argv[1] : "-";
	int ret;

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
