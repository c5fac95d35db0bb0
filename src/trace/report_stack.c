// SPDX-License-Identifier: GPL-2.0
/*
 * Addresses of a traced process named for the views: the function
 * tracer's callers, and the frames of a stack trace (the stacktrace
 * trigger), which print as the kernel's trace_stack_print prints them:
 *
 *   <stack trace>
 *    => parse
 *    => main
 *
 * A frame the runtime knew by its function id is named from funcs-<pid>;
 * one it knew only by a return address, from the ELF symbols of the
 * module it lies in.  Each process's symbols are read when first asked.
 */
#include "report_int.h"
#include "symbols.h"

#include <stdlib.h>

struct report_syms {
	struct sym_table *tables;	/* parallel to td.procs */
	int *ready;
};

static struct sym_table *table_of(struct report *r, const struct tr_thread *th)
{
	unsigned n = r->td.nr_procs ? r->td.nr_procs : 1;
	size_t p = th->proc - r->td.procs;
	struct report_syms *s = r->syms;

	if (!s && (s = r->syms = calloc(1, sizeof(*s)))) {
		s->tables = calloc(n, sizeof(*s->tables));
		s->ready = calloc(n, sizeof(*s->ready));
	}
	if (!s || !s->tables || !s->ready)
		return NULL;
	if (!s->ready[p]) {
		if (sym_table_init(&s->tables[p], th->proc))
			return NULL;
		s->ready[p] = 1;
	}
	return &s->tables[p];
}

const char *report_addr_name(struct report *r, const struct tr_thread *th, uint64_t addr,
			     char *buf, size_t len)
{
	struct sym_table *t = table_of(r, th);

	return t ? sym_name(t, addr, buf, len) : NULL;
}

static const char *return_name(struct report *r, const struct tr_thread *th, uint64_t ret,
			       char *buf, size_t len)
{
	struct sym_table *t = table_of(r, th);

	return t ? sym_caller_name(t, ret, buf, len) : NULL;
}

void report_syms_free(struct report *r)
{
	struct report_syms *s = r->syms;

	for (unsigned i = 0; s && s->ready && i < r->td.nr_procs; i++)
		if (s->ready[i])
			sym_table_free(&s->tables[i]);
	if (s) {
		free(s->tables);
		free(s->ready);
	}
	free(s);
	r->syms = NULL;
}

static const char *frame_name(struct report *r, const struct tr_thread *th,
			      const struct tr_event *ev, unsigned i, char *buf, size_t len)
{
	uint64_t addr = 0;
	uint32_t id = tr_stack_frame(ev, i, &addr);

	if (id)
		return report_func_name(th, id, buf, len);
	return return_name(r, th, addr, buf, len);
}

int report_print_stack(struct report *r, const struct tr_thread *th, const struct tr_event *ev,
		       const char *tail)
{
	unsigned n = tr_stack_frames(ev);
	char buf[256];

	fputs("<stack trace>", r->out);
	for (unsigned i = 0; i < n; i++) {
		const char *name = frame_name(r, th, ev, i, buf, sizeof(buf));

		if (!name)
			return -1;
		fprintf(r->out, "\n => %s", name);
	}
	fprintf(r->out, "%s\n", tail);
	return 0;
}
