// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64: spins for N seconds (default 2) with a value in each of the 16
 * vector registers, checking them every 10^7 iterations of an empty loop,
 * so that fntrace attach stops this thread in the middle of its own code
 * with the registers live.  Says whether they were kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SET(n) "movq %[p], %%xmm" #n "\n\tadd $1, %[p]\n\t"
#define GET(n) "movq %%xmm" #n ", %[t]\n\tcmp %[p], %[t]\n\tjne 2f\n\tadd $1, %[p]\n\t"

/* 1 if every register still holds what it was given. */
static int spin_with_vectors(unsigned long pattern)
{
	unsigned long p = pattern, t, n = 10000000;
	int kept;

	__asm__ volatile(
		SET(0) SET(1) SET(2) SET(3) SET(4) SET(5) SET(6) SET(7)
		SET(8) SET(9) SET(10) SET(11) SET(12) SET(13) SET(14) SET(15)
		"1: dec %[n]\n\tjnz 1b\n\t"
		"mov %[q], %[p]\n\t"
		GET(0) GET(1) GET(2) GET(3) GET(4) GET(5) GET(6) GET(7)
		GET(8) GET(9) GET(10) GET(11) GET(12) GET(13) GET(14) GET(15)
		"mov $1, %[k]\n\tjmp 3f\n"
		"2: mov $0, %[k]\n"
		"3:\n"
		: [p] "+&r"(p), [t] "=&r"(t), [n] "+&r"(n), [k] "=&r"(kept)
		: [q] "r"(pattern)
		: "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
		  "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
	return kept;
}

int main(int argc, char **argv)
{
	time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 2);
	unsigned long rounds = 0, lost = 0;

	while (time(NULL) < end) {
		lost += !spin_with_vectors(0x5a5a1234deadbe00UL + rounds);
		rounds++;
	}
	puts(lost ? "vector registers lost" : "vector registers kept");
	return 0;
}
