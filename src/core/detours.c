// SPDX-License-Identifier: GPL-2.0
/*
 * Detours: a function built without call sites traced by moving its
 * first instructions into a stub of ours and putting a jump in their
 * place (the kernel's optprobes).  The plan comes from the fntrace
 * program, which has the disassembler (src/detour/publish.c): a detour
 * file in the trace cache, by build-id (sites/detourfile.h).  Here each
 * planned function whose bytes are the plan's gets a stub near its module
 * and a record, disabled until a filter names it:
 *
 *   off:  f:    push %rbp                 on:  f:    jmp stub
 *               mov  %rsp,%rbp                       (the rest of the
 *               push %rbx                             bytes as they were)
 *         f+5:  sub  $0x10,%rsp                f+5:  sub  $0x10,%rsp
 *
 *   stub: push %r11            ftrace_caller_detour finds the caller's
 *         call *caller(%rip)   return address at 16(%rsp) and returns to
 *         ...                  stub + 8; %r11 is kept, as every register
 *         pop  %r11            is: a caller compiled knowing which ones
 *         push %rbp            the function clobbers (gcc's -fipa-ra) may
 *         mov  %rsp,%rbp       keep a value in any other.  If the graph
 *         push %rbx            tracer hijacked the return, "..." calls
 *         jmp  f+5             the copy from just before return_to_handler
 *                              instead (arch/x86_64/ftrace.c)
 *
 * aarch64 replaces one word (after a BTI or PACIASP, kept):
 *
 *   off:  f:    stp x29, x30, [sp, #-48]!   on:  f:    b stub
 *         f+4:  mov x29, sp                      f+4:  mov x29, sp
 *
 *   stub: mov  x17, x30                 as a patchable entry's site,
 *         adrp x16, block; ldr x16, [x16, #:lo12:block]     with x17 for x9
 *         blr  x16                      returns to stub + 16
 *         stp  x29, x30, [sp, #-48]!
 *         b    f+4
 *
 * The record's ip is the stub's, so that ftrace_caller finds it by the
 * lookup every site uses; the patch is at the entry (ftrace_detour_patch).
 * Only the jump's bytes change: the rest of the replaced instructions stay,
 * never run again from the entry but harmless to a thread already past
 * it.  The jump goes in with the breakpoint protocol, and its tail only
 * once no thread is inside it (patch.c, text_patch.guard; aarch64's one
 * word has no tail, but is no B or NOP, which alone the architecture lets
 * change under a running thread, so it takes the breakpoint too).  Stubs are
 * never unmapped: a thread may be in one long after its function was
 * switched off (in the tracer, or in a callee a moved call made).
 */
#include "detours.h"
#include "ftrace.h"
#include "funcs_file.h"
#include "messages.h"
#include "sanitized.h"
#include "../common/array.h"
#include "../sites/detourfile.h"
#include "../sites/sitefile.h"
#include "../elf/elf.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define STUB_ALIGN 16
#define CALL_ROOM 48		/* the arch's head (x86_64: 39, aarch64: 16) */
#define BLOCK_HEAD (ARCH_DETOUR_WORDS * sizeof(uintptr_t))

struct detour {
	uint32_t id;
	uintptr_t entry;	/* where the jump goes, in memory */
	uint8_t len;		/* the jump's */
	uint8_t jump[ARCH_MAX_INSN];
	/* Its record's name, kept here too: the records live in mappings
	 * LeakSanitizer does not read, and would take it for a leak (and
	 * the program's exit status with it). */
	char *name;
};

/*
 * Where the unwinder meets a stub (unwind_fde.c): a call moved into it,
 * the last instruction replaced, returns to the copy's jump back, where
 * no frame description is.  That address stands for the one it jumps
 * to, f + len: the frame is the function's there.  Each block of stubs
 * keeps its jumps back in address order, and is put on a list the
 * unwinder walks without a lock (release, acquire); never freed, as the
 * stubs are not.
 */
struct stub_resume {
	uintptr_t at, to;
};

struct stub_block {
	uintptr_t lo, hi;
	unsigned n;
	struct stub_block *next;
	struct stub_resume v[];
};

static struct stub_block *stub_blocks;

/* In id order, as their records were made: found by bisection. */
static struct detour *detours;
static uint32_t nr_detours;
static size_t cap_detours;

static struct detour *detour_of(uint32_t id)
{
	uint32_t lo = 0, hi = nr_detours;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (detours[mid].id == id)
			return &detours[mid];
		if (detours[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static size_t stub_size(const struct detourfile_entry *e)
{
	return (CALL_ROOM + e->copy_len + STUB_ALIGN - 1) & ~(size_t)(STUB_ALIGN - 1);
}

/* The copy, made for a trampoline at the link-time entry, re-aimed for
 * one at `at`: -1 if a field no longer reaches. */
static int place_copy(const struct detourfile_entry *e, uintptr_t bias, uint8_t *at)
{
	uintptr_t from = e->patch + bias;

	memcpy(at, e->copy, e->copy_len);
	for (unsigned i = 0; i < e->nr_relocs; i++) {
		unsigned o = e->relocs[i];

		if (arch_detour_reaim(at + o, from + o, (uintptr_t)at + o))
			return -1;
	}
	return 0;
}

/* Do the module's bytes say what the plan says? */
static int matches(const struct ft_module *mod, const struct elf_file *f,
		   const struct detourfile_entry *e)
{
	uintptr_t at = mod->bias + e->patch;
	const uint8_t *file = elf_vaddr_ptr(f, e->patch, e->len);

	return file && at >= mod->text_lo && at + e->len <= mod->text_hi &&
	       !memcmp(file, e->orig, e->len) && !memcmp((const void *)at, e->orig, e->len);
}

/* The copy ends with its jump back, of the entry jump's form and length. */
static void add_resume(struct stub_block *sb, const struct detour *d,
		       const struct detourfile_entry *e, uintptr_t copy)
{
	sb->v[sb->n].at = copy + e->copy_len - d->len;
	sb->v[sb->n++].to = d->entry + e->len;
}

static int add_detour(struct ft_module *mod, unsigned idx, const struct detourfile_entry *e,
		      uint8_t *stub, struct stub_block *sb)
{
	uintptr_t word = sb->lo;
	struct ftrace_rec rec = { .module = idx, .kind = SITE_DETOUR, .ip = (uintptr_t)stub,
				  .func = mod->bias + e->func };
	struct detour *d;
	unsigned len = 0, head, resume = 0;

	if (grow_array((void **)&detours, &cap_detours, nr_detours + 1, sizeof(*detours)) ||
	    !(rec.name = strdup(e->name)))
		return -1;
	d = &detours[nr_detours];
	d->name = (char *)rec.name;
	d->entry = mod->bias + e->patch;
	head = arch_detour_call(stub, (intptr_t)(word - (uintptr_t)stub), &resume);
	rec.len = (uint8_t)resume;
	if (place_copy(e, mod->bias, stub + head) ||
	    arch_detour_jump(d->entry, rec.ip, d->jump, &len) || len > e->len) {
		rec.flags = FTRACE_FL_DISABLED;		/* out of reach: never patched */
		len = 0;
	}
	d->len = (uint8_t)len;
	if (len)
		add_resume(sb, d, e, (uintptr_t)stub + head);
	memcpy(rec.orig, e->orig, len);
	if (!(d->id = ftrace_rec_add(&rec)))
		return -1;
	if (!mod->nr_detours)
		mod->first_detour = d->id;
	mod->nr_detours++;
	nr_detours++;
	return 0;
}

/*
 * A pc fix: ThreadSanitizer's entry hook, where clang links it into the
 * program.  Each function calls it directly with what its return slot
 * holds, return_to_handler once the graph tracer took the call, and that
 * named every frame of TSan's reports (gcc's programs call it through
 * their GOT, which sanitized.c points at a wrapper).  Planned as a detour,
 * but no traced function: its stub hands the hook the real return address
 * and runs its first instructions; patched in when its module is read,
 * and left in.
 *
 *   __tsan_func_entry:  jmp stub      stub:  call *ftrace_fix_pc_arg
 *                                            <its first instructions>
 *                                            jmp __tsan_func_entry + len
 */
static int is_pc_fix(const struct detourfile_entry *e)
{
	return ft_sanitized_tsan && !strcmp(e->name, "__tsan_func_entry");
}

/* The fix's stub at stub, and its patch in *p; -1 if it cannot be made. */
static int make_pc_fix(const struct ft_module *mod, const struct detourfile_entry *e,
		       uint8_t *stub, uintptr_t words, struct text_patch *p)
{
	unsigned head = arch_detour_pc_call(stub, (intptr_t)(words - (uintptr_t)stub)), len = 0;

	p->addr = mod->bias + e->patch;
	if (!head || place_copy(e, mod->bias, stub + head) ||
	    arch_detour_jump(p->addr, (uintptr_t)stub, p->new, &len) || len > e->len)
		return -1;
	p->len = (uint8_t)len;
	p->guard = 1;
	memcpy(p->old, e->orig, len);
	return 0;
}

/*
 * Among running threads too (attached to a busy program): the guarded
 * patch asks every thread where it is with the sync signal, whose handler
 * the runtime installs with the C library's sigaction(), past TSan's
 * interceptor, so TSan never holds it back from a thread busy in the
 * program's code; and its threads run into the breakpoint on the hook's
 * first byte, a function's entry, never inside TSan's state.
 */
static void apply_pc_fix(const struct ft_module *mod, int made, struct text_patch *p)
{
	if (made < 0 || (made > 0 && text_patch_batch(p, 1)))
		ft_warn("%s: cannot hand ThreadSanitizer's entry hook the real return "
			"addresses: its reports may name return_to_handler", mod->path);
}

/* Stubs for the entries that match, in one block near the module: the
 * words their heads read first (ftrace_caller's address, ...), the stubs
 * after them; with fixes_only (a module with call sites), the pc fix's
 * alone.  -1 only if out of memory: a module with no room near it keeps
 * its text. */
static int make_stubs(struct ft_module *mod, unsigned idx, const struct elf_file *f,
		      const struct detourfile *df, int fixes_only)
{
	size_t size = BLOCK_HEAD, ps = (size_t)sysconf(_SC_PAGESIZE);
	unsigned bad = 0;
	uintptr_t block;
	struct stub_block *sb;
	struct text_patch fix;
	uint8_t *at;
	int ret = 0, fixed = 0;

	for (unsigned i = 0; i < df->nr; i++)
		size += stub_size(&df->v[i]);
	size = (size + ps - 1) & ~(ps - 1);
	if (!(sb = calloc(1, sizeof(*sb) + df->nr * sizeof(sb->v[0]))))
		return -1;
	if (!(block = ftrace_map_near(mod->text_lo, mod->text_hi, size))) {
		ft_warn("%s: no room near it for its detours' stubs", mod->path);
		free(sb);
		return 0;
	}
	sb->lo = block;
	sb->hi = block + size;
	arch_detour_words((uintptr_t *)block);
	at = (uint8_t *)block + BLOCK_HEAD;
	for (unsigned i = 0; i < df->nr && !ret; i++) {
		if (!matches(mod, f, &df->v[i])) {
			bad++;
			continue;
		}
		if (is_pc_fix(&df->v[i]) && !fixed)
			fixed = make_pc_fix(mod, &df->v[i], at, block, &fix) ? -1 : 1;
		else if (!fixes_only)
			ret = add_detour(mod, idx, &df->v[i], at, sb);
		at += stub_size(&df->v[i]);
	}
	mprotect((void *)block, size, PROT_READ | PROT_EXEC);
	__builtin___clear_cache((char *)block, (char *)block + size);
	sb->next = stub_blocks;
	__atomic_store_n(&stub_blocks, sb, __ATOMIC_RELEASE);
	apply_pc_fix(mod, fixed, &fix);
	if (bad)
		ft_warn("%s: %u functions differ from its detour plan, left alone", mod->path, bad);
	return ret;
}

int ftrace_detours_read(struct ft_module *mod, unsigned idx, const struct elf_file *f,
			int fixes_only)
{
	const struct arch_desc *arch = arch_lookup(f->machine);
	char id[SITEFILE_MAX_ID], err[256], *path;
	struct detourfile df;
	int r, ret = 0;

	if (!ARCH_HAVE_DETOURS || !arch || !elf_build_id(f, id, sizeof(id)) ||
	    !(path = sitefile_cache_path(id, "detours")))
		return 0;
	r = detourfile_read(path, arch->name, id, &df, err, sizeof(err));
	if (r < 0)
		ft_warn("%s: %s", path, err);
	/* None yet: fntrace ctl may plan it when a filter names one of its
	 * functions (src/target/detours_prep.c), and a filter write looks
	 * again (modules.c). */
	if (!fixes_only) {
		free(mod->plan_id);
		mod->plan_id = r == 0 ? strdup(id) : NULL;
	}
	if (r > 0 && df.nr)
		ret = make_stubs(mod, idx, f, &df, fixes_only);
	if (r > 0)
		ft_debug("%s: %u detours from %s", mod->path, mod->nr_detours, path);
	detourfile_free(&df);
	free(path);
	return ret;
}

/* Bisection in the block that holds pc, if one does. */
uintptr_t ftrace_detour_resumes(uintptr_t pc)
{
	const struct stub_block *b = __atomic_load_n(&stub_blocks, __ATOMIC_ACQUIRE);

	while (b && (pc < b->lo || pc >= b->hi))
		b = b->next;
	for (unsigned lo = 0, hi = b ? b->n : 0; lo < hi;) {
		unsigned mid = lo + (hi - lo) / 2;

		if (b->v[mid].at == pc)
			return b->v[mid].to;
		if (b->v[mid].at < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

int ftrace_detours_planned_since(const struct ft_module *mod)
{
	char *path;
	int there;

	if (!mod->plan_id || mod->nr_detours || mod->gone ||
	    !(path = sitefile_cache_path(mod->plan_id, "detours")))
		return 0;
	there = access(path, R_OK) == 0;
	free(path);
	return there;
}

void ftrace_detours_announce(const struct ft_module *mod, unsigned idx)
{
	for (uint32_t i = 0; i < mod->nr_detours; i++)
		ft_funcs_write_rec(mod->first_detour + i, idx);
}

void ftrace_detours_unload(const struct ft_module *mod)
{
	for (uint32_t i = 0; i < mod->nr_detours; i++) {
		struct ftrace_rec *rec = ftrace_rec_get(mod->first_detour + i);

		rec->flags = (rec->flags | FTRACE_FL_DISABLED) & ~FTRACE_FL_ENABLED;
	}
}

int ftrace_detour_patch(uint32_t id, int enable, struct text_patch *p)
{
	const struct detour *d = detour_of(id);
	const struct ftrace_rec *rec = ftrace_rec_get(id);

	if (!d)
		return -1;
	p->addr = d->entry;
	p->len = d->len;
	p->guard = 1;		/* never one store: the protocol, whatever the arch */
	memcpy(enable ? p->old : p->new, rec->orig, d->len);
	memcpy(enable ? p->new : p->old, d->jump, d->len);
	return 0;
}
