// SPDX-License-Identifier: GPL-2.0
/*
 * Ops and the update.  Each ops says, through its filter and notrace
 * lists, which functions it wants; the update compares what is wanted with
 * what is patched (FTRACE_FL_WANTED against FTRACE_FL_ENABLED) and turns
 * the difference into one batch of MAKE_CALL / MAKE_NOP patches.
 *
 * ftrace_call calls one ops' callback directly when only one has a
 * callback; with several, or while the set of ops changes, it calls the
 * list function, which asks each registered ops whether it wants the
 * function (a bitmap by record id).  The order, as in the kernel:
 *
 *   ftrace_call -> list function      (every ops is asked: always right)
 *   add or remove the ops
 *   patch the sites
 *   ftrace_call -> the final callback
 *
 * so no event reaches a callback whose ops is gone.
 */
#include "args.h"
#include "buffer.h"
#include "../common/bulk.h"
#include "../common/trace_format.h"
#include "ftrace.h"
#include "interpose.h"
#include "detours.h"
#include "libcalls.h"
#include "messages.h"
#include "plain_names.h"
#include "seccomp.h"
#include "tracers.h"
#include "tracing.h"
#include "triggers.h"
#include "../common/array.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static struct ftrace_ops *_Atomic ops_list;
static int killed;
static int detached;		/* killed by fntrace detach: may come back */

/* What ftrace_call and ftrace_graph_call call now (0: they are nops). */
static uintptr_t call_target, graph_target;

int ftrace_killed(void)
{
	return killed;
}

static int wants_bit(const uint8_t *bits, uint32_t id)
{
	return bits && (bits[id >> 3] >> (id & 7)) & 1;
}

/* Threads inside the list function, which may hold a bitmap an update
 * has since replaced: while any is, replaced bitmaps stay mapped. */
static _Atomic unsigned bitmap_readers;

static void ftrace_ops_list_func(uintptr_t self_ret, uintptr_t parent_ip, uintptr_t *retp)
{
	uint32_t id = ftrace_rec_lookup_outside(self_ret);

	atomic_fetch_add(&bitmap_readers, 1);
	for (struct ftrace_ops *ops = atomic_load(&ops_list); ops; ops = atomic_load(&ops->next)) {
		/* Loaded once: a tracer switch may clear it between a test
		 * and a second load (a call to 0).  The callback loaded is at
		 * worst the one just switched off, as when ftrace_call is
		 * repatched under a thread already past it. */
		ftrace_func_t func = atomic_load(&ops->func);

		if (func && wants_bit(atomic_load(&ops->wants), id))
			func(self_ret, parent_ip, retp);
	}
	atomic_fetch_sub(&bitmap_readers, 1);
}

/*
 * An empty filter wants every function built for tracing, and no library
 * call nor detour: those are switched on by a filter that names them (by
 * name, by glob, by :mod: of the library), so that a program traced as
 * before finds its GOT and its text as the loader left them.
 */
static int ops_wants(const struct ftrace_ops *ops, const struct ftrace_rec *rec, uint32_t id)
{
	const char *mod;

	if (ops->selects)
		return ops->selects(id);
	if ((rec->kind == SITE_LIBCALL || rec->kind == SITE_DETOUR) &&
	    (!ops->filter || !ops->filter->nr_add))
		return 0;
	mod = ftrace_module_get(rec->module)->name;
	return (!ops->filter ||
		filter_selects_as(ops->filter, rec->name, ft_plain_name(ops->filter, rec), mod)) &&
	       !(ops->notrace && filter_matches_any_as(ops->notrace, rec->name,
						       ft_plain_name(ops->notrace, rec), mod));
}

/* The per-record flags every update recomputes: who wants it (a probe
 * alone, or a tracer too), and what the graph filters say of it. */
static uint32_t rec_state(const struct ftrace_rec *rec, uint8_t **bits, unsigned nops,
			  uint32_t id)
{
	const char *mod = ftrace_module_get(rec->module)->name;
	uint32_t flags = 0;
	unsigned i = 0;
	int tracer = 0;		/* an ops other than a probe wants it */

	for (struct ftrace_ops *ops = ops_list; ops; ops = ops->next, i++)
		if (ops_wants(ops, rec, id)) {
			flags |= FTRACE_FL_WANTED;
			tracer |= !(ops->flags & FTRACE_OPS_FL_PROBE);
			if (i < nops && bits[i])
				bits[i][id >> 3] |= 1 << (id & 7);
		}
	if ((flags & FTRACE_FL_WANTED) && !tracer)
		flags |= FTRACE_FL_PROBE_ONLY;
	if (ft_filter_selects(FT_GRAPH_FUNCTION, rec, mod))
		flags |= FTRACE_FL_GRAPH_FUNC;
	if (ft_filter_selects(FT_GRAPH_NOTRACE, rec, mod))
		flags |= FTRACE_FL_GRAPH_NOTRACE;
	return flags | ft_args_rec_flags(rec, mod) | ft_trigger_rec_flags(id);
}

unsigned ftrace_rec_refs(const struct ftrace_rec *rec, uint32_t id)
{
	unsigned n = 0;

	for (struct ftrace_ops *ops = ops_list; ops; ops = ops->next)
		n += ops_wants(ops, rec, id);
	return n;
}

/* The call a site makes when enabled: to ftrace_caller, or to a
 * trampoline near its module when ftrace_caller is out of reach. */
static int make_site_call(const struct ftrace_rec *rec, uint8_t *insn)
{
	return ftrace_site_call(ftrace_module_get(rec->module), rec->ip, rec->orig, rec->len,
				arch_caller_for(rec->kind), insn);
}

static int rec_patch(const struct ftrace_rec *rec, int enable, struct text_patch *p)
{
	p->addr = rec->ip;
	p->len = rec->len;
	p->guard = 0;
	if (enable) {
		arch_make_nop(rec->orig, rec->len, p->old);
		return make_site_call(rec, p->new);
	}
	arch_make_nop(rec->orig, rec->len, p->new);
	return make_site_call(rec, p->old);
}

static unsigned count_ops(void)
{
	unsigned n = 0;

	for (struct ftrace_ops *ops = ops_list; ops; ops = ops->next)
		n++;
	return n;
}

/* ---- the ops' bitmaps ----
 *
 * Every update publishes fresh bitmaps (a dlopen makes an update), and a
 * list function in another thread may still read the one it replaced:
 * replaced bitmaps are retired, and unmapped once no thread is inside the
 * list function.  Kept forever, they grew without bound: a dlopen/dlclose
 * loop ran a 32-bit process out of address space.  Each bitmap's mapping
 * starts with its own size, just before its bits. */
#define BITMAP_HEAD	16

static uint8_t *bitmap_new(uint32_t nr_recs)
{
	size_t size = BITMAP_HEAD + nr_recs / 8 + 1;
	uint8_t *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memcpy(p, &size, sizeof(size));
	return p + BITMAP_HEAD;
}

static void bitmap_free(uint8_t *bits)
{
	size_t size;

	if (!bits)
		return;
	memcpy(&size, bits - BITMAP_HEAD, sizeof(size));
	munmap(bits - BITMAP_HEAD, size);
}

static uint8_t **retired;
static size_t nr_retired, cap_retired;

/* Unmap the retired bitmaps if no thread is inside the list function.
 * A reader raises the count before it loads ops->wants, and the count is
 * read here after the new bitmaps were stored: a reader that raised it
 * later loads a new one, so zero proves no one holds a retired one. */
static void reap_bitmaps(void)
{
	if (atomic_load(&bitmap_readers) != 0)
		return;
	for (size_t i = 0; i < nr_retired; i++)
		bitmap_free(retired[i]);
	nr_retired = 0;
}

static void retire_bitmap(uint8_t *bits)
{
	if (!bits)
		return;
	if (grow_array((void **)&retired, &cap_retired, nr_retired + 1, sizeof(*retired)))
		return;		/* left mapped: a leak, never a fault */
	retired[nr_retired++] = bits;
}

/* Fresh bitmaps, one per registered ops, published only after the sites
 * are patched. */
static uint8_t **new_bitmaps(unsigned nops)
{
	uint8_t **bits = calloc(nops + 1, sizeof(*bits));

	for (unsigned i = 0; bits && i < nops; i++)
		bits[i] = bitmap_new(ftrace_rec_count());
	return bits;
}

static void publish_bitmaps(uint8_t **bits, unsigned nops)
{
	unsigned i = 0;

	for (struct ftrace_ops *ops = ops_list; ops && i < nops; ops = ops->next, i++)
		retire_bitmap(atomic_exchange(&ops->wants, bits[i]));
	free(bits);
	reap_bitmaps();
}

static void drop_bitmaps(uint8_t **bits, unsigned nops)
{
	for (unsigned i = 0; bits && i < nops; i++)
		bitmap_free(bits[i]);
	free(bits);
}

static uintptr_t wanted_graph(void);

/* Return sites (returns.c) are on while the graph caller is. */
static int want_returns(void)
{
	return !killed && wanted_graph();
}

/* One batch: the text's patches, and the GOT's (libcalls.c). */
struct batch {
	struct text_patch *v;
	uint32_t n;
	struct got_patch *got;
	uint32_t nr_got;
};

/* A library call's store (its record is disabled until its target is
 * known: libcalls.c). */
static int libcall_patch(uint32_t id, int want, struct batch *b)
{
	return ftrace_libcall_patch(id, want, &b->got[b->nr_got++]);
}

/* Collect the patches that make every site what its record wants, the
 * return sites' among them (returns.c), in text order. */
static int collect_patches(struct batch *b, uint8_t **bits, unsigned nops)
{
	const uint32_t keep = FTRACE_FL_ENABLED | FTRACE_FL_DISABLED | FTRACE_FL_RETURNS;
	struct returns_walk w;

	ftrace_returns_walk_start(&w, want_returns());
	for (uint32_t id = 1; id <= ftrace_rec_count(); id++) {
		struct ftrace_rec *rec = ftrace_rec_get(id);
		int want, libcall = rec->kind == SITE_LIBCALL, detour = rec->kind == SITE_DETOUR;

		if (!libcall && !detour && ftrace_returns_before(&w, rec, b->v, &b->n))
			return -1;
		if (rec->flags & FTRACE_FL_DISABLED)
			continue;	/* its text may not even be mapped */
		rec->flags = (rec->flags & keep) | rec_state(rec, bits, nops, id);
		want = !killed && (rec->flags & FTRACE_FL_WANTED);
		if (want == !!(rec->flags & FTRACE_FL_ENABLED))
			continue;
		if (libcall ? libcall_patch(id, want, b) :
		    detour ? ftrace_detour_patch(id, want, &b->v[b->n++]) :
		    rec_patch(rec, want, &b->v[b->n++]))
			return -1;
	}
	return ftrace_returns_finish(&w, b->v, &b->n);
}

static void mark_patched(void)
{
	for (uint32_t id = 1; id <= ftrace_rec_count(); id++) {
		struct ftrace_rec *rec = ftrace_rec_get(id);

		if (rec->flags & FTRACE_FL_DISABLED)
			continue;
		if ((rec->flags & FTRACE_FL_WANTED) && !killed)
			rec->flags |= FTRACE_FL_ENABLED;
		else
			rec->flags &= ~FTRACE_FL_ENABLED;
	}
}

/* The GOT's stores are checked with the text's bytes, before anything
 * is written, and made after them: a slot points at a stub whatever the
 * sites are. */
static int patch_batch(struct batch *b)
{
	int ret;

	if (got_patch_verify(b->got, b->nr_got))
		return -1;
	ret = text_patch_batch(b->v, b->n);
	return ret ? ret : got_patch_write(b->got, b->nr_got);
}

static int replace_code_pinned(void)
{
	uint32_t nr = ftrace_rec_count() + ftrace_returns_count();
	size_t size = (nr ? nr : 1) * sizeof(struct text_patch);
	struct batch b = { bulk_map(size, 0), 0,
			   calloc(ftrace_libcalls_count() + 1, sizeof(struct got_patch)), 0 };
	unsigned nops = count_ops();
	uint8_t **bits = new_bitmaps(nops);
	int ret = -1;

	if (b.v && b.got && bits && collect_patches(&b, bits, nops) == 0)
		ret = patch_batch(&b);
	if (ret == 0) {
		mark_patched();
		ftrace_returns_mark(want_returns());
		publish_bitmaps(bits, nops);
		bits = NULL;
	}
	drop_bitmaps(bits, nops);
	bulk_unmap(b.v, size);
	free(b.got);
	return ret;
}

/* Inside the pin, the records are those of the modules mapped now. */
static int replace_code(void)
{
	return ftrace_modules_pinned(replace_code_pinned);
}

/* Point one of ftrace_caller's own sites at target (0: a nop). */
static int patch_caller_site(char *site, uintptr_t *current, uintptr_t target)
{
	struct text_patch p = { .addr = (uintptr_t)site, .len = ftrace_call_len };
	int ret;

	if (*current == target)
		return 0;
	if (*current)
		arch_make_call(p.addr, NULL, p.len, *current, p.old);
	else
		arch_make_nop(NULL, p.len, p.old);
	if (target)
		arch_make_call(p.addr, NULL, p.len, target, p.new);
	else
		arch_make_nop(NULL, p.len, p.new);
	ret = text_patch_batch(&p, 1);
	if (ret == 0)
		*current = target;
	return ret;
}

/* ftrace_update_ftrace_func(): what ftrace_call should call now. */
static uintptr_t wanted_callback(void)
{
	uintptr_t one = 0;

	for (const struct ftrace_ops *ops = ops_list; ops; ops = ops->next) {
		if (!ops->func)
			continue;
		if (one)
			return (uintptr_t)ftrace_ops_list_func;
		one = (uintptr_t)ops->func;
	}
	return one;
}

static uintptr_t wanted_graph(void)
{
	for (const struct ftrace_ops *ops = ops_list; ops; ops = ops->next)
		if (ops->flags & FTRACE_OPS_FL_GRAPH)
			return (uintptr_t)prepare_ftrace_return;
	return 0;
}

/* May an ops want a library call?  Only one whose filter names some
 * (ops_wants): else their lazy slots are not looked up, and a start-up
 * with no filter costs no dlsym() and no second pass. */
static int libcalls_wanted(void)
{
	for (const struct ftrace_ops *ops = ops_list; ops; ops = ops->next)
		if (ops->selects || (ops->filter && ops->filter->nr_add))
			return 1;
	return 0;
}

/*
 * A batch undone (a thread could not be synced) leaves every site and
 * callback as its record says, and the update may be made again: it is
 * said, not fatal.  Anything else is a fault, and tracing goes off.
 */
int ftrace_update(void)
{
	int ret;

	/* A thread that may not patch changes nothing, and kills nothing. */
	if (killed || !ft_seccomp_may_patch())
		return -1;
	/* Sites first, then the callbacks: a site switched on early only
	 * reaches the list function or a nop. */
	ret = replace_code();
	/* Library calls whose targets were just found outside the pin. */
	if (!ret && libcalls_wanted() && ftrace_libcalls_lookup())
		ret = replace_code();
	if (!ret)
		ret = patch_caller_site(ftrace_call, &call_target, wanted_callback());
	if (!ret)
		ret = patch_caller_site(ftrace_graph_call, &graph_target, wanted_graph());
	if (ret && ret != TEXT_PATCH_UNDONE)
		ftrace_kill("a patch failed");
	return ret ? -1 : 0;
}

/* Before the set of callbacks changes, ftrace_call asks every ops. */
static int through_list(void)
{
	if (!call_target || call_target == (uintptr_t)ftrace_ops_list_func)
		return 0;
	return patch_caller_site(ftrace_call, &call_target, (uintptr_t)ftrace_ops_list_func);
}

static void remove_ops(struct ftrace_ops *ops)
{
	for (struct ftrace_ops *_Atomic *p = &ops_list; *p; p = &(*p)->next)
		if (*p == ops) {
			atomic_store(p, atomic_load(&ops->next));
			return;
		}
}

/* An update that fails leaves the ops out (the sites it had enabled, if
 * any, reach no callback of it) and the next update tries again. */
int register_ftrace_ops(struct ftrace_ops *ops)
{
	ftrace_modules_want_records();
	if (killed || (ops->func && through_list()))
		return -1;
	atomic_store(&ops->next, atomic_load(&ops_list));
	atomic_store(&ops_list, ops);
	if (ftrace_update() == 0)
		return 0;
	remove_ops(ops);
	retire_bitmap(atomic_exchange(&ops->wants, NULL));
	return -1;
}

/* An update that fails leaves the ops in, as if it had not been asked. */
int unregister_ftrace_ops(struct ftrace_ops *ops)
{
	for (struct ftrace_ops *_Atomic *p = &ops_list; *p; p = &(*p)->next)
		if (*p == ops) {
			if (ops->func && through_list())
				return -1;
			atomic_store(p, atomic_load(&ops->next));
			if (ftrace_update()) {
				atomic_store(&ops->next, atomic_load(&ops_list));
				atomic_store(&ops_list, ops);
				return -1;
			}
			retire_bitmap(atomic_exchange(&ops->wants, NULL));
			reap_bitmaps();
			return 0;
		}
	return -1;
}

/*
 * Every site that is not enabled between the compiler's bytes and the nop,
 * in one batch: to the compiler's (detach) or to the nop (an attach after
 * it; a module loaded meanwhile made its sites nops as it came).
 */
static int rewrite_sites(int to_nop)
{
	uint32_t n = 0, nr = ftrace_rec_count();
	struct text_patch *v = calloc(nr ? nr : 1, sizeof(*v));
	int ret = -1;

	for (uint32_t id = 1; v && id <= nr; id++) {
		struct ftrace_rec *rec = ftrace_rec_get(id);
		uint8_t nop[ARCH_MAX_INSN];

		if ((rec->flags & (FTRACE_FL_DISABLED | FTRACE_FL_ENABLED)) ||
		    rec->kind == SITE_LIBCALL || rec->kind == SITE_DETOUR)
			continue;	/* a library call's slot, a detour's entry: back off */
		arch_make_nop(rec->orig, rec->len, nop);
		if (to_nop && memcmp((const void *)rec->ip, rec->orig, rec->len))
			continue;
		v[n].addr = rec->ip;
		v[n].len = rec->len;
		memcpy(v[n].old, to_nop ? rec->orig : nop, rec->len);
		memcpy(v[n].new, to_nop ? nop : rec->orig, rec->len);
		n += memcmp(v[n].old, v[n].new, rec->len) != 0;
	}
	if (v)
		ret = text_patch_batch(v, n);
	free(v);
	return ret;
}

static int restore_sites(void)
{
	return rewrite_sites(0);
}

static int nop_sites(void)
{
	return rewrite_sites(1);
}

/* fntrace detach: every tracer off, then every site and GOT slot restored. */
int ftrace_detach(void)
{
	int ret = -1;

	while (ops_list && unregister_ftrace_ops(ops_list) == 0)
		;
	if (!ops_list)
		ret = ftrace_modules_pinned(restore_sites);
	if (ret == 0)
		ret = ft_interpose_stop();
	killed = ret == 0 ? 1 : killed;
	detached = ret == 0;
	return ret;
}

/* fntrace attach after a detach: the sites nops again, patching on. */
int ftrace_reattach(void)
{
	if (!detached)
		return 0;
	killed = 0;
	if (ftrace_modules_pinned(nop_sites)) {
		killed = 1;
		return -1;
	}
	detached = 0;
	return 0;
}

static char kill_reason[160];

const char *ftrace_kill_reason(void)
{
	return kill_reason;
}

/* Every site we enabled back to a nop, and the callbacks off, as far as
 * that still works; then no more patching at all. */
void ftrace_kill(const char *why)
{
	if (killed)
		return;
	ft_warn("tracing switched off: %s", why);
	snprintf(kill_reason, sizeof(kill_reason), "%s", why);
	killed = 1;
	/* A recording that holds nothing says it failed (record_untraced.c). */
	if (ft_buffer_shm())
		atomic_fetch_or(&ft_buffer_shm()->flags, FT_SHM_KILLED);
	replace_code();
	patch_caller_site(ftrace_call, &call_target, 0);
	patch_caller_site(ftrace_graph_call, &graph_target, 0);
}
