/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The architecture contract: everything that knows an opcode, a relocation
 * type or a calling convention lives behind this header, in
 * src/arch/<arch>/.  It has two halves.
 *
 *  1. struct arch_desc, one table per architecture, used on the host by
 *     anything that reads ELF files (list, site discovery, recordmcount):
 *     it decodes the call sites a compiler or linker left in an image.
 *
 *  2. The runtime contract (the list an arch port fills in, after the
 *     kernel's Documentation/trace/ftrace-design), implemented only for the
 *     architecture fntrace runs on: the nop/call encoders, far-call
 *     trampolines, the clock, and the assembly stubs ftrace_caller,
 *     ftrace_call, ftrace_graph_call, ftrace_stub and return_to_handler.
 *     Its optional parts an architecture has it says in one place,
 *     src/arch/<arch>/arch_features.h, as ARCH_HAVE_* (the kernel's
 *     HAVE_*); for each it has not, this header gives the core's default,
 *     static inline.  No weak symbol: a weak default was once inlined over
 *     the arch's definition by the link-time optimizer, and no
 *     floating-point argument was read.  Declaring one without defining it
 *     fails the link; defining one without declaring it fails the compile.
 */
#ifndef FNTRACE_ARCH_H
#define FNTRACE_ARCH_H

#include <stddef.h>
#include <stdint.h>

#include "arch_features.h"
#include "../elf/elf.h"

/* Where a call site sits, which decides where the parent's return
 * address is found when the site calls ftrace_caller. */
enum site_kind {
	SITE_ENTRY,	/* first instruction(s): fentry, patchable entry */
	SITE_FRAME,	/* after the prologue that set up the frame pointer */
	SITE_FRAME_REALIGNED,	/* the same, after the stack was realigned
				 * through a copy of the return address (i386
				 * main()): the arch finds the real slot */
	SITE_RETURN,	/* a nop just before a return (gcc's
			 * -minstrument-return=nop5 -mrecord-return): when on,
			 * it calls ftrace_return_caller, and the graph tracer
			 * leaves the function's return address alone */
	SITE_TAIL_CALL,	/* the same nop before a tail call's jump: it calls
			 * ftrace_tail_caller */
	SITE_LIBCALL,	/* a call into a shared library through a GOT slot
			 * of a traced module: the "site" is a stub of ours
			 * the slot points at when enabled (libcalls.c) */
	SITE_DETOUR,	/* a function built without call sites: its entry
			 * jumps, when enabled, to a stub of ours holding its
			 * first instructions (detours.c); the record's ip is
			 * the stub's */
};

/* Site flags. */
#define SITE_QUIET_ONLY	0x1	/* several instructions now: may only be
				 * rewritten while the process is single-threaded */

/* One call site found in an image, at link-time addresses. */
struct site {
	uint64_t addr;		/* first byte of the site instruction */
	uint64_t func;		/* start of the function it belongs to */
	const char *name;	/* that function's name */
	uint8_t len;		/* bytes the site occupies */
	uint8_t kind;		/* enum site_kind */
	uint8_t flags;		/* SITE_* */
};

/* What an image says about its mcount: the addresses a call to it can
 * target.  Filled in by the core from symbols and dynamic relocations. */
struct mcount_targets {
	const uint64_t *slots;	/* GOT slots bound to mcount/_mcount/__fentry__ */
	unsigned nr_slots;
	const uint64_t *funcs;	/* addresses that are mcount itself */
	unsigned nr_funcs;
};

int mcount_is_slot(const struct mcount_targets *t, uint64_t slot);
/* Is a call to target a call to mcount: to mcount itself, or to a PLT
 * stub (decoded by the arch's plt_slot) jumping through its GOT slot? */
int mcount_is_call(const struct elf_file *f, const struct mcount_targets *t, uint64_t target);

/*
 * recordmcount: how a compiler's call to mcount looks in a relocatable
 * object.  A site is found from its relocation, never from bytes alone:
 * a relocation of type rel_type against mcount, _mcount or __fentry__
 * whose instruction matches.  The site is the len bytes from r_offset +
 * start; --nop replaces all of them.  Instructions are compared in units
 * of 1 byte (x86) or of one 32-bit word read in the object's byte order,
 * so that one table serves both endians.
 */
#define MCOUNT_FORM_MAX 8	/* units in a site */

struct mcount_call_form {
	const char *what;		/* e.g. "call *mcount@GOTPCREL(%rip)" */
	uint32_t rel_type;		/* the call relocation */
	int8_t start;			/* site start - r_offset */
	uint8_t unit;			/* 1 or 4 bytes */
	uint8_t units;			/* site length in units: len = units * unit */
	uint32_t match[MCOUNT_FORM_MAX];	/* what the site holds ... */
	uint32_t mask[MCOUNT_FORM_MAX];	/* ... under this mask (0: any) */
	uint32_t nop[MCOUNT_FORM_MAX];	/* what --nop writes */
	/* A second relocation of the same call, nulled along with it by
	 * --nop when present (riscv R_RISCV_RELAX, mips R_MIPS_JALR). */
	uint32_t pair_type;		/* 0: none */
	int8_t pair_off;		/* its r_offset - the call's r_offset */
};

/* Does the site at p hold what the form says (its relocated fields masked)? */
int mcount_form_matches(const struct elf_file *f, const struct mcount_call_form *form,
			const uint8_t *p);

struct recordmcount_desc {
	const struct mcount_call_form *forms;
	unsigned nr_forms;
	unsigned word_size;		/* 4 or 8: the only ELF class accepted */
	int rela;			/* 1: SHT_RELA, addends in the entries */
	uint32_t rel_word;		/* absolute word: one __mcount_loc entry */
	uint32_t rel_pc32;		/* 32-bit PC-relative: __fntrace_funcs'
					 * sites (src/sites/functable.h); 0: none */
	uint32_t rel_none;		/* R_*_NONE */
	/* Relocations that let the linker delete bytes of a section (riscv
	 * relaxation): a site after one may move, see docs/recordmcount.md. */
	const uint32_t *relax_types;
	unsigned nr_relax_types;
	/* Forms only a linker makes, met in a final image linked with
	 * --emit-relocs (recordmcount --image) and tried before forms: x86's
	 * "67 e8" (a GOT call ld relaxed), riscv's "jal" (a relaxed call). */
	const struct mcount_call_form *image_forms;
	unsigned nr_image_forms;
	/* clang's XRay exit and tail-call sleds (src/sites/xray_map.h), made
	 * return sites by recordmcount --nop: the sled of the given kind at
	 * p, room bytes to its section's end, rewritten in place; 0 if it is
	 * not the sled expected (left as it is).  NULL: none are taken. */
	int (*xray_return_site)(unsigned kind, uint8_t *p, uint64_t room);
};

/*
 * A struct, union or class passed by value, as its calling convention
 * places it (record --auto-args).  The caller flattens it into its
 * scalars, nested aggregates and arrays opened; the arch says whether it
 * travels in registers and, if so, where each scalar lies.
 */
struct arch_scalar {
	uint32_t offset;	/* in: bytes from the aggregate's start */
	uint8_t size;		/* in: its bytes */
	uint8_t fp;		/* in: a float or double; out: in an FP register */
	uint8_t odd;		/* in: a type conventions set apart (long double...) */
	uint8_t reg;		/* out: which of the aggregate's registers of
				 * its kind, from 0 */
	uint8_t shift;		/* out: bytes into that register, from its
				 * least significant */
};

enum arch_pass {
	ARCH_PASS_REGS,		/* in registers: *ints and *fps of them */
	ARCH_PASS_MEMORY,	/* on the stack, or through a hidden pointer */
	ARCH_PASS_UNKNOWN,	/* not a case the arch knows */
};

struct arch_desc {
	const char *name;
	unsigned machine;		/* EM_* */
	const char *triple;		/* GNU triple: cross tools, qemu's -L prefix */
	unsigned rel_relative;		/* R_*_RELATIVE */
	unsigned rel_abs;		/* R_*_64 / R_*_32: an absolute word */
	unsigned rel_glob_dat;		/* GOT slot bound to a symbol */
	unsigned rel_jump_slot;		/* PLT slot bound to a symbol */
	/* Find the mcount/fentry call in the head of the function at func. */
	int (*find_site)(const struct elf_file *f, const struct mcount_targets *t,
			 uint64_t func, uint64_t size, struct site *out);
	/* The GOT slot the PLT stub at stub jumps through; 0 if not a stub. */
	int (*plt_slot)(const struct elf_file *f, uint64_t stub, uint64_t *slot);
	/* GOT slots bound to mcount other than by a relocation (mips: the
	 * dynamic symbol table's GOT part): push(arg, slot) each; NULL if
	 * none are. */
	int (*got_slots)(const struct elf_file *f, int (*push)(void *arg, uint64_t slot),
			 void *arg);
	/* Check the site a table (__mcount_loc, patchable entries) names. */
	int (*check_site)(const struct elf_file *f, uint64_t addr, uint64_t func,
			  struct site *out);
	/* Call sites in relocatable objects, for recordmcount. */
	const struct recordmcount_desc *rmc;
	/* Arguments passed in registers, which record -A can take (the
	 * runtime's arch_arg_regs says where); 0: none yet. */
	uint8_t int_arg_regs, fp_arg_regs;
	/* An aggregate is returned in at most this many registers; a larger
	 * one in memory the caller provides, whose address takes the first
	 * integer argument register if sret_in_arg (x86_64), or a register
	 * of its own (aarch64's x8). */
	uint8_t int_ret_regs, fp_ret_regs, sret_in_arg;
	/* Where an aggregate of size bytes, its n scalars in v, is passed
	 * while int_free and fp_free argument registers are left; NULL:
	 * ARCH_PASS_UNKNOWN always. */
	enum arch_pass (*place_aggregate)(struct arch_scalar *v, unsigned n, uint32_t size,
					  unsigned int_free, unsigned fp_free,
					  unsigned *ints, unsigned *fps);
	/*
	 * fntrace cc, compiling for this target (the kernel's
	 * CC_FLAGS_FTRACE): a flag -pg wants beside it, or NULL; and the
	 * patchable entry the runtime takes as a site, or NULL if it has
	 * none.  cc_fentry: that flag puts -pg's call at the entry, before
	 * the frame set-up, so that no frame pointer is needed for it, and
	 * gcc's -mcmodel=large makes it a call through a register, no site.
	 * cc_return_sites: the runtime takes return sites
	 * (ARCH_HAVE_RETURN_SITES), asked for where the compiler makes them:
	 * CC_RETURNS_WITH_PG beside -pg's sites, CC_RETURNS_WITH_PATCHABLE
	 * (clang's XRay) only with patchable entries, where -pg's slot is not
	 * where a return site finds its frame (aarch64).
	 */
	const char *cc_pg_extra;
	const char *cc_patchable;
	uint8_t cc_fentry, cc_return_sites;
#define CC_RETURNS_WITH_PG		1
#define CC_RETURNS_WITH_PATCHABLE	2
	/* Its runtime traces calls into shared libraries through the GOT
	 * (ARCH_HAVE_LIBCALLS, src/core/libcalls.c). */
	uint8_t libcalls;
};

/*
 * Detours (src/detour/, docs/design.md *Detours*): a function built with
 * no call site is traced by moving its first instructions into a
 * trampoline (the kernel's optprobe "detour buffer") and putting a jump
 * to it in their place.  Host code: the planner reads an image of any
 * architecture, so each architecture that has detours gives one table,
 * src/arch/<arch>/detour.c, found by detour_arch_lookup(); one that has
 * none is "not supported".  Capstone decodes (its instruction is passed
 * as an opaque struct cs_insn); the arch says what an instruction is and
 * re-encodes the ones that move.
 */
struct cs_insn;

/* What an instruction is, to the planner. */
enum detour_kind {
	DETOUR_PLAIN,		/* nothing in it depends on where it is */
	DETOUR_JUMP,		/* direct jump: target */
	DETOUR_COND,		/* direct conditional branch: target */
	DETOUR_CALL,		/* direct call: target */
	DETOUR_CALL_INDIRECT,	/* a call through a register or memory */
	DETOUR_PCREL,		/* reads or computes the address target */
	DETOUR_RET,		/* a return */
	DETOUR_INDIRECT,	/* an indirect jump that may be a jump
				 * table's: it may land anywhere in the function */
	DETOUR_INDIRECT_REG,	/* one through a register: a jump table's
				 * only where the function reads one */
	DETOUR_TABLE_READ,	/* a load that may read a jump table's entry */
	DETOUR_TABLE_BASE,	/* computes the address target, which may be
				 * a jump table's (table_entry) */
	DETOUR_TAIL,		/* an indirect jump that leaves the function
				 * (through a GOT slot, a struct's pointer) */
	DETOUR_PADDING,		/* a nop or int3: what fills the bytes after a
				 * return or a jump */
	DETOUR_TRAP,		/* ud2, hlt: never falls through */
	DETOUR_LANDING,		/* endbr64, BTI: kept in place at the entry */
	DETOUR_NR_KINDS
};

/* Why an entry cannot be replaced by a jump, or 0 (src/detour/detour.c
 * has the words). */
enum detour_refusal {
	DETOUR_OK,
	DETOUR_NO_SIZE,		/* a symbol of size 0: its end is unknown */
	DETOUR_NOT_IN_FILE,	/* its bytes are not in the file */
	DETOUR_UNDECODABLE,	/* an instruction the disassembler does not know */
	DETOUR_TOO_SHORT,	/* fewer bytes than the jump */
	DETOUR_TARGET_INSIDE,	/* a branch lands inside the replaced bytes */
	DETOUR_JUMP_TABLE,	/* an indirect jump may land inside them */
	DETOUR_UNMOVABLE,	/* an instruction there cannot be relocated */
	DETOUR_CALL_INSIDE,	/* a call there returns inside them */
	DETOUR_UNREACHED,	/* code there after a jump: entered from elsewhere */
	DETOUR_OUT_OF_REACH,	/* a relocated operand or the jump does not reach */
	DETOUR_NO_ROOM,		/* the trampoline's buffer is too small */
	DETOUR_COLD_PART,	/* a function's .cold part: jumped to, never called */
	DETOUR_NR_REFUSALS
};

struct detour_arch {
	unsigned machine;		/* EM_* */
	int cs_arch, cs_mode;		/* capstone's cs_arch and cs_mode */
	unsigned jump_len;		/* bytes of the jump at the entry */
	/* Every instruction's length, where it is fixed (4 on aarch64): a
	 * word the disassembler does not know (newer than it) is then
	 * stepped over, where it does not move; 0 (x86): decoding stops. */
	unsigned fixed_len;
	/* A jump table's entry, DETOUR_TABLE_BASE's: 4, a 32-bit offset
	 * from the table; 0, no tables read. */
	unsigned table_entry;
	/* What insn is; *target where the kind has one. */
	enum detour_kind (*classify)(const struct cs_insn *insn, uint64_t *target);
	/* insn re-encoded to run at pc, into out (room bytes, at most
	 * DETOUR_MAX_RELOC): its length, or -enum detour_refusal. */
	int (*relocate)(const struct cs_insn *insn, uint64_t pc, uint8_t *out, size_t room);
	/* The jump_len bytes of a jump from "from" to "to"; -1 out of reach. */
	int (*write_jump)(uint64_t from, uint64_t to, uint8_t *out);
	/*
	 * Where the runtime applies plans (src/detour/publish.c): the 4-byte
	 * field at p, in a copy made to run at "from", made to mean the
	 * same at "to" (arch_detour_reaim's twin); -1 if it no longer
	 * reaches.  NULL: the runtime has no detours here.  plan_far: how
	 * far from the entry the copy is planned, so that each instruction
	 * takes the form that reaches wherever the runtime puts its stub;
	 * plan_step: how far a second copy is planned, to find the fields
	 * by what changed (x86_64: one byte; aarch64: one ADRP page).
	 */
	int (*reaim)(uint8_t *p, uint64_t from, uint64_t to);
	uint64_t plan_far;
	unsigned plan_step;
};

#define DETOUR_MAX_RELOC 32	/* longest re-encoding of one instruction */

const struct arch_desc *arch_lookup(unsigned machine);
/* The architecture whose name starts the GNU triple (mips takes mipsel
 * too), or NULL. */
const struct arch_desc *arch_of_triple(const char *triple);

/* ---- runtime contract: the native architecture only ---- */

#define ARCH_MAX_INSN 8		/* longest site or patchable instruction */

/*
 * A module (its load bias) was mapped, and its sites are about to be made
 * nops, then enabled: an arch may prepare what an enabled site goes
 * through (mips binds the module's GOT and PLT slots of _mcount: its lazy
 * resolver keeps no at).  Optional (ARCH_HAVE_MODULE_PREPARE): by default
 * an enabled site goes through nothing a module must prepare.
 */
#if ARCH_HAVE_MODULE_PREPARE
void arch_module_prepare(uintptr_t bias);
#else
static inline void arch_module_prepare(uintptr_t bias)
{
}
#endif
/*
 * orig: the bytes the compiler or linker left at the site (NULL for
 * ftrace_caller's own sites).  An architecture may need them: a site that
 * is one word of a longer call sequence has a nop of its own (mips), and a
 * compiler's call to mcount may already be the call to ftrace_caller (the
 * runtime's mcount), whatever the distance.
 */
/* The bytes of a nop for a site of len bytes. */
void arch_make_nop(const uint8_t *orig, unsigned len, uint8_t *insn);
/* The bytes of a call from ip (a site of len bytes) to target; -1 if the
 * target is out of reach and a trampoline is needed. */
int arch_make_call(uintptr_t ip, const uint8_t *orig, unsigned len, uintptr_t target,
		   uint8_t *insn);
/* How far a direct call reaches, each way. */
uintptr_t arch_call_reach(void);

/* Far-call trampolines: a few bytes near a module that jump to target. */
size_t arch_tramp_size(void);
void arch_tramp_write(uint8_t *at, uintptr_t target);

/*
 * Library calls (src/core/libcalls.c): a GOT slot of a traced module
 * pointed at a stub of ours, which calls ftrace_caller as an entry site
 * would (the caller's return address just above ours) and then jumps on
 * to the library function:
 *
 *   stub:    call *caller(%rip)      ftrace_caller returns here: self_ret
 *            jmp  *target(%rip)
 *   ...
 *   stub + page:  caller, target     its two words, in the next page
 *
 * arch_libcall_stub() writes the ARCH_LIBCALL_STUB bytes of one stub at
 * code, which reads its words word_off bytes on from where it runs, and
 * returns how far into it its call returns (0: not on this arch).  Optional
 * (ARCH_HAVE_LIBCALLS): by default it returns 0, and library calls are
 * not traced on the architecture.
 */
#ifndef ARCH_LIBCALL_STUB
#define ARCH_LIBCALL_STUB 16
#endif
#ifndef ARCH_HAVE_LIBCALLS
#define ARCH_HAVE_LIBCALLS 0
#endif
/*
 * Detours (src/core/detours.c): a function's entry replaced by a jump to
 * a stub of ours that calls ftrace_caller as an entry site would, then
 * runs the function's first instructions, relocated (planned by the
 * fntrace program, src/detour/), and jumps back:
 *
 *   stub:    <head: the call>        ftrace_caller returns inside it
 *            <the relocated copy>    ... jmp entry + len
 *
 * A function built without call sites may have callers compiled knowing
 * which registers it clobbers (gcc's -fipa-ra): the head and the hooks
 * must give back every register, not only those the ABI keeps.
 * arch_detour_call() writes the head at code, its call reading
 * ftrace_caller_detour's address word_off bytes on (negative: before it),
 * and returns its length (0: no detours on this arch), with in *resume
 * the offset the call returns to: the record's ip + len.
 * arch_detour_words() writes the words the heads read (ARCH_DETOUR_WORDS
 * at most, ftrace_caller_detour's first) and returns how many.
 * ARCH_DETOUR_PAIRED 1: a head whose function the graph tracer took calls
 * the copy from just before return_to_handler, so that the function's
 * return is one the return stack predicts (FRAME_PAIRED, tracer_graph.c).
 * arch_detour_jump() writes the jump of len bytes at entry to stub, -1 if
 * it cannot reach; arch_detour_reaim() makes the 4-byte field at p of a
 * copy made to run at "from" mean the same at "to" (a rel32 or disp32, a
 * B or ADRP word: the detour file's relocs), -1 if it no longer reaches.
 * arch_detour_pc_call() writes the head of a pc fix's stub instead (a
 * hook of the program's handed its own return address, not a traced
 * function: detours.c), its call reading the words' fourth; 0: none here.
 * Optional (ARCH_HAVE_DETOURS).
 */
#ifndef ARCH_HAVE_DETOURS
#define ARCH_HAVE_DETOURS 0
#endif
#ifndef ARCH_DETOUR_PAIRED
#define ARCH_DETOUR_PAIRED 0
#endif
#define ARCH_DETOUR_WORDS 4
#if ARCH_HAVE_DETOURS
unsigned arch_detour_call(uint8_t *code, intptr_t word_off, unsigned *resume);
unsigned arch_detour_pc_call(uint8_t *code, intptr_t word_off);
unsigned arch_detour_words(uintptr_t *words);
int arch_detour_jump(uintptr_t entry, uintptr_t stub, uint8_t *insn, unsigned *len);
int arch_detour_reaim(uint8_t *p, uintptr_t from, uintptr_t to);
/* Where a thread a signal interrupted was (its ucontext's pc). */
uintptr_t arch_context_pc(const void *ucontext);
#else
static inline uintptr_t arch_context_pc(const void *ucontext)
{
	return 0;
}

static inline unsigned arch_detour_call(uint8_t *code, intptr_t word_off, unsigned *resume)
{
	return 0;
}

static inline unsigned arch_detour_pc_call(uint8_t *code, intptr_t word_off)
{
	return 0;
}

static inline unsigned arch_detour_words(uintptr_t *words)
{
	return 0;
}

static inline int arch_detour_jump(uintptr_t entry, uintptr_t stub, uint8_t *insn,
				   unsigned *len)
{
	return -1;
}

static inline int arch_detour_reaim(uint8_t *p, uintptr_t from, uintptr_t to)
{
	return -1;
}
#endif

/*
 * The signal frames under a thread's state (core/sigframes.c): a thread
 * our signal finds inside one of the program's signal handlers resumes,
 * once the handler returns, where the program's signal found it, which
 * may be inside bytes about to change.  Where the kernel puts the
 * handler's return address, the restorer, at a known place of its frame
 * (ARCH_SIGFRAME_ON_STACK), core scans the stack above the interrupted
 * state for it; arch_signal_restorer() says what the restorer is (from a
 * struct sigaction libc filled in), arch_signal_frame_pc() the pc the
 * frame whose restorer word is at "at" resumes at, read with read(), or
 * 0 if the words there are no such frame.  arch_context_sp() is the
 * interrupted stack pointer.
 */
#ifndef ARCH_SIGFRAME_ON_STACK
#define ARCH_SIGFRAME_ON_STACK 0
#endif
typedef long (*arch_read_fn)(uintptr_t at, char *buf, size_t len);
#if ARCH_SIGFRAME_ON_STACK
uintptr_t arch_context_sp(const void *ucontext);
uintptr_t arch_signal_restorer(const void *sigaction);
uintptr_t arch_signal_frame_pc(uintptr_t at, arch_read_fn read);
#else
static inline uintptr_t arch_context_sp(const void *ucontext)
{
	return 0;
}

static inline uintptr_t arch_signal_restorer(const void *sigaction)
{
	return 0;
}

static inline uintptr_t arch_signal_frame_pc(uintptr_t at, arch_read_fn read)
{
	return 0;
}
#endif

/*
 * The GOT slots a module's code calls through without its PLT (-fno-plt's
 * "call *slot"): each of the n slots (sorted, link-time addresses) that
 * the code [text, text + len), linked at vaddr, refers to gets
 * ARCH_GOT_CALLED in use[i] for a call or jump through it, ARCH_GOT_OTHER
 * for any other reference (taking the function's address) or anything
 * that may be one: over-reporting only leaves a slot alone.
 */
#define ARCH_GOT_CALLED	0x1
#define ARCH_GOT_OTHER	0x2

/* For arch_got_uses(): the index of addr among the n sorted slots, or -1. */
static inline int arch_got_slot_index(const uint64_t *slots, unsigned n, uint64_t addr)
{
	unsigned lo = 0, hi = n;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (slots[mid] == addr)
			return (int)mid;
		if (slots[mid] < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}
#if ARCH_HAVE_LIBCALLS
unsigned arch_libcall_stub(uint8_t *code, uintptr_t word_off);
void arch_got_uses(const uint8_t *text, uint64_t len, uint64_t vaddr, const uint64_t *slots,
		   unsigned n, uint8_t *use);
#else
static inline unsigned arch_libcall_stub(uint8_t *code, uintptr_t word_off)
{
	return 0;
}

static inline void arch_got_uses(const uint8_t *text, uint64_t len, uint64_t vaddr,
				 const uint64_t *slots, unsigned n, uint8_t *use)
{
	for (unsigned i = 0; i < n; i++)
		use[i] = ARCH_GOT_OTHER;
}
#endif

/* The entry into ftrace_caller for a site of this kind. */
uintptr_t arch_caller_for(enum site_kind kind);
/*
 * Optional (ARCH_HAVE_RETURN_SITES): the architecture takes return sites
 * (SITE_RETURN: a nop before each return, listed in __return_loc or
 * xray_instr_map) and has the ftrace_return_caller they call.  By default
 * it has none, and the graph tracer takes every return address.
 *
 * A site is ARCH_RETURN_SITE_LEN bytes that change (nop <-> call, as an
 * entry site's do), after ARCH_RETURN_SITE_PRE bytes recordmcount wrote
 * with it that never change (aarch64's "mov x16, x30"); in an XRay sled
 * it lies ARCH_XRAY_SITE_AT bytes on from the address the table gives.
 * arch_return_site_off() gives the PRE + LEN bytes of a site that is off.
 */
#ifndef ARCH_HAVE_RETURN_SITES
#define ARCH_HAVE_RETURN_SITES 0
#endif
#ifndef ARCH_RETURN_SITE_LEN
#define ARCH_RETURN_SITE_LEN 5
#endif
#ifndef ARCH_RETURN_SITE_PRE
#define ARCH_RETURN_SITE_PRE 0
#endif
#ifndef ARCH_XRAY_SITE_AT
#define ARCH_XRAY_SITE_AT 0
#endif
static inline int arch_has_return_sites(void)
{
	return ARCH_HAVE_RETURN_SITES;
}
/* Is the instruction after a return site a return?  If not, the site
 * precedes the jump of a tail call (SITE_TAIL_CALL).  Never asked where
 * there are no return sites ("a tail call" would be the safe answer,
 * src/core/returns.c). */
#if ARCH_HAVE_RETURN_SITES
int arch_insn_is_return(const uint8_t *insn);
void arch_return_site_off(uint8_t *insn);
#else
static inline int arch_insn_is_return(const uint8_t *insn)
{
	return 0;
}

static inline void arch_return_site_off(uint8_t *insn)
{
	for (unsigned i = 0; i < ARCH_RETURN_SITE_PRE + ARCH_RETURN_SITE_LEN; i++)
		insn[i] = 0;	/* never asked: nothing calls it here */
}
#endif

/*
 * Arguments (record -A/-R).  ftrace_caller hands the graph hook, as its
 * third argument, the block where it saved the integer argument
 * registers: int_slot[i] is the word of the block holding argument i + 1.
 * The floating-point argument registers are not saved (the runtime's C
 * never touches them): arch_fp_args() stores the first nr_fp as they are
 * when it is called, arch_fp_retval() the one a value is returned in.
 * Optional (ARCH_HAVE_ARG_REGS): by default nr_int is 0, which says
 * arguments cannot be recorded on this architecture yet (-A and -R are
 * refused).
 * entry_only: the arguments are in their registers at an entry site only.
 * A -pg call (SITE_FRAME) is, on aarch64 and riscv64, an ordinary call
 * the compiler moved them away for; there only the return value is read.
 */
#define ARCH_MAX_ARG_REGS 8

struct arch_arg_regs {
	uint8_t nr_int;
	uint8_t nr_fp;
	uint8_t entry_only;
	uint8_t int_slot[ARCH_MAX_ARG_REGS];
};

#if ARCH_HAVE_ARG_REGS
extern const struct arch_arg_regs arch_arg_regs;
void arch_fp_args(uint64_t *out);
uint64_t arch_fp_retval(void);
#else
/* Each file that reads it has its own, all zero. */
static const struct arch_arg_regs arch_arg_regs __attribute__((unused));

static inline void arch_fp_args(uint64_t *out)
{
}

static inline uint64_t arch_fp_retval(void)
{
	return 0;
}
#endif

/*
 * Live patching.  A site longer than the trap instruction is changed
 * under the breakpoint protocol: trap over its first bytes, the tail, then
 * the first bytes, with a sync of every thread between the steps.  A
 * thread that hits the trap meanwhile is made to behave as if the new
 * instruction had run.  A site no longer than the trap is changed by one
 * aligned store.
 */
extern const uint8_t arch_breakpoint[];
extern const unsigned arch_breakpoint_len;
/* The address of the trap instruction that raised this SIGTRAP. */
uintptr_t arch_trap_address(const void *ucontext);
/* Continue the trapped thread as if insn (one of our nops or calls, len
 * bytes at addr) had run; -1, the context untouched, if insn is not one
 * of ours. */
int arch_emulate(void *ucontext, uintptr_t addr, const uint8_t *insn, unsigned len);
/* Continue the trapped thread by running the instruction at addr. */
void arch_restart_at(void *ucontext, uintptr_t addr);
/* Where a thread blocks SIGTRAP, a trap would kill the process: then a
 * site is written whole by one atomic store, if it can be; -1 if not. */
int arch_can_poke_atomic(uintptr_t addr, unsigned len);
int arch_poke_atomic(uintptr_t addr, const uint8_t *insn, unsigned len);
/*
 * Optional (ARCH_HAVE_LIVE_POKE; by default every live patch takes the
 * breakpoint protocol): may the site at addr go from old to new by
 * arch_poke_atomic() while other threads run it, with no trap?  Yes where
 * the architecture allows that change to code being executed (aarch64:
 * one aligned word, old and new each a B, BL or NOP).  x86 allows none.
 */
#if ARCH_HAVE_LIVE_POKE
int arch_can_poke_live(uintptr_t addr, const uint8_t *old, const uint8_t *new, unsigned len);
#else
static inline int arch_can_poke_live(uintptr_t addr, const uint8_t *old, const uint8_t *new,
				     unsigned len)
{
	return 0;
}
#endif
/* Is this CPU emulated (qemu-user)?  membarrier then reaches the host's
 * cores but not the emulator's translated code, and threads are synced
 * with a signal, which the emulator delivers between translated blocks.
 * Optional (ARCH_HAVE_CPU_EMULATED): by default the CPU is what it says,
 * unless fntrace says otherwise (src/core/sync.c). */
#if ARCH_HAVE_CPU_EMULATED
int arch_cpu_emulated(void);
#else
static inline int arch_cpu_emulated(void)
{
	return 0;
}
#endif

/*
 * fntrace attach (CLI side, native architecture only): in a thread stopped
 * under ptrace, call func(args...) with the stack pointer at sp, and put
 * its return value in *ret; every register is restored afterwards.  A
 * signal that interrupts the wait for the call (a time limit) abandons
 * it, if the caller's inject_may_abandon(tid) allows: the thread is
 * stopped again and restored, and the result is -1; if not, the wait
 * goes on.
 */
#include <sys/types.h>
uintptr_t arch_inject_stack(pid_t tid);
int arch_inject_call(pid_t tid, uintptr_t func, const uintptr_t *args, unsigned nargs,
		     uintptr_t sp, uintptr_t *ret);
/* What every arch_inject_call() runs (src/arch/inject_run.c): continue
 * the thread, passing its other signals on, until it stops with a SIGSEGV
 * and read_pc(tid, regs, &pc) says its pc is 0 (read_pc: -1 if its
 * registers, read into regs, cannot be). */
int inject_run_to_zero(pid_t tid, int (*read_pc)(pid_t tid, void *regs, uintptr_t *pc),
		       void *regs);
/* The fault the last injected call's thread took inside it (a SIGSEGV,
 * SIGBUS, SIGILL or SIGFPE the kernel raised there, passed on to the
 * thread): where, as "MODULE+OFFSET", or NULL if it took none. */
const char *inject_fault(void);
/* The injecting command's: may a call be abandoned where it is now? */
int inject_may_abandon(pid_t tid);

/*
 * Optional (ARCH_HAVE_HW_BREAK), fntrace attach: a hardware breakpoint on
 * the execution of addr, in one thread stopped under ptrace and no other
 * (addr 0 clears it); and whether the thread's last stop was that
 * breakpoint, taken before the instruction at addr runs.  Without it,
 * attach cannot wait for a thread to leave ThreadSanitizer's runtime
 * (src/attach/attach_safe.c).
 */
#if ARCH_HAVE_HW_BREAK
int arch_hw_break(pid_t tid, uintptr_t addr);
int arch_hw_break_hit(pid_t tid);
#else
static inline int arch_hw_break(pid_t tid, uintptr_t addr)
{
	(void)tid;
	return addr ? -1 : 0;
}

static inline int arch_hw_break_hit(pid_t tid)
{
	(void)tid;
	return 0;
}
#endif

/*
 * For an unwinder that meets return_to_handler as a return address (see
 * src/core/unwind_fde.c and fde_write.c): the DWARF numbers of the stack
 * pointer and of the return address column, and the code alignment, of
 * the frame description the core writes.
 */
struct arch_dwarf {
	uint8_t sp;
	uint8_t ra;
	uint8_t code_align;
};
extern const struct arch_dwarf arch_dwarf;
/*
 * The graph tracer's key of a frame whose CFA is cfa: where it keeps its
 * return address (x86_64: cfa - 8), the slot return_to_handler passes.
 * Where that slot has no fixed place in the frame (aarch64's frame
 * record), its arch_features.h defines ARCH_RETURN_SLOT_FLOATS 1: the key
 * is the last word below the CFA, at or below which the slot lies; a
 * return is the newest frame's, and an unwinder's frame the oldest of the
 * newest ones whose slots lie at or below the key.  A constant, as every
 * traced return asks.
 */
uintptr_t *arch_return_slot(uintptr_t cfa);
#ifndef ARCH_RETURN_SLOT_FLOATS
#define ARCH_RETURN_SLOT_FLOATS 0
#endif

/*
 * Does entry.S take the graph hooks' common case without C (x86_64)?
 * Its arch_features.h then defines ARCH_GRAPH_FAST_PATHS 1, and the core
 * checks the layouts that assembly reads (core/asm_offsets.h) at build
 * time.
 */
#ifndef ARCH_GRAPH_FAST_PATHS
#define ARCH_GRAPH_FAST_PATHS 0
#endif

/* The thread pointer a clone() child with CLONE_SETTLS starts with, from
 * clone()'s tls argument: by default the pointer itself; a struct
 * user_desc where ARCH_HAVE_CLONE_TLS_DESC (i386). */
#if ARCH_HAVE_CLONE_TLS_DESC
uintptr_t arch_clone_thread_pointer(const void *tls);
#else
static inline uintptr_t arch_clone_thread_pointer(const void *tls)
{
	return (uintptr_t)tls;
}
#endif

/*
 * The frame-pointer chain, which a stack trace follows where no shadow
 * stack is kept (the stacktrace trigger without the graph hooks): the
 * frame record a frame pointer leads to lies ARCH_FRAME_RECORD words from
 * it and holds the caller's frame pointer, then the return address (x86
 * and aarch64: at the frame pointer; riscv64, whose frame pointer is the
 * CFA: just below it).  ARCH_FRAME_CHAIN 0: the ABI keeps no chain to
 * follow (mips).
 */
#ifndef ARCH_FRAME_CHAIN
#define ARCH_FRAME_CHAIN 1
#endif
#ifndef ARCH_FRAME_RECORD
#define ARCH_FRAME_RECORD 0
#endif

/* The stack pointer a jmp_buf returns to (glibc keeps it mangled). */
uintptr_t arch_jmpbuf_sp(const void *env);
/* The stack pointer of the caller of the function calling this. */
#define arch_caller_sp() ((uintptr_t)__builtin_dwarf_cfa())

/* Assembly, in src/arch/<arch>/entry.S. */
extern char ftrace_caller[], ftrace_caller_frame[], ftrace_call[];
extern char ftrace_graph_call[], ftrace_stub[], return_to_handler[];
extern char ftrace_return_caller[], ftrace_tail_caller[];	/* where arch_has_return_sites() */
extern const unsigned ftrace_call_len;

#endif
