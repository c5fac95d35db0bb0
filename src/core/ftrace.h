/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runtime's core, in the kernel's vocabulary: one record per call
 * site, ops that say which records they want, and the update that patches
 * each site to match (nop <-> call).  Internal to libfntrace.so.
 */
#ifndef FNTRACE_FTRACE_H
#define FNTRACE_FTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "asm_offsets.h"
#include "linkage.h"
#include "../arch/arch.h"
#include "../common/filter.h"

#define FT_EXPORT __attribute__((visibility("default")))

/* In a wrapper FT_EXPORTed over a libc function: the real one, as
 * `real`, found once with ft_real() (linkage.h). */
#define REAL(type, name)                                                       \
	static type real;                                                      \
	if (!real)                                                             \
		real = (type)ft_real(name)
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
/* A hook's body, shared by its common path and its rare nested one: the
 * common path keeps it inline, as when it had no other caller. */
#define ft_inline inline __attribute__((always_inline))
#define ft_cold __attribute__((noinline, cold))

/* Record flags. */
#define FTRACE_FL_ENABLED	0x01	/* the site is a call now */
#define FTRACE_FL_DISABLED	0x02	/* never patch: module gone, or bytes
					 * not what the file says */
#define FTRACE_FL_PROBE_ONLY	0x04	/* wanted by probes alone (triggers):
					 * the graph hooks leave it be */
#define FTRACE_FL_WANTED	0x08	/* some ops wants it (computed by update) */
#define FTRACE_FL_GRAPH_FUNC	0x10	/* set_graph_function names it */
#define FTRACE_FL_GRAPH_NOTRACE	0x20	/* set_graph_notrace names it */
/* Its module's return sites are on: the graph tracer leaves its return
 * alone.  The fast paths read it too, in asm_offsets.h's terms. */
#define FTRACE_FL_RETURNS	FT_REC_FL_RETURNS
/* A trigger acts at its calls: the graph hooks' fast path leaves them to
 * C, which calls the probe ops.  Or its calls are timed (snapshot_if_longer):
 * the fast path marks their frames as C does.  (triggers.c) */
#define FTRACE_FL_PROBED	FT_REC_FL_PROBED
#define FTRACE_FL_TIMED		FT_REC_FL_TIMED
/* [31:16]: the entry of the argument table (args.c) saying which of its
 * values to record; 0: none. */
#define FTRACE_FL_ARGS_SHIFT	16

/* One call site, like the kernel's dyn_ftrace.  Never moves once made. */
struct ftrace_rec {
	uintptr_t ip;		/* the site, in memory */
	uintptr_t func;		/* its function's start, in memory */
	const char *name;
	uint32_t flags;
	uint16_t module;	/* a library call's: the library it reaches,
				 * once known (libcalls.c) */
	uint8_t len;
	uint8_t kind;		/* enum site_kind */
	uint8_t orig[ARCH_MAX_INSN];	/* the bytes the compiler left, for detach */
};

/* A return site, in memory: SITE_RETURN, or SITE_TAIL_CALL. */
struct return_site {
	uintptr_t ip;
	uint8_t kind;
};

struct elf_file;

/* Any ELF object mapped into the process. */
struct ft_module {
	char *path;
	const char *name;		/* file name part of path */
	uintptr_t bias;			/* load bias (dlpi_addr) */
	uintptr_t start, end;		/* mapped range */
	uintptr_t text_lo, text_hi;	/* executable range */
	uint32_t first_id, nr_recs;	/* its records */
	uint32_t first_libcall, nr_libcalls;	/* its library calls' (libcalls.c) */
	uint32_t first_detour, nr_detours;	/* its detours' (detours.c) */
	char *plan_id;			/* read with no sites nor plan: its build-id,
					 * for a plan fntrace ctl writes later */
	int gone;
	int load_mode;			/* how it was loaded: live, traps blocked */
	int deferred;			/* sites nops already, not read yet */
	struct elf_file *kept;		/* deferred: its file, as mapped then,
					 * for a chroot since may hide it */
	struct return_site *returns;	/* its return sites (returns.c) */
	uint32_t nr_returns;
	int returns_on;			/* they call ftrace_return_caller */
	uint64_t file_id[4];		/* dev, inode, size, mtime of its file */
};

/* ---- records (records.c) ---- */
uint32_t ftrace_rec_count(void);
struct ftrace_rec *ftrace_rec_get(uint32_t id);		/* ids start at 1 */
uint32_t ftrace_rec_add(const struct ftrace_rec *rec);	/* 0 if out of memory */
void ftrace_rec_reserve(uint32_t n);	/* n records are about to be added */
int ftrace_rec_hash_rebuild(void);
/* The record whose site returns to self_ret; 0 if none.  Lock-free, for
 * a tracer (its thread's busy flag up); from anywhere else, _outside. */
uint32_t ftrace_rec_lookup(uintptr_t self_ret);
uint32_t ftrace_rec_lookup_outside(uintptr_t self_ret);

/* ---- modules (modules.c) ---- */
/* Bring the module list up to date, then run fn (if any) while no module
 * can be unmapped: fn's result, the number of modules that came or went
 * without fn, or -1. */
int ftrace_modules_pinned(int (*fn)(void));
/* Records are wanted from now on: modules left unread (nops already) are
 * read by the next update ... */
void ftrace_modules_want_records(void);
/* ... or now, for a reader of records outside an update. */
void ftrace_modules_need_records(void);
/* Under ftrace_lock, before set_ftrace_filter changes: the detours of
 * the plans written since their modules were read (fntrace ctl plans the
 * libraries a filter names); -1 on an internal error. */
int ftrace_modules_take_plans(void);
struct ft_module *ftrace_module_get(unsigned idx);
unsigned ftrace_module_count(void);

/* ---- text patching (patch.c) ---- */
struct text_patch {
	uintptr_t addr;
	uint8_t len;
	/* A detour's entry (detours.c): never one store, always the
	 * breakpoint; the bytes after its first (x86_64's), not one a
	 * thread may be inside when they change. */
	uint8_t guard;
	uint8_t old[ARCH_MAX_INSN];
	uint8_t new[ARCH_MAX_INSN];
};

/* Verify every site's old bytes, then write all new bytes.  -1, with
 * nothing written, if any site is not what the caller expected;
 * TEXT_PATCH_UNDONE if a thread could not be synced and every site was
 * put back as it was (ftrace_sync_failure() says why): the same batch
 * may be tried again. */
int text_patch_batch(struct text_patch *v, unsigned n);
#define TEXT_PATCH_UNDONE 1
/* From now on other threads may run: patch with the breakpoint protocol. */
void ftrace_patch_go_live(void);
int ftrace_patch_is_live(void);

/* ---- return sites (returns.c) ---- */
/* The module's return sites, from its __return_loc, if the arch takes
 * them and every one is a nop as the file says. */
void ftrace_returns_read(struct ft_module *mod, const struct elf_file *f);
/* The module moved (a gone module come back at a new bias). */
void ftrace_returns_rebase(struct ft_module *mod, uintptr_t old_bias);
void ftrace_returns_free(struct ft_module *mod);
uint32_t ftrace_returns_count(void);
/*
 * The patches that turn every module's return sites on (want) or off,
 * handed out among the records' as an update walks them in id order, so
 * that the batch comes in text order without a merge: a module's records
 * are consecutive ids in address order, and so are its return sites.
 * Then, once they are written, the modules' state.
 */
struct returns_walk {
	int want;
	unsigned mod;		/* the module of the last record seen */
	uint32_t next;		/* its next return site; nr_returns: none */
};
void ftrace_returns_walk_start(struct returns_walk *w, int want);
/* Before rec's patch: its module's return sites below it (and the rest
 * of the previous module's). */
int ftrace_returns_before(struct returns_walk *w, const struct ftrace_rec *rec,
			  struct text_patch *v, uint32_t *n);
/* After the last record: the rest, and the return sites of modules that
 * have no records. */
int ftrace_returns_finish(struct returns_walk *w, struct text_patch *v, uint32_t *n);
void ftrace_returns_mark(int want);

/* ---- far-call trampolines (tramp.c) ---- */
/* size bytes mapped read-write within call reach of [lo, hi); 0 if none. */
uintptr_t ftrace_map_near(uintptr_t lo, uintptr_t hi, size_t size);
/* An address within call reach of [lo, hi) that jumps to target; 0 if none. */
uintptr_t ftrace_tramp_get(uintptr_t lo, uintptr_t hi, uintptr_t target);
/* The bytes of a call from a site of mod at ip to target: direct, or
 * through a trampoline when target is out of reach.  -1 if neither. */
int ftrace_site_call(const struct ft_module *mod, uintptr_t ip, const uint8_t *orig,
		     unsigned len, uintptr_t target, uint8_t *insn);

/* ---- ops and the update (ops.c) ---- */
typedef void (*ftrace_func_t)(uintptr_t self_ret, uintptr_t parent_ip,
			      uintptr_t *retp);

#define FTRACE_OPS_FL_GRAPH	0x1	/* wants the graph caller on */
#define FTRACE_OPS_FL_PROBE	0x2	/* a probe's (a function trigger): the
					 * functions it alone wants are not
					 * the tracers' to trace */

struct ftrace_ops {
	/* NULL: no callback (graph only).  Atomic: current_tracer reuses one
	 * ops, and changes it while the list function may still be calling
	 * through it. */
	_Atomic ftrace_func_t func;
	const struct filter *filter;	/* NULL: every function */
	const struct filter *notrace;	/* NULL: none */
	/* Not NULL: the records it wants, by id, instead of the filters (a
	 * probe's set of functions, the kernel's filter hash).  Under
	 * ftrace_lock, as the update asks. */
	int (*selects)(uint32_t id);
	unsigned flags;
	struct ftrace_ops *_Atomic next;
	uint8_t *_Atomic wants;		/* bit per record id, for the list function */
};

int register_ftrace_ops(struct ftrace_ops *ops);
/* How many ops want record id (enabled_functions). */
unsigned ftrace_rec_refs(const struct ftrace_rec *rec, uint32_t id);
int unregister_ftrace_ops(struct ftrace_ops *ops);
/* Patch every site to what the registered ops want now. */
int ftrace_update(void);
/* After an internal fault: every site back to a nop, tracing off for good. */
void ftrace_kill(const char *why);
/* Why tracing was switched off for good ("" while it was not). */
const char *ftrace_kill_reason(void);
/* Every site back to the bytes the compiler left; nothing patched again
 * until ftrace_reattach() makes them nops once more (fntrace attach). */
int ftrace_detach(void);
int ftrace_reattach(void);
int ftrace_killed(void);

/* ---- unwinding (fde_write.c) ---- */
/* A CIE and an FDE in buf (size bytes) describing [pc, pc + 2) as a frame
 * that is not there: the caller's stack pointer and registers are the
 * current ones, its return address is ret.  The FDE, or NULL if buf is
 * too small. */
const void *ftrace_transparent_fde(void *buf, size_t size, uintptr_t pc, uintptr_t ret);

#endif
