/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's events in the function tracer's view
 * (report_function_kev.c): each selected thread's, the next to print.
 */
#ifndef FNTRACE_REPORT_FUNCTION_KEV_H
#define FNTRACE_REPORT_FUNCTION_KEV_H

#include "report_int.h"

struct fn_kev_thread {
	const struct tr_kev_ref *refs;
	size_t nr, next;
};

struct fn_kev {
	struct report *r;
	struct fn_kev_thread *threads;	/* parallel to r->threads; NULL: none */
};

/* 0, or -1 out of memory. */
int fn_kev_init(struct fn_kev *f, struct report *r);
void fn_kev_free(struct fn_kev *f);
/* Every selected thread's kernel events before time t, in time order. */
void fn_kev_flush(struct fn_kev *f, uint64_t t);

#endif
