// SPDX-License-Identifier: GPL-2.0
/*
 * Relocated copies of aarch64 functions, run (tests/unit/test_detour_run.c
 * makes them on the host, with the planner and relocator, for this
 * program's own functions).  Built for aarch64, static, run under
 * qemu-user.  Its argument: a file of lines "NAME ADDRESS HEX", each the
 * copy of the function NAME's replaced word as it runs at ADDRESS, in the
 * page mapped at TRAMP.  Each copy is called as its function, and must
 * give its results: "ok NAME" or "bad NAME" per line.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define TRAMP	0x4000000ul	/* 64 MB above the text: in a B's reach, not in an ADR's */
#define TRAMP_SIZE 0x10000ul

int counter[16] = { 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25 };

/* Each: one relocation in the word the B replaces. */
__asm__(".text\n"
	".globl f_adrp\n.type f_adrp,%function\nf_adrp:\n"
	"	adrp x1, counter\n"
	"	add x1, x1, :lo12:counter\n"
	"	ldr w0, [x1, w0, uxtw #2]\n"
	"	ret\n"
	".size f_adrp, .-f_adrp\n"
	/* bti c stays: the copy is of the adrp after it */
	".globl f_bti\n.type f_bti,%function\nf_bti:\n"
	"	hint #34\n"
	"	adrp x1, counter\n"
	"	add x1, x1, :lo12:counter\n"
	"	ldr w1, [x1, #4]\n"
	"	add x0, x0, x1\n"
	"	ret\n"
	".size f_bti, .-f_bti\n"
	".globl f_adr\n.type f_adr,%function\nf_adr:\n"
	"	adr x1, 1f\n"
	"	ldr w1, [x1]\n"
	"	add x0, x0, x1\n"
	"	ret\n"
	"1:	.word 42\n"
	".size f_adr, .-f_adr\n"
	".globl f_ldr_w\n.type f_ldr_w,%function\nf_ldr_w:\n"
	"	ldr w1, 1f\n"
	"	add x0, x0, x1\n"
	"	ret\n"
	"1:	.word 1000\n"
	".size f_ldr_w, .-f_ldr_w\n"
	".globl f_ldr_x\n.type f_ldr_x,%function\nf_ldr_x:\n"
	"	ldr x1, 1f\n"
	"	add x0, x0, x1\n"
	"	ret\n"
	"	.p2align 3\n"
	"1:	.quad 0x100000000\n"
	".size f_ldr_x, .-f_ldr_x\n"
	".globl f_ldrsw\n.type f_ldrsw,%function\nf_ldrsw:\n"
	"	ldrsw x1, 1f\n"
	"	add x0, x0, x1\n"
	"	ret\n"
	"1:	.word -5\n"
	".size f_ldrsw, .-f_ldrsw\n"
	".globl f_ldr_d\n.type f_ldr_d,%function\nf_ldr_d:\n"
	"	ldr d1, 1f\n"
	"	fmov x1, d1\n"
	"	add x0, x0, x1\n"
	"	ret\n"
	"	.p2align 3\n"
	"1:	.quad 77\n"
	".size f_ldr_d, .-f_ldr_d\n"
	".globl f_ldr_q\n.type f_ldr_q,%function\nf_ldr_q:\n"
	"	ldr q1, 1f\n"
	"	umov x1, v1.d[1]\n"
	"	add x0, x0, x1\n"
	"	ret\n"
	"	.p2align 4\n"
	"1:	.quad 1, 300\n"
	".size f_ldr_q, .-f_ldr_q\n"
	".globl f_cbz\n.type f_cbz,%function\nf_cbz:\n"
	"	cbz w0, 1f\n"
	"	mov w0, #1\n"
	"	ret\n"
	"1:	mov w0, #2\n"
	"	ret\n"
	".size f_cbz, .-f_cbz\n"
	".globl f_tbnz\n.type f_tbnz,%function\nf_tbnz:\n"
	"	tbnz w0, #3, 1f\n"
	"	mov w0, #1\n"
	"	ret\n"
	"1:	mov w0, #2\n"
	"	ret\n"
	".size f_tbnz, .-f_tbnz\n"
	".globl f_b\n.type f_b,%function\nf_b:\n"
	"	b 1f\n"
	"	udf #0\n"
	"1:	add w0, w0, #3\n"
	"	ret\n"
	".size f_b, .-f_b\n");

long f_adrp(long), f_bti(long), f_adr(long), f_ldr_w(long), f_ldr_x(long), f_ldrsw(long);
long f_ldr_d(long), f_ldr_q(long), f_cbz(long), f_tbnz(long), f_b(long);

static const struct {
	const char *name;
	long (*fn)(long);
} fns[] = {
	{ "f_adrp", f_adrp }, { "f_bti", f_bti }, { "f_adr", f_adr }, { "f_ldr_w", f_ldr_w },
	{ "f_ldr_x", f_ldr_x }, { "f_ldrsw", f_ldrsw }, { "f_ldr_d", f_ldr_d },
	{ "f_ldr_q", f_ldr_q }, { "f_cbz", f_cbz }, { "f_tbnz", f_tbnz }, { "f_b", f_b },
};

static long (*fn_named(const char *name))(long)
{
	for (unsigned i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		if (!strcmp(fns[i].name, name))
			return fns[i].fn;
	return NULL;
}

/* The copy's bytes, from hex, at addr in the page: 0, or -1 if not there. */
static int place(unsigned long addr, const char *hex)
{
	unsigned b;
	int used;

	for (; sscanf(hex, " %2x%n", &b, &used) == 1; hex += used, addr++) {
		if (addr < TRAMP || addr >= TRAMP + TRAMP_SIZE)
			return -1;
		*(uint8_t *)addr = b;
	}
	return 0;
}

/* Does the copy at addr give fn's results? */
static int same(long (*fn)(long), unsigned long addr)
{
	static const long args[] = { 0, 1, 3, 8, 12 };
	long (*copy)(long) = (long (*)(long))addr;

	for (unsigned i = 0; i < sizeof(args) / sizeof(args[0]); i++)
		if (copy(args[i]) != fn(args[i]))
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	static char name[64][64], hex[64][512];
	unsigned long addr[64];
	unsigned n = 0;
	FILE *in = argc == 2 ? fopen(argv[1], "r") : NULL;
	void *page = mmap((void *)TRAMP, TRAMP_SIZE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (!in || page != (void *)TRAMP) {
		printf("bad setup\n");
		return 1;
	}
	while (n < 64 && fscanf(in, "%63s %lx %511[0-9a-f ]", name[n], &addr[n], hex[n]) == 3) {
		if (place(addr[n], hex[n]))
			printf("bad %s: not in the page\n", name[n]);
		n++;
	}
	mprotect(page, TRAMP_SIZE, PROT_READ | PROT_EXEC);
	__builtin___clear_cache((char *)TRAMP, (char *)TRAMP + TRAMP_SIZE);
	for (unsigned i = 0; i < n; i++) {
		long (*fn)(long) = fn_named(name[i]);

		printf("%s %s\n", fn && same(fn, addr[i]) ? "ok" : "bad", name[i]);
	}
	return 0;
}
