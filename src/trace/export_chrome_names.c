// SPDX-License-Identifier: GPL-2.0
/*
 * What the Chrome export calls each function, quoted once: its name, and
 * its source line with --srcline, kept per process and function id for
 * every call of it.
 */
#include "export_chrome.h"
#include "../dwarf/srcline.h"
#include "../common/print.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A quoted copy of text, padded to whole blocks; -1 if out of memory. */
static int quote_into(struct quoted *q, const char *text)
{
	size_t len;
	char *s = json_quote(text, strlen(text), &len);

	if (!s)
		return -1;
	q->s = malloc((len + NAME_BLOCK) / NAME_BLOCK * NAME_BLOCK);
	if (q->s) {
		memcpy(q->s, s, len + 1);
		q->len = len;
	}
	free(s);
	return q->s ? 0 : -1;
}

/* Names as the flame graphs have them (calltree.c): "[lost]" for a frame
 * entered while events were lost, "[id:N]" for an id funcs-<pid> never
 * named; and the source line, with --srcline.  -1 if out of memory. */
static int describe(struct chrome *c, struct func_text *ft, uint32_t id)
{
	const struct tr_process *proc = c->th->proc;
	const char *name = id ? tr_func_name(proc, id) : "[lost]", *line;
	char unnamed[32];

	if (!name) {
		snprintf(unnamed, sizeof(unnamed), "[id:%u]", id);
		name = unnamed;
	}
	if (quote_into(&ft->name, name))
		return -1;
	line = c->ex->srclines && id ? tr_srcline(c->ex->srclines, proc, id) : NULL;
	return line ? quote_into(&ft->src, line) : 0;
}

/* chrome_func_text()'s first sight of function id. */
const struct func_text *chrome_first_sight(struct chrome *c, uint32_t id)
{
	const struct tr_process *proc = c->th->proc;
	struct func_text **table = &c->funcs[proc - c->ex->td.procs];
	struct func_text *ft = &c->scratch;	/* a damaged file's id */

	if (id < proc->nr_funcs) {
		if (!*table && !(*table = calloc(proc->nr_funcs, sizeof(**table))))
			goto out_of_memory;
		ft = &(*table)[id];
	}
	free(ft->name.s);
	free(ft->src.s);
	memset(ft, 0, sizeof(*ft));
	if (describe(c, ft, id) == 0)
		return ft;
out_of_memory:
	pr_error("out of memory");
	return NULL;
}

void chrome_names_free(struct chrome *c)
{
	for (unsigned i = 0; c->funcs && i < c->ex->td.nr_procs; i++) {
		for (unsigned id = 0; c->funcs[i] && id < c->ex->td.procs[i].nr_funcs; id++) {
			free(c->funcs[i][id].name.s);
			free(c->funcs[i][id].src.s);
		}
		free(c->funcs[i]);
	}
	free(c->funcs);
	free(c->scratch.name.s);
	free(c->scratch.src.s);
}
