// SPDX-License-Identifier: GPL-2.0
/*
 * i386: the bytes of every patch (ftrace.c), the breakpoint, and what the
 * trap handler makes a thread that meets a site do (trap.c).  Built for
 * i386 (the Makefile's rule for tests/unit/test_ARCH_*.c).  Each expected
 * byte string is what i686-linux-gnu-objdump disassembles as the
 * instruction in its comment.
 */
#include "unit.h"
#include "arch/arch.h"

#include <string.h>
#include <ucontext.h>

/* The entry stubs live in assembly in the runtime; stand-ins here. */
char ftrace_caller[1], ftrace_caller_frame[1], ftrace_caller_realigned[1];

static void nops(void)
{
	uint8_t insn[8];

	arch_make_nop(NULL, 5, insn);
	/* ds lea 0x0(%esi,%eiz,1),%esi */
	CHECK("i386: 5-byte nop", unit_bytes_are(insn, "3e 8d 74 26 00"));
	arch_make_nop(NULL, 6, insn);
	/* lea 0x0(%esi),%esi */
	CHECK("i386: 6-byte nop", unit_bytes_are(insn, "8d b6 00 00 00 00"));
}

static void calls(void)
{
	uint8_t insn[8];

	/* at 0x1000: call 0x2005 */
	CHECK("i386: call forward", arch_make_call(0x1000, NULL, 5, 0x2005, insn) == 0 &&
				    unit_bytes_are(insn, "e8 00 10 00 00"));
	/* at 0x2000: call 0x1000 */
	CHECK("i386: call backward", arch_make_call(0x2000, NULL, 5, 0x1000, insn) == 0 &&
				     unit_bytes_are(insn, "e8 fb ef ff ff"));
	/* at 0x1000: addr16 call 0x2000 (objdump's name for the 0x67 prefix
	 * in 32-bit code; it changes nothing of a relative call) */
	CHECK("i386: 6-byte call keeps one instruction",
	      arch_make_call(0x1000, NULL, 6, 0x2000, insn) == 0 &&
	      unit_bytes_are(insn, "67 e8 fa 0f 00 00"));
	/* at 0xfffff000: call 0x1000, rel32 wrapping around 4 GiB */
	CHECK("i386: a call reaches across the top of the address space",
	      arch_make_call(0xfffff000, NULL, 5, 0x1000, insn) == 0 &&
	      unit_bytes_are(insn, "e8 fb 1f 00 00"));
	CHECK("i386: no address is out of reach", arch_call_reach() == UINTPTR_MAX);
	CHECK("i386: a site of another length refused",
	      arch_make_call(0x1000, NULL, 4, 0x2000, insn) == -1 &&
	      arch_make_call(0x1000, NULL, 7, 0x2000, insn) == -1);
}

static void trampoline(void)
{
	uint8_t t[8];

	arch_tramp_write(t, (uintptr_t)t + 0x2000);
	/* jmp .+0x2000; int3; int3; int3 */
	CHECK("i386: trampoline jmp rel32, then int3",
	      arch_tramp_size() == 8 && unit_bytes_are(t, "e9 fb 1f 00 00 cc cc cc"));
	CHECK("i386: caller per site kind",
	      arch_caller_for(SITE_ENTRY) == (uintptr_t)ftrace_caller &&
	      arch_caller_for(SITE_FRAME) == (uintptr_t)ftrace_caller_frame &&
	      arch_caller_for(SITE_FRAME_REALIGNED) == (uintptr_t)ftrace_caller_realigned);
}

/* ---- the trap: a thread at a site being patched ---- */

static uint32_t stack[16];

/* A thread stopped by the breakpoint at site: %eip one byte past it. */
static void stopped_at(ucontext_t *uc, uintptr_t site)
{
	memset(uc, 0, sizeof(*uc));
	uc->uc_mcontext.gregs[REG_EIP] = (greg_t)(site + 1);
	uc->uc_mcontext.gregs[REG_ESP] = (greg_t)(uintptr_t)&stack[8];
	uc->uc_mcontext.gregs[REG_UESP] = (greg_t)(uintptr_t)&stack[8];
}

static void breakpoint(void)
{
	uint8_t insn[8];
	ucontext_t uc;

	/* int3 */
	CHECK("i386: the breakpoint is int3",
	      arch_breakpoint_len == 1 && unit_bytes_are(arch_breakpoint, "cc"));
	stopped_at(&uc, 0x8048000);
	CHECK("i386: the trap's site is one byte before %eip",
	      arch_trap_address(&uc) == 0x8048000);

	arch_make_nop(NULL, 5, insn);
	CHECK("i386: a nop emulated: past the site, nothing pushed",
	      arch_emulate(&uc, 0x8048000, insn, 5) == 0 &&
	      uc.uc_mcontext.gregs[REG_EIP] == 0x8048005 &&
	      uc.uc_mcontext.gregs[REG_ESP] == (greg_t)(uintptr_t)&stack[8]);

	stopped_at(&uc, 0x8048000);
	arch_make_call(0x8048000, NULL, 6, 0x8049000, insn);
	CHECK("i386: a call emulated: the return address pushed, %eip at the target",
	      arch_emulate(&uc, 0x8048000, insn, 6) == 0 &&
	      uc.uc_mcontext.gregs[REG_EIP] == 0x8049000 &&
	      uc.uc_mcontext.gregs[REG_ESP] == (greg_t)(uintptr_t)&stack[7] &&
	      uc.uc_mcontext.gregs[REG_UESP] == (greg_t)(uintptr_t)&stack[7] &&
	      stack[7] == 0x8048006);

	stopped_at(&uc, 0x8048000);
	/* jmp .+0x10: no site's instruction */
	CHECK("i386: another instruction is not emulated",
	      arch_emulate(&uc, 0x8048000, (const uint8_t *)"\xe9\x0b\x00\x00\x00", 5) == -1);
}

static void pokes(void)
{
	static uint8_t code[128] __attribute__((aligned(64)));
	uint8_t call[6];

	CHECK("i386: a site within a cache line is poked at once",
	      arch_can_poke_atomic(0x1000, 5) && arch_can_poke_atomic(0x103a, 6));
	CHECK("i386: one across a cache line is not",
	      !arch_can_poke_atomic(0x103c, 5) && !arch_can_poke_atomic(0x103e, 6));

	memset(code, 0x90, sizeof(code));
	arch_make_call((uintptr_t)code + 59, NULL, 5, (uintptr_t)code + 0x1000, call);
	CHECK("i386: a poke at a line's end writes the site and nothing around it",
	      arch_poke_atomic((uintptr_t)code + 59, call, 5) == 0 &&
	      !memcmp(code + 59, call, 5) && code[58] == 0x90 && code[64] == 0x90);
}

int main(void)
{
	nops();
	calls();
	trampoline();
	breakpoint();
	pokes();
	return unit_done();
}
