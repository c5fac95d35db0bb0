// SPDX-License-Identifier: GPL-2.0
/*
 * Source lines from DWARF.  A function's address in the funcs file is
 * where it ran; less its module's bias, it is the address the debug
 * information speaks of.  The compilation unit holding it is found by
 * its address ranges (or, where a compiler wrote none, by asking each
 * unit), the function's DIE among that unit's scopes at the
 * address, and its declaration's file and line from the DIE (through
 * its abstract origin for an out-of-line copy of an inline function).
 * libdwfl opens the module, at its link-time addresses, and finds its
 * debug information.
 */
#include "srcline.h"
#include "../common/array.h"
#include "../common/print.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A function looked up that has no line: cached as this, said as NULL. */
static char no_line[] = "";

struct srcline_module {
	char *path;
	Dwfl *dwfl;		/* the file, at its link-time addresses */
	Dwfl_Module *mod;	/* NULL: no debug information */
};

/* The answers for one process, by function id. */
struct srcline_proc {
	const struct tr_process *proc;
	char **lines;		/* NULL: not looked up yet */
};

struct tr_srclines {
	struct srcline_module *modules;
	unsigned nr_modules;
	size_t cap_modules;
	struct srcline_proc *procs;
	unsigned nr_procs;
	size_t cap_procs;
};

struct tr_srclines *tr_srclines_new(void)
{
	return calloc(1, sizeof(struct tr_srclines));
}

void tr_srclines_free(struct tr_srclines *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->nr_modules; i++) {
		if (s->modules[i].dwfl)
			dwfl_end(s->modules[i].dwfl);
		free(s->modules[i].path);
	}
	for (unsigned i = 0; i < s->nr_procs; i++) {
		for (unsigned f = 0; f < s->procs[i].proc->nr_funcs; f++)
			if (s->procs[i].lines[f] != no_line)
				free(s->procs[i].lines[f]);
		free(s->procs[i].lines);
	}
	free(s->modules);
	free(s->procs);
	free(s);
}

/* ---- modules, opened once ---- */

/* libdwfl finds the debug information in the file, or in a separate
 * file: by build-id under /usr/lib/debug (Debian's -dbgsym packages),
 * or by .gnu_debuglink next to it, in its .debug/, or under
 * /usr/lib/debug. */
static const Dwfl_Callbacks find_debuginfo = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
};

static void open_dwarf(struct srcline_module *m)
{
	Dwfl_Module *mod;
	Dwarf_Addr bias;

	m->dwfl = dwfl_begin(&find_debuginfo);
	mod = m->dwfl ? dwfl_report_elf(m->dwfl, m->path, m->path, -1, 0, false) : NULL;
	if (!mod) {
		pr_warn("%s: %s: no source lines for its functions", m->path,
			dwfl_errmsg(-1));
		return;
	}
	dwfl_report_end(m->dwfl, NULL, NULL);
	if (dwfl_module_getdwarf(mod, &bias))
		m->mod = mod;
	else
		pr_warn("%s has no debug information: no source lines for its "
			"functions (compile with -g)", m->path);
}

static struct srcline_module *module_of(struct tr_srclines *s, const char *path)
{
	struct srcline_module *m;

	for (unsigned i = 0; i < s->nr_modules; i++)
		if (!strcmp(s->modules[i].path, path))
			return &s->modules[i];
	if (grow_array((void **)&s->modules, &s->cap_modules, s->nr_modules + 1, sizeof(*m)))
		return NULL;
	m = &s->modules[s->nr_modules];
	*m = (struct srcline_module) { .path = strdup(path) };
	if (!m->path)
		return NULL;
	s->nr_modules++;
	open_dwarf(m);
	return m;
}

/* ---- one address ---- */

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The DIE of the function whose code starts at addr. */
static int function_at(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die *fn)
{
	Dwarf_Die *scopes = NULL;
	int n = dwarf_getscopes(cu, addr, &scopes), found = -1;

	for (int i = 0; i < n && found < 0; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
			*fn = scopes[i];
			found = 0;
		}
	free(scopes);
	return found;
}

/* The function's declared line, else its first instruction's; its
 * declared file, else the line table's (elfutils 0.188 cannot name the
 * file of clang's DWARF 5 declarations). */
static int where_is(Dwarf_Die *cu, Dwarf_Addr addr, const char **file, int *line)
{
	Dwarf_Die fn;
	int has_fn = function_at(cu, addr, &fn) == 0;
	Dwarf_Line *first = dwarf_getsrc_die(cu, addr);

	*file = has_fn ? dwarf_decl_file(&fn) : NULL;
	if (!*file && first)
		*file = dwarf_linesrc(first, NULL, NULL);
	if (!*file)
		return -1;
	if (has_fn && dwarf_decl_line(&fn, line) == 0)
		return 0;
	return first && dwarf_lineno(first, line) == 0 ? 0 : -1;
}

/* The unit whose code holds the link-time address addr, and the bias
 * of its addresses: by .debug_aranges, else by asking each unit (clang
 * writes no aranges unless told to). */
static Dwarf_Die *unit_of(Dwfl_Module *mod, Dwarf_Addr addr, Dwarf_Addr *bias)
{
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, bias);

	if (cu)
		return cu;
	while ((cu = dwfl_module_nextcu(mod, cu, bias)))
		if (dwarf_haspc(cu, addr - *bias) > 0)
			return cu;
	return NULL;
}

/* "file:line" for the link-time address addr, no_line, or NULL if out
 * of memory. */
static char *look_up(Dwfl_Module *mod, Dwarf_Addr addr)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = unit_of(mod, addr, &bias);
	const char *file;
	int line;
	char *text;

	if (!cu || where_is(cu, addr - bias, &file, &line))
		return no_line;
	if (asprintf(&text, "%s:%d", base_name(file), line) < 0)
		return NULL;
	return text;
}

static const struct tr_module *module_by_idx(const struct tr_process *proc, unsigned idx)
{
	for (unsigned i = 0; i < proc->nr_modules; i++)
		if (proc->modules[i].idx == idx)
			return &proc->modules[i];
	return NULL;
}

static char *find_line(struct tr_srclines *s, const struct tr_process *proc, uint32_t func)
{
	const struct tr_func *fn = &proc->funcs[func];
	const struct tr_module *mod = fn->name ? module_by_idx(proc, fn->module) : NULL;
	struct srcline_module *m;

	if (!mod)
		return no_line;
	m = module_of(s, mod->path);
	if (!m)
		return NULL;
	return m->mod ? look_up(m->mod, fn->addr - mod->bias) : no_line;
}

/* ---- the answers, kept ---- */

static char **lines_of(struct tr_srclines *s, const struct tr_process *proc)
{
	struct srcline_proc *p;

	for (unsigned i = 0; i < s->nr_procs; i++)
		if (s->procs[i].proc == proc)
			return s->procs[i].lines;
	if (grow_array((void **)&s->procs, &s->cap_procs, s->nr_procs + 1, sizeof(*p)))
		return NULL;
	p = &s->procs[s->nr_procs];
	p->proc = proc;
	p->lines = calloc(proc->nr_funcs ? proc->nr_funcs : 1, sizeof(*p->lines));
	if (!p->lines)
		return NULL;
	s->nr_procs++;
	return p->lines;
}

const char *tr_srcline(struct tr_srclines *s, const struct tr_process *proc, uint32_t func)
{
	char **lines = func < proc->nr_funcs ? lines_of(s, proc) : NULL;

	if (!lines)
		return NULL;
	if (!lines[func])
		lines[func] = find_line(s, proc, func);
	return lines[func] && lines[func] != no_line ? lines[func] : NULL;
}
