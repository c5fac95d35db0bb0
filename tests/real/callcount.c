// SPDX-License-Identifier: GPL-2.0
/*
 * callcount.so: an exact, independent count of function entries in a
 * program compiled with -pg (or -pg -mfentry), for x86_64.
 *
 * Preloaded, it defines mcount and __fentry__, so the program's calls to
 * them (through the GOT in a PIE, or direct) land here instead of in glibc.
 * Each call counts its return address, which lies inside the instrumented
 * function. At exit the counts of the main executable are written to
 * $CALLCOUNT_OUT as "OFFSET COUNT" lines (OFFSET = address - load base, in
 * hex); tests/real/callcount.sh turns offsets into function names.
 *
 * It serves as the referee when uftrace and fntrace disagree: it does not
 * touch return addresses, so longjmp and coroutines cannot confuse it.
 * Single-threaded programs only (the counters are not atomic).
 *
 * Build: gcc -O2 -shared -fPIC -mgeneral-regs-only -o callcount.so callcount.c -ldl
 * (-mgeneral-regs-only: the hook runs while the callee's vector argument
 * registers are live, and it saves only the general ones.)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SLOTS (1u << 16) /* power of two, well above any program's sites */

static struct slot {
	uintptr_t addr;
	uint64_t hits;
} table[SLOTS];
static unsigned long lost;

/* Called from the assembly stubs with the instrumented function's address. */
__attribute__((used, visibility("hidden"))) void callcount_hit(uintptr_t addr)
{
	uint32_t i = (uint32_t)((addr * 0x9E3779B97F4A7C15ull) >> 48) & (SLOTS - 1);

	for (uint32_t n = 0; n < SLOTS; n++, i = (i + 1) & (SLOTS - 1)) {
		if (table[i].addr == addr) {
			table[i].hits++;
			return;
		}
		if (table[i].addr == 0) {
			table[i].addr = addr;
			table[i].hits = 1;
			return;
		}
	}
	lost++;
}

/*
 * Both hooks preserve every argument register (rdi, rsi, rdx, rcx, r8, r9,
 * rax for varargs, r10 for the static chain). At entry rsp is 8 mod 16:
 * eight pushes make it 0 mod 16 before the call, as the ABI wants.
 */
#define HOOK(name)                                                          \
	__asm__(".text\n.globl " #name "\n.type " #name ",@function\n" #name \
		":\n"                                                       \
		"push %rdi\npush %rsi\npush %rdx\npush %rcx\n"              \
		"push %r8\npush %r9\npush %rax\npush %r10\n"                \
		"mov 64(%rsp), %rdi\n"                                      \
		"call callcount_hit\n"                                      \
		"pop %r10\npop %rax\npop %r9\npop %r8\n"                    \
		"pop %rcx\npop %rdx\npop %rsi\npop %rdi\n"                  \
		"ret\n.size " #name ", .-" #name "\n")

HOOK(mcount);
HOOK(__fentry__);

/* dl_iterate_phdr visits the main executable first: keep its load base. */
static int first_object(struct dl_phdr_info *info, size_t size __attribute__((unused)),
			void *data)
{
	*(uintptr_t *)data = info->dlpi_addr;
	return 1;
}

static uintptr_t exe_base(void)
{
	uintptr_t base = 0;

	dl_iterate_phdr(first_object, &base);
	return base;
}

/* The object containing addr: its base, from dladdr (which knows every
 * loaded module, even for functions absent from the dynamic symbols). */
static int in_exe(uintptr_t addr, uintptr_t base)
{
	Dl_info info;

	return dladdr((void *)addr, &info) && (uintptr_t)info.dli_fbase == base;
}

__attribute__((destructor)) static void callcount_dump(void)
{
	const char *path = getenv("CALLCOUNT_OUT");
	uintptr_t base = exe_base();
	FILE *f;

	if (!path || !(f = fopen(path, "w")))
		return;
	for (uint32_t i = 0; i < SLOTS; i++) {
		if (!table[i].addr)
			continue;
		if (!in_exe(table[i].addr, base))
			continue;
		fprintf(f, "%lx %lu\n", (unsigned long)(table[i].addr - base),
			(unsigned long)table[i].hits);
	}
	if (lost)
		fprintf(f, "# lost %lu\n", lost);
	fclose(f);
}
