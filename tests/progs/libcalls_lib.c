// SPDX-License-Identifier: GPL-2.0
/* A traced library that calls into libc and libm through its own GOT,
 * dlopen()ed by libcalls.c ("libcalls dl LIB N"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static volatile double angle = 0.5;

__attribute__((noinline)) double lib_work(void)
{
	char *p = malloc(8);
	double c = cos(angle);

	strcpy(p, "abc");
	c += (double)strlen(p);
	free(p);
	return c;
}
