// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64: the bytes of the runtime's patches.
 *
 *   5-byte site   nop:  0f 1f 44 00 00          call:  e8 rel32
 *   6-byte site   nop:  66 0f 1f 44 00 00       call:  67 e8 rel32
 *
 * A 6-byte site (gcc's "call *mcount@GOTPCREL(%rip)") stays one
 * instruction in both states: the addr32 prefix pads the call, as ld does
 * when it relaxes the same instruction.  Two instructions would let a
 * thread stop between them, and a later nop would cut its return address
 * in half.
 */
#include "../arch.h"
#include "../x86/x86.h"

#include <string.h>

extern char ftrace_caller_detour[], ftrace_detour_call[], ftrace_fix_pc_arg[];	/* entry.S */

static const uint8_t nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
static const uint8_t nop6[] = { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 };

const unsigned ftrace_call_len = 5;

void arch_make_nop(const uint8_t *orig, unsigned len, uint8_t *insn)
{
	memcpy(insn, len == 6 ? nop6 : nop5, len);
}

int arch_make_call(uintptr_t ip, const uint8_t *orig, unsigned len, uintptr_t target,
		   uint8_t *insn)
{
	int64_t rel = (int64_t)(target - (ip + len));

	if (rel != (int32_t)rel)
		return -1;
	return x86_write_call(len, (uint32_t)rel, insn);
}

uintptr_t arch_call_reach(void)
{
	/* rel32 reaches +-2 GiB; keep a page of margin for the site's own size. */
	return (1ul << 31) - 4096;
}

/*
 * A far-call trampoline:  ff 25 00 00 00 00   jmp *0(%rip)
 *                         <8-byte target>
 */
size_t arch_tramp_size(void)
{
	return 16;
}

void arch_tramp_write(uint8_t *at, uintptr_t target)
{
	static const uint8_t jmp_rip[] = { 0xff, 0x25, 0, 0, 0, 0 };

	memcpy(at, jmp_rip, sizeof(jmp_rip));
	memcpy(at + sizeof(jmp_rip), &target, sizeof(target));
	memset(at + 14, 0xcc, 2);
}

uintptr_t arch_caller_for(enum site_kind kind)
{
	if (kind == SITE_RETURN)
		return (uintptr_t)ftrace_return_caller;
	if (kind == SITE_TAIL_CALL)
		return (uintptr_t)ftrace_tail_caller;
	if (kind == SITE_DETOUR)
		return (uintptr_t)ftrace_caller_detour;
	return (uintptr_t)(kind == SITE_FRAME ? ftrace_caller_frame : ftrace_caller);
}

/* What follows a return site: ret (c3), ret imm16 (c2), or either with
 * a rep or bnd prefix; anything else is the jump of a tail call. */
int arch_insn_is_return(const uint8_t *insn)
{
	unsigned op = insn[0] == 0xf3 || insn[0] == 0xf2 ? insn[1] : insn[0];

	return op == 0xc3 || op == 0xc2;
}

/* An idle site is the 5-byte nop gcc puts there, nothing before it. */
void arch_return_site_off(uint8_t *insn)
{
	arch_make_nop(NULL, ARCH_RETURN_SITE_LEN, insn);
}

/* ftrace_caller's block: rax rcx rdx rsi rdi r8 r9 r10 r11; the System V
 * ABI passes integers in rdi rsi rdx rcx r8 r9, doubles in xmm0-7. */
const struct arch_arg_regs arch_arg_regs = {
	.nr_int = 6,
	.nr_fp = 8,
	.int_slot = { 4, 3, 2, 1, 5, 6 },
};

/*
 * A library call's stub (core/libcalls.c), its words word_off bytes on:
 *
 *   ff 15 rel32   call *caller(%rip)     returns to at + 6
 *   ff 25 rel32   jmp  *target(%rip)
 *   0f 0b 0f 0b   ud2 (never reached)
 *
 * Entered by the caller's "call *slot" (through its PLT, or -fno-plt's
 * call), [%rsp] is the caller's return address, as at a function's first
 * instruction: ftrace_caller's entry path takes it as an entry site's.
 * The call leaves %rsp 16-byte aligned in ftrace_caller, as an fentry
 * call does; the jump leaves the stack as the caller made it, every
 * argument register as ftrace_caller found it.
 */
unsigned arch_libcall_stub(uint8_t *code, uintptr_t word_off)
{
	int32_t to_caller = (int32_t)(word_off - 6), to_target = (int32_t)(word_off + 8 - 12);

	code[0] = 0xff, code[1] = 0x15;
	memcpy(code + 2, &to_caller, 4);
	code[6] = 0xff, code[7] = 0x25;
	memcpy(code + 8, &to_target, 4);
	memcpy(code + 12, "\x0f\x0b\x0f\x0b", 4);
	return 6;
}

/*
 * A detour's stub begins with its call to ftrace_caller_detour (entry.S),
 * %r11 kept around it.  The hook returns with %r11 the value of the
 * function's return slot, 8(%rsp) there; return_to_handler if the graph
 * tracer took the call.  Then the head calls the function's copy from
 * ftrace_detour_call, whose call ends at return_to_handler: it pushes
 * the value the slot held, at the slot, and the return stack predicts
 * the function's return there (return_to_handler then leaves by a ret,
 * FT_FRAME_PAIRED).  The words, word_off bytes on:
 * ftrace_caller_detour, return_to_handler, ftrace_detour_call.
 *
 *    0  41 53            push %r11
 *    2  ff 15 rel32      call *caller(%rip)       returns to stub + 8
 *    8  4c 3b 1d rel32   cmp  handler(%rip),%r11
 *   15  75 14            jne  37
 *   17  4c 8d 1d rel32   lea  39(%rip),%r11       the copy, for the call:
 *   24  4c 89 5c 24 f8   mov  %r11,-8(%rsp)       16 bytes below the slot,
 *   29  41 5b            pop  %r11                in the red zone (no
 *   31  ff 25 rel32      jmp  *detour_call(%rip)  signal frame writes it)
 *   37  41 5b            pop  %r11
 *   39  the function's relocated first instructions, then jmp f + len
 *
 * entered by the entry's jmp, 8(%rsp) the caller's return address at the
 * call.  The entry:
 *
 *   e9 rel32      jmp stub
 */
unsigned arch_detour_call(uint8_t *code, intptr_t word_off, unsigned *resume)
{
	static const uint8_t head[] = {
		0x41, 0x53, 0xff, 0x15, 0, 0, 0, 0, 0x4c, 0x3b, 0x1d, 0, 0, 0, 0,
		0x75, 0x14, 0x4c, 0x8d, 0x1d, 15, 0, 0, 0, 0x4c, 0x89, 0x5c, 0x24, 0xf8,
		0x41, 0x5b, 0xff, 0x25, 0, 0, 0, 0, 0x41, 0x5b,
	};
	int32_t to_caller = (int32_t)(word_off - 8), to_handler = (int32_t)(word_off + 8 - 15),
		to_call = (int32_t)(word_off + 16 - 37);

	memcpy(code, head, sizeof(head));
	memcpy(code + 4, &to_caller, 4);
	memcpy(code + 11, &to_handler, 4);
	memcpy(code + 33, &to_call, 4);
	*resume = 8;
	return sizeof(head);
}

/*
 * A pc fix's head (detours.c): one call to ftrace_fix_pc_arg, which
 * gives back every register but the hook's pc argument, %rdi.
 *
 *    0  ff 15 rel32      call *fix_pc_arg(%rip)
 *    6  the hook's relocated first instructions, then jmp hook + len
 */
unsigned arch_detour_pc_call(uint8_t *code, intptr_t word_off)
{
	int32_t to_fix = (int32_t)(word_off + 24 - 6);

	code[0] = 0xff;
	code[1] = 0x15;
	memcpy(code + 2, &to_fix, 4);
	return 6;
}

unsigned arch_detour_words(uintptr_t *words)
{
	words[0] = (uintptr_t)ftrace_caller_detour;
	words[1] = (uintptr_t)return_to_handler;
	words[2] = (uintptr_t)ftrace_detour_call;
	words[3] = (uintptr_t)ftrace_fix_pc_arg;
	return 4;
}

int arch_detour_jump(uintptr_t entry, uintptr_t stub, uint8_t *insn, unsigned *len)
{
	int64_t rel = (int64_t)(stub - (entry + 5));

	if (rel != (int32_t)rel)
		return -1;
	insn[0] = 0xe9;
	memcpy(insn + 1, &(int32_t){ (int32_t)rel }, 4);
	*len = 5;
	return 0;
}

int arch_detour_reaim(uint8_t *p, uintptr_t from, uintptr_t to)
{
	return x86_reaim_rel32(p, from, to);
}

/*
 * Every 4 bytes of the code taken for a RIP-relative displacement, of an
 * instruction that ends with them or with an immediate of 1 or 4 bytes
 * after them.  A slot so addressed is called through only if every such
 * reference is preceded by
 *
 *   ff 15   call *disp(%rip)        ff 25   jmp *disp(%rip)   (a tail call)
 *
 * "mov disp(%rip),%reg" (8b 05 ...), "cmpq $0,disp(%rip)" (a weak
 * function's test) and any bytes that happen to look like one count as
 * other uses.
 */
void arch_got_uses(const uint8_t *text, uint64_t len, uint64_t vaddr, const uint64_t *slots,
		   unsigned n, uint8_t *use)
{
	static const unsigned tails[] = { 0, 1, 4 };

	for (uint64_t i = 0; n && i + 4 <= len; i++) {
		uint64_t at;
		int32_t disp;

		memcpy(&disp, text + i, 4);
		at = vaddr + i + 4 + (int64_t)disp;
		if (at + 4 < slots[0] || at > slots[n - 1])
			continue;	/* nowhere near: most of the code */
		for (unsigned t = 0; t < 3; t++) {
			int k = arch_got_slot_index(slots, n, at + tails[t]);

			if (k < 0)
				continue;
			use[k] |= t == 0 && i >= 2 && text[i - 2] == 0xff &&
				  (text[i - 1] == 0x15 || text[i - 1] == 0x25) ?
				  ARCH_GOT_CALLED : ARCH_GOT_OTHER;
		}
	}
}
