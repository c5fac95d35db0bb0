// SPDX-License-Identifier: GPL-2.0
/*
 * aarch64: functions whose first instruction depends on its address and
 * reaches only 1 MB, out of reach of any stub: an ADR, and literal loads
 * into a general and a SIMD register.  Each is called ten times; main
 * prints their sum.
 */
#include <stdio.h>
__asm__(".text\n"
	".globl f_adr\n.type f_adr,%function\nf_adr:\n"
	"	adr x1, 1f\n"
	"	ldr w1, [x1]\n"
	"	add x0, x0, x1\n"
	"	ret\n"
	"1:	.word 42\n"
	".size f_adr, .-f_adr\n"
	".globl f_ldr_x\n.type f_ldr_x,%function\nf_ldr_x:\n"
	"	ldr x1, 1f\n"
	"	add x0, x0, x1\n"
	"	ret\n"
	"	.p2align 3\n"
	"1:	.quad 0x100000000\n"
	".size f_ldr_x, .-f_ldr_x\n"
	".globl f_ldr_s\n.type f_ldr_s,%function\nf_ldr_s:\n"
	"	ldr s1, 1f\n"
	"	fmov w1, s1\n"
	"	add x0, x0, x1\n"
	"	ret\n"
	"1:	.word 7\n"
	".size f_ldr_s, .-f_ldr_s\n");
long f_adr(long), f_ldr_x(long), f_ldr_s(long);
int main(void)
{
	long s = 0;
	for (int i = 0; i < 10; i++)
		s += f_adr(i) + f_ldr_x(i) + f_ldr_s(i);
	printf("%ld\n", s);
	return 0;
}
