// SPDX-License-Identifier: GPL-2.0
/*
 * scribble FUNC_ADDR SITE_ADDR: calls leaf() in a loop until its input
 * ends; at the first line it reads, it overwrites the first byte of the
 * call site of unused() (SITE_ADDR, linked with unused() at FUNC_ADDR:
 * fntrace list -a and nm tell), a function it never calls: a site no
 * longer what the runtime left, which the next live patch must refuse.
 * Says when it has, and at its end that it ran.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "robust.h"

KEEP long leaf(long x)
{
	sink = x;
	return x + 1;
}

KEEP long unused(long x)
{
	sink = x;
	return x - 1;
}

static void scribble(uintptr_t func, uintptr_t site)
{
	uintptr_t at = (uintptr_t)unused - func + site;
	long page = sysconf(_SC_PAGESIZE);
	void *lo = (void *)(at & ~(uintptr_t)(page - 1));

	if (mprotect(lo, page, PROT_READ | PROT_WRITE | PROT_EXEC) == 0) {
		*(volatile uint8_t *)at ^= 0xff;
		mprotect(lo, page, PROT_READ | PROT_EXEC);
	}
}

int main(int argc, char **argv)
{
	long n = 0;
	char c;

	if (argc < 3)
		return 2;
	fcntl(0, F_SETFL, O_NONBLOCK);
	for (;;) {
		ssize_t got = read(0, &c, 1);

		if (got == 0)
			break;
		if (got == 1 && c == '\n') {
			scribble(strtoul(argv[1], NULL, 0), strtoul(argv[2], NULL, 0));
			printf("scribbled\n");
			fflush(stdout);
		}
		n = leaf(n);
		usleep(1000);
	}
	printf("%s\n", n > 0 ? "ran" : "did not run");
	return 0;
}
