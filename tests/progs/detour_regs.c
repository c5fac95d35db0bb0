// SPDX-License-Identifier: GPL-2.0
/*
 * For detours (tests/cases/trace/detour_regs.sh), x86_64 and aarch64: a caller that
 * keeps a value in every register the ABI lets a callee clobber, across
 * a call to a function it knows clobbers %rax alone.  gcc's -fipa-ra lets
 * a caller do that when it has seen the callee's body, and a program
 * built without call sites is built with it: the hooks a detour puts
 * around that function must give every register back.
 *
 *   detour_regs N     N calls, "ok"; or "bad CODE" (which register came
 *                     back changed: keep_all's codes) and exit 1
 *   detour_regs hold FILE  calls while FILE exists, after printing "ready"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

long tiny_add(long x);
long keep_all(long x);

#if defined(__x86_64__)
/* tiny_add: x + 1, in %rax alone; its first two instructions (7 bytes)
 * are what a detour's jump replaces. */
__asm__(".text\n"
	".globl tiny_add\n"
	".type tiny_add, @function\n"
	"tiny_add:\n"
	"	movq	%rdi, %rax\n"
	"	addq	$1, %rax\n"
	"	ret\n"
	".size tiny_add, . - tiny_add\n");

/* keep_all(x): tiny_add(x), with %rcx, %rdx, %rsi, %r8-%r11, %xmm2 and
 * %xmm15 holding known values and %rdi x across the call; each checked
 * after it, a negative code for the first found changed. */
__asm__(".macro CHECK reg, value, code\n"
	"	movabsq	$\\value, %rax\n"
	"	cmpq	%rax, %\\reg\n"
	"	movq	$\\code, %rax\n"
	"	jne	9f\n"
	".endm\n"
	".text\n"
	".globl keep_all\n"
	".type keep_all, @function\n"
	"keep_all:\n"
	"	pushq	%rbx\n"
	"	pushq	%r12\n"
	"	subq	$8, %rsp\n"
	"	movq	%rdi, %rbx\n"
	"	movabsq	$0x1111111111111111, %rcx\n"
	"	movabsq	$0x2222222222222222, %rdx\n"
	"	movabsq	$0x3333333333333333, %rsi\n"
	"	movabsq	$0x4444444444444444, %r8\n"
	"	movabsq	$0x5555555555555555, %r9\n"
	"	movabsq	$0x6666666666666666, %r10\n"
	"	movabsq	$0x7777777777777777, %r11\n"
	"	movq	%rcx, %xmm2\n"
	"	movq	%r11, %xmm15\n"
	"	call	tiny_add\n"
	"	movq	%rax, %r12\n"
	"	cmpq	%rbx, %rdi\n"
	"	movq	$-1, %rax\n"
	"	jne	9f\n"
	"	CHECK	rcx, 0x1111111111111111, -2\n"
	"	CHECK	rdx, 0x2222222222222222, -3\n"
	"	CHECK	rsi, 0x3333333333333333, -4\n"
	"	CHECK	r8, 0x4444444444444444, -5\n"
	"	CHECK	r9, 0x5555555555555555, -6\n"
	"	CHECK	r10, 0x6666666666666666, -7\n"
	"	CHECK	r11, 0x7777777777777777, -8\n"
	"	movq	%xmm2, %rdi\n"
	"	CHECK	rdi, 0x1111111111111111, -9\n"
	"	movq	%xmm15, %rdi\n"
	"	CHECK	rdi, 0x7777777777777777, -10\n"
	"	movq	%r12, %rax\n"
	"9:	addq	$8, %rsp\n"
	"	popq	%r12\n"
	"	popq	%rbx\n"
	"	ret\n"
	".size keep_all, . - keep_all\n");

#elif defined(__aarch64__)
/* tiny_add: x + 1, in x0 alone; its first instruction is what a
 * detour's B replaces. */
__asm__(".text\n"
	".globl tiny_add\n"
	".type tiny_add, %function\n"
	"tiny_add:\n"
	"	add	x0, x0, #1\n"
	"	add	x0, x0, #0\n"
	"	ret\n"
	".size tiny_add, . - tiny_add\n");

/* keep_all(x): tiny_add(x), with x1-x15 (x16 and x17 a veneer may take,
 * x18 the platform's), v2 and v31 holding known values and x19 x across
 * the call; each checked after it, a negative code for the first found
 * changed. */
__asm__(".macro CHECK reg, value, code\n"
	"	mov	x17, #\\value\n"
	"	cmp	\\reg, x17\n"
	"	mov	x0, #\\code\n"
	"	b.ne	9f\n"
	".endm\n"
	".text\n"
	".globl keep_all\n"
	".type keep_all, %function\n"
	"keep_all:\n"
	"	stp	x29, x30, [sp, #-32]!\n"
	"	mov	x29, sp\n"
	"	stp	x19, x20, [sp, #16]\n"
	"	mov	x19, x0\n"
	"	.irp n, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15\n"
	"	mov	x\\n, #(0x1100 * \\n)\n"
	"	.endr\n"
	"	fmov	d2, x2\n"
	"	fmov	d31, x15\n"
	"	bl	tiny_add\n"
	"	mov	x20, x0\n"
	"	.irp n, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15\n"
	"	CHECK	x\\n, (0x1100 * \\n), -\\n\n"
	"	.endr\n"
	"	fmov	x1, d2\n"
	"	CHECK	x1, (0x1100 * 2), -16\n"
	"	fmov	x1, d31\n"
	"	CHECK	x1, (0x1100 * 15), -17\n"
	"	mov	x0, x20\n"
	"9:	ldp	x19, x20, [sp, #16]\n"
	"	ldp	x29, x30, [sp], #32\n"
	"	ret\n"
	".size keep_all, . - keep_all\n");

#else
#error "detour_regs: x86_64 or aarch64"
#endif

static int one(long i)
{
	long r = keep_all(i);

	if (r == i + 1)
		return 0;
	printf("bad %ld\n", r);
	fflush(stdout);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "hold")) {
		printf("ready\n");
		fflush(stdout);
		for (long i = 0; i % 4096 || access(argv[2], F_OK) == 0; i++)
			if (one(i))
				return 1;
		printf("ok\n");
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: detour_regs N | hold FILE\n");
		return 2;
	}
	for (long i = 0; i < atol(argv[1]); i++)
		if (one(i))
			return 1;
	printf("ok\n");
	return 0;
}
