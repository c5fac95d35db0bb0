// SPDX-License-Identifier: GPL-2.0
/*
 * Ops and the update.  Each ops says, through its filter and notrace
 * lists, which functions it wants; the update compares what is wanted with
 * what is patched (FTRACE_FL_WANTED against FTRACE_FL_ENABLED) and turns
 * the difference into one batch of MAKE_CALL / MAKE_NOP patches, then
 * points ftrace_call and ftrace_graph_call at what the ops need.
 */
#include "ftrace.h"
#include "tracers.h"

#include <stdlib.h>
#include <string.h>

static struct ftrace_ops *ops_list;
static int killed;

/* What ftrace_call and ftrace_graph_call call now (0: they are nops). */
static uintptr_t call_target, graph_target;

int ftrace_killed(void)
{
	return killed;
}

static int ops_wants(const struct ftrace_ops *ops, const struct ftrace_rec *rec)
{
	const char *mod = ftrace_module_get(rec->module)->name;

	return filter_selects(&ops->filter, rec->name, mod) &&
	       !filter_matches_any(&ops->notrace, rec->name, mod);
}

static int rec_wanted(const struct ftrace_rec *rec)
{
	for (const struct ftrace_ops *ops = ops_list; ops; ops = ops->next)
		if (ops_wants(ops, rec))
			return 1;
	return 0;
}

/* The call a site makes when enabled: to ftrace_caller, or to a
 * trampoline near its module when ftrace_caller is out of reach. */
static int make_site_call(const struct ftrace_rec *rec, uint8_t *insn)
{
	uintptr_t target = arch_caller_for(rec->kind);
	const struct ft_module *mod;

	if (arch_make_call(rec->ip, rec->len, target, insn) == 0)
		return 0;
	mod = ftrace_module_get(rec->module);
	target = ftrace_tramp_get(mod->text_lo, mod->text_hi, target);
	if (!target)
		return -1;
	return arch_make_call(rec->ip, rec->len, target, insn);
}

static int rec_patch(const struct ftrace_rec *rec, int enable, struct text_patch *p)
{
	p->addr = rec->ip;
	p->len = rec->len;
	if (enable) {
		arch_make_nop(rec->len, p->old);
		return make_site_call(rec, p->new);
	}
	arch_make_nop(rec->len, p->new);
	return make_site_call(rec, p->old);
}

/* Patch every site whose wanted state differs from its patched state. */
static int replace_code(void)
{
	uint32_t n = 0, nr = ftrace_rec_count();
	struct text_patch *v = calloc(nr ? nr : 1, sizeof(*v));
	int ret = 0;

	if (!v)
		return -1;
	for (uint32_t id = 1; id <= nr && !ret; id++) {
		struct ftrace_rec *rec = ftrace_rec_get(id);
		int want;

		if (rec->flags & FTRACE_FL_DISABLED)
			continue;	/* its text may not even be mapped */
		want = rec_wanted(rec);
		rec->flags = want ? rec->flags | FTRACE_FL_WANTED : rec->flags & ~FTRACE_FL_WANTED;
		if (want != !!(rec->flags & FTRACE_FL_ENABLED))
			ret = rec_patch(rec, want, &v[n++]);
	}
	if (!ret)
		ret = text_patch_batch(v, n);
	for (uint32_t id = 1; id <= nr && !ret; id++) {
		struct ftrace_rec *rec = ftrace_rec_get(id);

		if (!(rec->flags & FTRACE_FL_DISABLED))
			rec->flags = rec->flags & FTRACE_FL_WANTED ? rec->flags | FTRACE_FL_ENABLED
								  : rec->flags & ~FTRACE_FL_ENABLED;
	}
	free(v);
	return ret;
}

/* Point one of ftrace_caller's own sites at target (0: a nop). */
static int patch_caller_site(char *site, uintptr_t *current, uintptr_t target)
{
	struct text_patch p = { .addr = (uintptr_t)site, .len = ftrace_call_len };

	if (*current == target)
		return 0;
	if (*current)
		arch_make_call(p.addr, p.len, *current, p.old);
	else
		arch_make_nop(p.len, p.old);
	if (target)
		arch_make_call(p.addr, p.len, target, p.new);
	else
		arch_make_nop(p.len, p.new);
	if (text_patch_batch(&p, 1))
		return -1;
	*current = target;
	return 0;
}

/* ftrace_update_ftrace_func(): the one callback, or none.  Several ops
 * with callbacks would need the list function; no caller registers more
 * than one yet, and register_ftrace_ops() refuses it. */
static uintptr_t wanted_callback(void)
{
	for (const struct ftrace_ops *ops = ops_list; ops; ops = ops->next)
		if (ops->func)
			return (uintptr_t)ops->func;
	return 0;
}

static uintptr_t wanted_graph(void)
{
	for (const struct ftrace_ops *ops = ops_list; ops; ops = ops->next)
		if (ops->flags & FTRACE_OPS_FL_GRAPH)
			return (uintptr_t)prepare_ftrace_return;
	return 0;
}

int ftrace_update(void)
{
	if (killed)
		return -1;
	/* Sites first, then the callbacks: a site switched on early only
	 * reaches a nop; one switched off late still finds its tracer. */
	if (replace_code() ||
	    patch_caller_site(ftrace_call, &call_target, wanted_callback()) ||
	    patch_caller_site(ftrace_graph_call, &graph_target, wanted_graph())) {
		ftrace_kill("a patch failed");
		return -1;
	}
	return 0;
}

int register_ftrace_ops(struct ftrace_ops *ops)
{
	if (ops->func && wanted_callback())
		return -1;
	ops->next = ops_list;
	ops_list = ops;
	return ftrace_update();
}

int unregister_ftrace_ops(struct ftrace_ops *ops)
{
	for (struct ftrace_ops **p = &ops_list; *p; p = &(*p)->next)
		if (*p == ops) {
			*p = ops->next;
			return ftrace_update();
		}
	return -1;
}

/* Every site we enabled back to a nop, and the callbacks off, as far as
 * that still works; then no more patching at all. */
void ftrace_kill(const char *why)
{
	if (killed)
		return;
	ft_warn("tracing switched off: %s", why);
	ops_list = NULL;
	replace_code();
	patch_caller_site(ftrace_call, &call_target, 0);
	patch_caller_site(ftrace_graph_call, &graph_target, 0);
	killed = 1;
}
