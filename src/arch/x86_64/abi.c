// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64: where the System V ABI passes a struct, union or class by
 * value (its section 3.2.3, "Parameter Passing").
 *
 * An aggregate of at most 16 bytes is cut into eightbytes, each classed
 * by the scalars it holds: INTEGER if any is an integer or pointer, SSE
 * if all are float or double.  An INTEGER eightbyte takes the next free
 * integer register, an SSE one the next free vector register:
 *
 *   struct { int x, y; }          one INTEGER eightbyte: %rdi = y:x
 *   struct { float x, y; }        one SSE eightbyte:     %xmm0 = y:x
 *   struct { double d; long n; }  SSE, INTEGER:          %xmm0, %rdi
 *   struct { int i; float f; }    one INTEGER eightbyte: %rdi = f:i
 *
 * Larger ones, ones with an unaligned field or a long double, and ones
 * whose eightbytes do not all find a register, go on the stack whole and
 * take no register at all.
 */
#include "../x86/x86.h"

enum eightbyte_class { CLASS_NONE, CLASS_INTEGER, CLASS_SSE };

/* Each scalar into the class of its eightbyte; 0 if the aggregate goes
 * to memory. */
static int class_eightbytes(const struct arch_scalar *v, unsigned n, uint8_t cls[2])
{
	for (unsigned i = 0; i < n; i++) {
		unsigned e = v[i].offset / 8;

		if (v[i].odd || !v[i].size || v[i].size > 8 || v[i].offset % v[i].size)
			return 0;	/* long double, unaligned: memory */
		if (e > 1)
			return 0;
		if (!v[i].fp)
			cls[e] = CLASS_INTEGER;
		else if (cls[e] == CLASS_NONE)
			cls[e] = CLASS_SSE;
	}
	return 1;
}

enum arch_pass x86_64_place_aggregate(struct arch_scalar *v, unsigned n, uint32_t size,
				      unsigned int_free, unsigned fp_free,
				      unsigned *ints, unsigned *fps)
{
	uint8_t cls[2] = { CLASS_NONE, CLASS_NONE }, reg[2];
	unsigned eightbytes = (size + 7) / 8;

	*ints = *fps = 0;
	if (!size || size > 16 || !class_eightbytes(v, n, cls))
		return size ? ARCH_PASS_MEMORY : ARCH_PASS_UNKNOWN;
	for (unsigned e = 0; e < eightbytes; e++) {
		if (cls[e] == CLASS_NONE)
			return ARCH_PASS_UNKNOWN;	/* padding only: not met in C */
		reg[e] = cls[e] == CLASS_SSE ? (*fps)++ : (*ints)++;
	}
	if (*ints > int_free || *fps > fp_free) {
		*ints = *fps = 0;
		return ARCH_PASS_MEMORY;
	}
	for (unsigned i = 0; i < n; i++) {
		unsigned e = v[i].offset / 8;

		v[i].fp = cls[e] == CLASS_SSE;
		v[i].reg = reg[e];
		v[i].shift = v[i].offset % 8;
	}
	return ARCH_PASS_REGS;
}
