// SPDX-License-Identifier: GPL-2.0
/*
 * riscv64: the runtime's encoders, its trap emulation and its prologue
 * reader, checked against each other and against hand-assembled words.
 * Built for riscv64 with the arch's ftrace.c and trap.c (the Makefile's
 * rule for tests/unit/test_ARCH_*.c) and run under qemu-user.
 */
#include "unit.h"
#include "arch/arch.h"
#include "riscv64.h"
#include "core/ftrace.h"
#include "../../src/arch/riscv64/frame.c"

#include <stdio.h>
#include <string.h>
#include <ucontext.h>

char ftrace_caller[4], ftrace_caller_frame[4], ftrace_call[4], ftrace_graph_call[4];
char ftrace_stub[4], return_to_handler[4];

static uint32_t word(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* Run insn (len bytes at ip) through the trap's emulation. */
static int run(uintptr_t ip, const uint8_t *insn, unsigned len, ucontext_t *uc)
{
	memset(uc, 0, sizeof(*uc));
	uc->uc_mcontext.__gregs[REG_RA] = 0x1111;
	uc->uc_mcontext.__gregs[RV_T0] = 0x2222;
	uc->uc_mcontext.__gregs[REG_PC] = ip;
	return arch_emulate(uc, ip, insn, len);
}

static void nops(void)
{
	static const uint8_t cnops[8] = { 1, 0, 1, 0, 1, 0, 1, 0 };
	uint8_t insn[8];
	ucontext_t uc;

	arch_make_nop(NULL, 4, insn);
	CHECK("riscv64: 4-byte nop is addi zero, zero, 0", word(insn) == 0x00000013);
	arch_make_nop(cnops, 8, insn);
	CHECK("riscv64: 8-byte nop is j +8; nop",
	      word(insn) == 0x0080006f && word(insn + 4) == 0x00000013);
	CHECK("riscv64: j +8 emulated: pc past the site",
	      run(0x10000, insn, 8, &uc) == 0 && uc.uc_mcontext.__gregs[REG_PC] == 0x10008 &&
	      uc.uc_mcontext.__gregs[REG_RA] == 0x1111);
	CHECK("riscv64: four c.nop emulated",
	      run(0x10000, cnops, 8, &uc) == 0 && uc.uc_mcontext.__gregs[REG_PC] == 0x10008);
}

/* A computed 8-byte call reaches exactly target, returning in t0. */
static void far_call(uintptr_t ip, int64_t off)
{
	uint8_t insn[8];
	ucontext_t uc;
	char what[96];

	snprintf(what, sizeof(what), "riscv64: auipc t0 + jalr t0 to ip%+lld", (long long)off);
	CHECK(what,
	      arch_make_call(ip, NULL, 8, ip + off, insn) == 0 && run(ip, insn, 8, &uc) == 0 &&
	      uc.uc_mcontext.__gregs[REG_PC] == ip + off &&
	      uc.uc_mcontext.__gregs[RV_T0] == ip + 8 &&
	      uc.uc_mcontext.__gregs[REG_RA] == 0x1111);
}

static void calls8(void)
{
	/* auipc ra, 0x1; jalr ra, -0x10(ra): a call to mcount ld left alone */
	static const uint8_t mcount[8] = { 0x97, 0x10, 0, 0, 0xe7, 0x80, 0x00, 0xff };
	static const int64_t offs[] = { 0, 8, 0x7fe, 0x800, -0x800, -0x802, 0x12345678,
					-0x80000000ll, 0x7ffff7fe };
	uintptr_t ip = 0x4000000000;
	uint8_t insn[8];
	ucontext_t uc;

	for (unsigned i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
		far_call(ip, offs[i]);
	CHECK("riscv64: no 8-byte call of ours beyond +2 GiB",
	      arch_make_call(ip, NULL, 8, ip + 0x80000000ll, insn) == -1);
	CHECK("riscv64: beyond reach: the compiler's call to mcount again",
	      arch_make_call(ip, mcount, 8, ip + 0x80000000ll, insn) == 0 &&
	      !memcmp(insn, mcount, 8));
	CHECK("riscv64: the compiler's auipc ra + jalr ra emulated",
	      run(ip, mcount, 8, &uc) == 0 &&
	      uc.uc_mcontext.__gregs[REG_PC] == ip + 0x1000 - 0x10 &&
	      uc.uc_mcontext.__gregs[REG_RA] == ip + 8);
}

static void calls4(void)
{
	uintptr_t ip = 0x4000000000;
	uint32_t jal;
	uint8_t orig[4], insn[4];
	ucontext_t uc;

	CHECK("riscv64: jal encodes", rv_make_jal(ip, ip - 0x80, RV_RA, &jal) == 0);
	memcpy(orig, &jal, 4);
	CHECK("riscv64: a 4-byte site's call is the compiler's jal, whatever the target",
	      arch_make_call(ip, orig, 4, ip + 0x40000000, insn) == 0 && !memcmp(insn, orig, 4));
	CHECK("riscv64: jal ra emulated",
	      run(ip, insn, 4, &uc) == 0 && uc.uc_mcontext.__gregs[REG_PC] == ip - 0x80 &&
	      uc.uc_mcontext.__gregs[REG_RA] == ip + 4);
	CHECK("riscv64: ftrace_call: jal ra, +1 MiB - 2",
	      arch_make_call(ip, NULL, 4, ip + 0xffffe, insn) == 0 &&
	      run(ip, insn, 4, &uc) == 0 && uc.uc_mcontext.__gregs[REG_PC] == ip + 0xffffe &&
	      uc.uc_mcontext.__gregs[REG_RA] == ip + 4);
	CHECK("riscv64: ftrace_call: jal ra, -1 MiB",
	      arch_make_call(ip, NULL, 4, ip - 0x100000, insn) == 0 &&
	      run(ip, insn, 4, &uc) == 0 && uc.uc_mcontext.__gregs[REG_PC] == ip - 0x100000);
	CHECK("riscv64: no jal beyond +1 MiB",
	      arch_make_call(ip, NULL, 4, ip + 0x100000, insn) == -1);
}

static void trampoline(void)
{
	uint8_t t[32];
	uintptr_t target = 0x123456789abcdef0ull, got;

	CHECK("riscv64: trampoline: 24 bytes",
	      arch_tramp_size() == 24 && arch_tramp_size() % 8 == 0);
	arch_tramp_write(t, target);
	memcpy(&got, t + 16, 8);
	/* auipc t1, 0; ld t1, 16(t1); jr t1 */
	CHECK("riscv64: trampoline: auipc t1; ld t1, 16(t1); jr t1; .quad target",
	      word(t) == 0x00000317 && word(t + 4) == 0x01033303 && word(t + 8) == 0x00030067 &&
	      got == target);
}

static void pokes(void)
{
	CHECK("riscv64: aligned words can be poked",
	      arch_can_poke_atomic(0x1000, 4) && arch_can_poke_atomic(0x1008, 8) &&
	      arch_can_poke_atomic(0x1002, 2));
	CHECK("riscv64: unaligned ones cannot",
	      !arch_can_poke_atomic(0x1002, 4) && !arch_can_poke_atomic(0x1004, 8) &&
	      !arch_can_poke_atomic(0x1000, 6));
}

/* ---- the prologue reader, on a fake record ---- */

static struct ftrace_rec rec;

uint32_t ftrace_rec_lookup_outside(uintptr_t self_ret)
{
	return self_ret == rec.ip + rec.len ? 1 : 0;
}

struct ftrace_rec *ftrace_rec_get(uint32_t id)
{
	return id == 1 ? &rec : NULL;
}

/* Where frame.c says ra is, for code whose site is at code + at. */
static intptr_t slot_of(const void *code, unsigned at, uintptr_t sp)
{
	uintptr_t *slot;

	rec.func = (uintptr_t)code;
	rec.ip = rec.func + at;
	rec.len = 4;
	rec.kind = SITE_FRAME;
	slot = riscv64_frame_slot(rec.ip + 4, sp);
	return slot ? (intptr_t)((uintptr_t)slot - sp) : -1;
}

static void prologues(void)
{
	/* gcc -O2: addi sp, sp, -32; sd ra, 24(sp); sd s0, 16(sp); mv a0, ra */
	static const uint16_t gcc_o2[] = { 0x1101, 0xec06, 0xe822, 0x8506 };
	/* clang -O0: addi sp, sp, -48; sd ra, 40(sp); sd s0, 32(sp); addi s0, sp, 48 */
	static const uint16_t clang_o0[] = { 0x7179, 0xf406, 0xf022, 0x1800 };
	/* a large frame: addi sp, sp, -2032; sd ra, 2024(sp); lui t0, 1; sub sp, sp, t0 */
	static const uint32_t large[] = { 0x81010113, 0x7e113423, 0x000012b7, 0x40510133 };
	/* gcc -O2, 9000-byte frame: addi sp, sp, -848; c.lui t0, -2; sd ra, 840(sp);
	 * sd s0, 832(sp); sd s1, 824(sp); c.add sp, t0; mv s0, a0; mv a0, ra */
	static const uint16_t gcc_big[] = { 0x0113, 0xcb01, 0x72f9, 0x3423, 0x3411, 0x3023,
					    0x3481, 0x3c23, 0x3291, 0x9116, 0x842a, 0x8506 };
	/* clang -O2, 9000-byte frame: ... c.lui a1, 2; addiw a1, a1, -1184; sub sp, sp, a1 */
	static const uint16_t clang_big[] = { 0x0113, 0x8101, 0x3423, 0x7e11, 0x3023, 0x7e81,
					      0x3c23, 0x7c91, 0x0413, 0x7f01, 0x6589, 0x859b,
					      0xb605, 0x0133, 0x40b1, 0x84aa };
	/* sp from a register not known: mv sp, s0 */
	static const uint16_t from_s0[] = { 0x1101, 0xec06, 0x0113, 0x0004 };
	/* ra below the top of the frame (varargs area above it) */
	static const uint16_t varargs[] = { 0x715d, 0xec06 };	/* addi sp, sp, -80; sd ra, 24(sp) */

	CHECK("riscv64: gcc -O2: ra at 24(sp)", slot_of(gcc_o2, 8, 0x8000) == 24);
	CHECK("riscv64: clang -O0: ra at 40(sp)", slot_of(clang_o0, 8, 0x8000) == 40);
	CHECK("riscv64: large frame: ra at 2024(sp) + 4096",
	      slot_of(large, 16, 0x8000) == 2024 + 4096);
	CHECK("riscv64: gcc big frame: c.lui t0; c.add sp, t0",
	      slot_of(gcc_big, 24, 0x8000) == 840 + 8192);
	CHECK("riscv64: clang big frame: c.lui; addiw; sub sp, sp, a1",
	      slot_of(clang_big, 32, 0x8000) == 2024 + 7008);
	CHECK("riscv64: sp from an unknown register: no slot",
	      slot_of(from_s0, 8, 0x8000) == -1);
	CHECK("riscv64: ra not at CFA - 8: no slot", slot_of(varargs, 4, 0x8000) == -1);
	rec.kind = SITE_ENTRY;
	CHECK("riscv64: an entry site: no slot",
	      riscv64_frame_slot(rec.ip + 4, 0x8000) == NULL);
	CHECK("riscv64: no record: no slot", riscv64_frame_slot(0x1234, 0x8000) == NULL);
}

int main(void)
{
	nops();
	calls8();
	calls4();
	trampoline();
	pokes();
	prologues();
	return unit_done();
}
