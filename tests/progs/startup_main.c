// SPDX-License-Identifier: GPL-2.0
/*
 * startup_main all | spin SECONDS: over a library of many functions
 * (bench/gen_many_funcs.sh N OUT.c lib), either calls each of them once,
 * or calls only f7 and f9, every 20 ms for SECONDS: a program whose
 * runtime has many sites it need not read until tracing is switched on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern int (*const many_table[])(int);
extern const int many_count;

int main(int argc, char **argv)
{
	long sum = 0;

	if (argc > 1 && !strcmp(argv[1], "all")) {
		for (int i = 0; i < many_count; i++)
			sum += many_table[i](i);
	} else {
		int n = (argc > 2 ? atoi(argv[2]) : 5) * 50;

		for (int i = 0; i < n; i++) {
			sum += many_table[7](i) + many_table[9](i);
			usleep(20000);
		}
	}
	printf("%ld\n", sum);
	return 0;
}
