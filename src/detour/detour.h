/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Detours: the entry of a function built with no call site replaced by a
 * jump to a trampoline holding its first instructions, relocated, and a
 * jump back (the kernel's optprobes).  This half runs outside the traced
 * process: which functions can be patched, and why not (the planner), and
 * the bytes of a trampoline's copy (the relocator).  docs/design.md,
 * *Detours*, has the rules.
 */
#ifndef FNTRACE_DETOUR_H
#define FNTRACE_DETOUR_H

#include "../arch/arch.h"
#include "../elf/elf.h"

#include <stddef.h>
#include <stdint.h>

/* A disassembler for one architecture. */
struct detour_dec {
	const struct detour_arch *arch;
	size_t cs;			/* capstone's handle */
	struct cs_insn *insn;		/* one instruction, with its details */
};

/* The architecture's table, or NULL: no detours there. */
const struct detour_arch *detour_arch_lookup(unsigned machine);
/* 0, or -1 if the architecture has no detours or capstone failed. */
int detour_open(struct detour_dec *d, unsigned machine);
void detour_close(struct detour_dec *d);
const char *detour_refusal_str(unsigned refusal);

/* One function, planned. */
struct detour_plan {
	uint64_t func;		/* its symbol's address */
	uint64_t size;
	const char *name;
	uint64_t patch;		/* where the jump goes: func, or after a landing pad */
	uint64_t why_at;	/* the instruction or branch target a refusal names */
	uint8_t len;		/* bytes replaced: whole instructions, jump_len or more */
	uint8_t refusal;	/* enum detour_refusal */
	uint8_t moved;		/* instructions in them */
	uint8_t seen;		/* DETOUR_SEEN_*: what of its instructions */
};

/* The instructions a function has that say a jump table may enter it. */
#define DETOUR_SEEN_INDIRECT	0x1	/* DETOUR_INDIRECT */
#define DETOUR_SEEN_REG_JUMP	0x2	/* DETOUR_INDIRECT_REG */
#define DETOUR_SEEN_TABLE_READ	0x4	/* DETOUR_TABLE_READ */
#define DETOUR_SEEN_TABLE_BASE	0x8	/* DETOUR_TABLE_BASE */

/* Branch targets (and code addresses taken) seen anywhere in an image;
 * the addresses that may be jump tables (DETOUR_TABLE_BASE). */
struct detour_targets {
	uint64_t *v;
	size_t nr, cap;
	uint64_t *tables;
	size_t nr_tables, cap_tables;
};

/*
 * The planner, in two passes, so that a branch from anywhere in the image
 * (a .cold part jumping back) is seen: detour_scan() decodes one
 * function whole (its size bytes at code, linked at p->func), fills in
 * p and adds its targets to t; the caller adds the entries of the jump
 * tables (detour_add_target()); then, with t sorted, detour_check()
 * refuses a function a branch or a jump table may enter inside its
 * replaced bytes.  -1 only if out of memory.
 */
int detour_scan(struct detour_dec *d, const uint8_t *code, struct detour_plan *p,
		struct detour_targets *t);
int detour_add_target(struct detour_targets *t, uint64_t addr);
int detour_cmp_u64(const void *a, const void *b);
void detour_targets_sort(struct detour_targets *t);
void detour_check(const struct detour_targets *t, struct detour_plan *p);
void detour_targets_free(struct detour_targets *t);

/* Every function symbol of an image, planned, in address order. */
struct detour_plans {
	struct detour_plan *v;
	unsigned nr;
	unsigned ok;		/* how many can be patched */
};

int detour_plan_image(const struct elf_file *f, struct detour_plans *out, char *err,
		      size_t errlen);
void detour_plans_free(struct detour_plans *p);

/*
 * The relocator: the trampoline's copy of the len bytes at code (linked
 * at start), relocated to run at tramp, then the jump back to start +
 * len, in out (room bytes): its length, or -enum detour_refusal.
 * detour_entry(): the jump_len bytes put at start, to tramp.
 */
int detour_copy(struct detour_dec *d, const uint8_t *code, uint64_t start, unsigned len,
		uint64_t tramp, uint8_t *out, size_t room);
int detour_entry(const struct detour_dec *d, uint64_t start, uint64_t tramp, uint8_t *out);

/*
 * Plan the image and write its detour file (sites/detourfile.h) for the
 * runtime to apply (publish.c); the plans stay in *plans, for what a
 * filter names that cannot be patched.  Where the runtime applies
 * plans (detour_live(): x86_64 and aarch64) only.
 */
int detour_publish(const struct elf_file *f, struct detour_plans *plans, char *err,
		   size_t errlen);
/* The same for one function alone (an image with call sites, whose hook
 * the runtime fixes: core/detours.c): a plan of none if it cannot be
 * patched. */
int detour_publish_one(const struct elf_file *f, const char *name, char *err,
		       size_t errlen);
int detour_live(unsigned machine);
/* Is there a plan for this image already?  A build-id names its bytes:
 * the plan of one is the plan of the other. */
int detour_plan_cached(const struct elf_file *f);

#endif
