// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 detours: every relocation's exact bytes in a trampoline 1 MB
 * after the function (src/arch/x86_64/detour.c), and every refusal.
 */
#include "detour_fixture.h"

#include <elf.h>

#define START	0x400000ull
#define TRAMP	0x500000ull

/* The copy of the hex code (all of it moves), compared with want. */
static int moves_to(struct detour_dec *d, const char *code, const char *want)
{
	uint8_t c[64], w[128];
	size_t n = hex_bytes(code, c);

	return copy_is(d, c, START, n, TRAMP, w, hex_bytes(want, w));
}

static int copy_fails(struct detour_dec *d, const char *code, uint64_t tramp, size_t room)
{
	uint8_t c[64], out[128];
	size_t n = hex_bytes(code, c);

	return detour_copy(d, c, START, n, tramp, out, room);
}

static void relocations(struct detour_dec *d)
{
	CHECK("x86_64 detour: plain instructions copied, then jmp back",
	      moves_to(d, "55 48 89 e5 41 57", "55 48 89 e5 41 57 e9 fb ff ef ff"));
	CHECK("x86_64 detour: jmp rel8 becomes jmp rel32",
	      moves_to(d, "eb 10 90 90 90", "e9 0d 00 f0 ff 90 90 90 e9 f8 ff ef ff"));
	CHECK("x86_64 detour: jcc rel8 becomes jcc rel32",
	      moves_to(d, "74 03 48 89 f8", "0f 84 ff ff ef ff 48 89 f8 e9 f7 ff ef ff"));
	CHECK("x86_64 detour: jcc rel32 re-targeted",
	      moves_to(d, "0f 85 00 01 00 00", "0f 85 00 01 f0 ff e9 fb ff ef ff"));
	CHECK("x86_64 detour: backward jcc rel8 re-targeted",
	      moves_to(d, "48 85 c0 7e f0", "48 85 c0 0f 8e ec ff ef ff e9 f7 ff ef ff"));
	CHECK("x86_64 detour: bnd jmp loses its prefix",
	      moves_to(d, "f2 e9 00 00 00 00", "e9 01 00 f0 ff e9 fc ff ef ff"));
	CHECK("x86_64 detour: call rel32 re-targeted",
	      moves_to(d, "e8 00 10 00 00", "e8 00 10 f0 ff e9 fb ff ef ff"));
	CHECK("x86_64 detour: RIP-relative load re-targeted",
	      moves_to(d, "48 8b 05 10 00 00 00", "48 8b 05 10 00 f0 ff e9 fb ff ef ff"));
	CHECK("x86_64 detour: RIP-relative store keeps its immediate",
	      moves_to(d, "c7 05 10 00 00 00 01 00 00 00",
		       "c7 05 10 00 f0 ff 01 00 00 00 e9 fb ff ef ff"));
	CHECK("x86_64 detour: cmpw $0 of a RIP-relative word, after its 66 prefix",
	      moves_to(d, "66 83 3d 80 c8 4a 05 00", "66 83 3d 80 c8 3a 05 00 e9 fb ff ef ff"));
	CHECK("x86_64 detour: VEX vbroadcastss of a RIP-relative float",
	      moves_to(d, "c4 e2 79 18 05 10 00 00 00",
		       "c4 e2 79 18 05 10 00 f0 ff e9 fb ff ef ff"));
	CHECK("x86_64 detour: lea of a RIP-relative address re-targeted",
	      moves_to(d, "48 8d 3d f0 ff ff ff", "48 8d 3d f0 ff ef ff e9 fb ff ef ff"));
	CHECK("x86_64 detour: call through a GOT slot re-targeted",
	      moves_to(d, "ff 15 00 20 00 00", "ff 15 00 20 f0 ff e9 fb ff ef ff"));
	CHECK("x86_64 detour: loop branches to a jmp rel32 of its own",
	      moves_to(d, "e2 10 90 90 90",
		       "e2 02 eb 05 e9 09 00 f0 ff 90 90 90 e9 f4 ff ef ff"));
	CHECK("x86_64 detour: jecxz keeps its address-size prefix",
	      moves_to(d, "67 e3 10 90 90",
		       "67 e3 02 eb 05 e9 09 00 f0 ff 90 90 e9 f4 ff ef ff"));
	CHECK("x86_64 detour: ret and what follows copied",
	      moves_to(d, "c3 cc cc cc cc", "c3 cc cc cc cc e9 fb ff ef ff"));
}

static void reach(struct detour_dec *d)
{
	uint8_t out[8];

	CHECK("x86_64 detour: entry jmp rel32 to the trampoline",
	      detour_entry(d, START, TRAMP, out) == 5 && unit_bytes_are(out, "e9 fb ff 0f 00"));
	CHECK("x86_64 detour: entry jmp backward",
	      detour_entry(d, TRAMP, START, out) == 5 && unit_bytes_are(out, "e9 fb ff ef ff"));
	CHECK("x86_64 detour: trampoline 4 GB away out of reach of the entry",
	      detour_entry(d, START, START + (4ull << 30), out) == -DETOUR_OUT_OF_REACH);
	CHECK("x86_64 detour: RIP-relative operand out of reach of the trampoline",
	      copy_fails(d, "48 8b 05 10 00 00 00", START + (3ull << 30), 128) ==
		      -DETOUR_OUT_OF_REACH);
	CHECK("x86_64 detour: call out of reach of the trampoline",
	      copy_fails(d, "e8 00 10 00 00", START + (3ull << 30), 128) == -DETOUR_OUT_OF_REACH);
	CHECK("x86_64 detour: no room in the trampoline",
	      copy_fails(d, "55 48 89 e5 41 57", TRAMP, 8) == -DETOUR_NO_ROOM);
	CHECK("x86_64 detour: a copy that ends inside an instruction",
	      copy_fails(d, "55 48 89", TRAMP, 128) == -DETOUR_UNDECODABLE);
}

/* The plan of the hex code as one function at START. */
static struct detour_plan plan_hex(struct detour_dec *d, const char *code)
{
	uint8_t c[128];
	size_t n = hex_bytes(code, c);

	return plan_one(d, c, START, n);
}

static int refused(struct detour_dec *d, const char *code, unsigned why, uint64_t at)
{
	struct detour_plan p = plan_hex(d, code);

	if (p.refusal == why && p.why_at == at)
		return 1;
	printf("  refusal %u (%s) at %#llx\n", p.refusal, detour_refusal_str(p.refusal),
	       (unsigned long long)p.why_at);
	return 0;
}

static void plans(struct detour_dec *d)
{
	struct detour_plan p;

	p = plan_hex(d, "55 48 89 e5 41 57 31 c0 5d c3");
	CHECK("x86_64 plan: push, mov: 6 bytes in 3 instructions",
	      p.refusal == DETOUR_OK && p.patch == START && p.len == 6 && p.moved == 3);
	p = plan_hex(d, "f3 0f 1e fa 55 48 89 e5 41 57 5d c3");
	CHECK("x86_64 plan: endbr64 kept in place, the jump after it",
	      p.refusal == DETOUR_OK && p.patch == START + 4 && p.len == 6);
	CHECK("x86_64 plan: 3 bytes too short",
	      refused(d, "31 c0 c3", DETOUR_TOO_SHORT, START));
	CHECK("x86_64 plan: endbr64 and 4 bytes too short",
	      refused(d, "f3 0f 1e fa 31 c0 5d c3", DETOUR_TOO_SHORT, START));
	CHECK("x86_64 plan: a loop back into the replaced bytes",
	      refused(d, "53 48 89 fb 48 83 eb 01 75 f7 5b c3", DETOUR_TARGET_INSIDE, START + 1));
	CHECK("x86_64 plan: a loop back to the entry itself is harmless",
	      plan_hex(d, "48 83 ef 01 48 85 ff 75 f6 c3").refusal == DETOUR_OK);
	CHECK("x86_64 plan: a code address taken inside the replaced bytes",
	      refused(d, "53 48 8d 05 f9 ff ff ff 5b ff e0", DETOUR_TARGET_INSIDE, START + 1));
	CHECK("x86_64 plan: a call last among the moved instructions",
	      plan_hex(d, "53 e8 00 10 00 00 5b c3").refusal == DETOUR_OK);
	CHECK("x86_64 plan: a call that returns inside the replaced bytes",
	      refused(d, "ff d0 48 89 c7 5b c3", DETOUR_CALL_INSIDE, START + 2));
	CHECK("x86_64 plan: a call through a GOT slot, last",
	      plan_hex(d, "ff 15 00 10 00 00 c3").refusal == DETOUR_OK);
	CHECK("x86_64 plan: a return, then padding",
	      plan_hex(d, "c3 0f 1f 40 00 c3").refusal == DETOUR_OK);
	CHECK("x86_64 plan: a return, then code only a landing pad could reach",
	      refused(d, "c3 48 89 f8 c3", DETOUR_UNREACHED, START + 1));
	CHECK("x86_64 plan: ud2, then code",
	      refused(d, "0f 0b 48 89 f8 c3", DETOUR_UNREACHED, START + 2));
	CHECK("x86_64 plan: a conditional branch falls through",
	      plan_hex(d, "74 10 48 89 f8 c3 90 90 90 90 90 90 90 90 90 90 90 90 c3").refusal ==
		      DETOUR_OK);
	CHECK("x86_64 plan: xbegin cannot move",
	      refused(d, "c7 f8 00 00 00 00 c3", DETOUR_UNMOVABLE, START));
	CHECK("x86_64 plan: undecodable at the entry",
	      refused(d, "d6 90 90 90 90 90", DETOUR_UNDECODABLE, START));
	CHECK("x86_64 plan: undecodable later, the rest unknown",
	      refused(d, "55 48 89 e5 41 57 d6 c3", DETOUR_UNDECODABLE, START + 6));
	/* push %rbx; movslq (%rdx,%rax,4),%rax; add %rdx,%rax; jmp *%rax */
	CHECK("x86_64 plan: a table read and a register jump, no table address",
	      refused(d, "53 48 63 04 82 48 01 d0 ff e0", DETOUR_JUMP_TABLE, START));
	CHECK("x86_64 plan: the same, with the table's address taken (its entries read)",
	      plan_hex(d, "53 48 8d 15 00 10 00 00 48 63 04 82 48 01 d0 ff e0").refusal ==
		      DETOUR_OK);
	CHECK("x86_64 plan: jmp *T(,%rax,8): a table not read",
	      refused(d, "53 48 89 f8 ff 24 c5 00 10 60 00", DETOUR_JUMP_TABLE, START));
	CHECK("x86_64 plan: a table, but one instruction replaced",
	      plan_hex(d, "48 8b 87 00 01 00 00 ff 24 c5 00 10 60 00").refusal == DETOUR_OK);
	CHECK("x86_64 plan: a tail call through a register",
	      plan_hex(d, "53 48 8b 47 08 5b ff e0").refusal == DETOUR_OK);
	CHECK("x86_64 plan: a tail call through a struct's pointer",
	      plan_hex(d, "53 48 89 f8 5b ff 60 18").refusal == DETOUR_OK);
	CHECK("x86_64 plan: a tail call through a GOT slot",
	      plan_hex(d, "53 48 89 f8 5b ff 25 00 10 00 00").refusal == DETOUR_OK);
}

int main(void)
{
	struct detour_dec d;

	CHECK("x86_64 detour: capstone opens", detour_open(&d, EM_X86_64) == 0);
	relocations(&d);
	reach(&d);
	plans(&d);
	detour_close(&d);
	CHECK("detour: riscv64 not supported", detour_open(&d, EM_RISCV) == -1);
	CHECK("detour: mips not supported", detour_open(&d, EM_MIPS) == -1);
	return unit_done();
}
