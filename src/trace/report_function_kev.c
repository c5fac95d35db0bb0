// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's events (record -e) in the function tracer's view, as the
 * kernel's trace file prints events among the functions, each on its
 * line at its time:
 *
 *     kev_waits-4606    [001] .....  3390.491726: sys_enter: read(3, 0x7ffd5e0c1a17, 1)
 *     kev_waits-4606    [001] .....  3390.491730: sched_switch: prev_comm=kev_waits
 *         prev_pid=4606 prev_state=S ==> next_comm=swapper/1 next_pid=0
 *     kev_waits-4607    [000] .....  3390.521977: sched_waking: comm=kev_waits pid=4606
 *         target_cpu=001
 *     kev_waits-4606    [001] .....  3390.522040: sys_exit: read = 1
 *
 * (one line each).  A system call is named, its first three arguments
 * given, where the kernel's raw_syscalls print numbers; a wake-up is the
 * waker's line; the return to a CPU, perf's and no tracepoint's, has
 * none: the next line of the thread says it ran again.
 */
#include "report_int.h"
#include "report_function_kev.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int fn_kev_init(struct fn_kev *f, struct report *r)
{
	*f = (struct fn_kev){ .r = r };
	if (!r->td.kev.nr_refs)
		return 0;
	f->threads = calloc(r->nr_threads, sizeof(*f->threads));
	if (!f->threads)
		return -1;
	for (unsigned i = 0; i < r->nr_threads; i++) {
		struct fn_kev_thread *t = &f->threads[i];

		t->refs = tr_thread_kevents(&r->td, r->threads[i].th, &t->nr);
		while (t->nr && r->td.kev.recs[t->refs[t->nr - 1].idx].time > r->sel.to)
			t->nr--;
		while (t->next < t->nr && r->td.kev.recs[t->refs[t->next].idx].time < r->sel.from)
			t->next++;
	}
	return 0;
}

void fn_kev_free(struct fn_kev *f)
{
	free(f->threads);
}

static const struct kev_record *next_of(const struct fn_kev *f, unsigned ti)
{
	const struct fn_kev_thread *t = &f->threads[ti];

	return t->next < t->nr ? &f->r->td.kev.recs[t->refs[t->next].idx] : NULL;
}

static void print_context(FILE *out, const struct tr_thread *th, const struct kev_record *rec)
{
	uint64_t us = (rec->time + 500) / 1000;

	fprintf(out, "%16s-%-7u [%03u] .....  %5" PRIu64 ".%06" PRIu64 ": ", th->comm, th->tid,
		rec->cpu, us / 1000000, us % 1000000);
}

static void print_switch(FILE *out, const struct tr_thread *th, const struct kev_record *rec)
{
	char next[17] = "";

	memcpy(next, rec->args, 16);
	fprintf(out, "sched_switch: prev_comm=%s prev_pid=%u prev_state=%s ==> next_comm=%s "
		"next_pid=%" PRId64 "\n", th->comm, th->tid, tr_kev_state(rec->nr), next,
		rec->value);
}

/* One event's line; none for a return to a CPU, nor for a wake-up seen
 * from the woken thread (the waker's line says it). */
static void print_one(struct fn_kev *f, unsigned ti, const struct kev_record *rec)
{
	const struct tr_thread *th = f->r->threads[ti].th;
	FILE *out = f->r->out;
	char text[256], comm[17] = "";

	if (rec->kind == KEV_SWITCH_IN || rec->kind == KEV_LOST ||
	    (rec->kind == KEV_WAKEUP && rec->tid != th->tid))
		return;
	print_context(out, th, rec);
	switch (rec->kind) {
	case KEV_SYS_ENTER:
		fprintf(out, "sys_enter: %s\n", tr_kev_call_text(&f->r->td.kev, rec, text, sizeof(text)));
		break;
	case KEV_SYS_EXIT:
		fprintf(out, "sys_exit: %s = ", tr_kev_call_name(&f->r->td.kev, rec->nr, comm, sizeof(comm)));
		fprintf(out, "%s\n", tr_kev_return_text(rec->value, text, sizeof(text)));
		break;
	case KEV_SWITCH_OUT:
		print_switch(out, th, rec);
		break;
	case KEV_WAKEUP:
		memcpy(comm, rec->args, 16);
		fprintf(out, "sched_waking: comm=%s pid=%" PRId64 " target_cpu=%03u\n", comm,
			rec->value, rec->nr);
		break;
	case KEV_FAULT:
		fprintf(out, "page_fault_user: address=0x%" PRIx64 " ip=0x%" PRIx64
			" error_code=0x%" PRIx64 "\n", rec->args[0], rec->args[1], rec->args[2]);
		break;
	}
}

/* Every thread's events before t, the earliest first. */
void fn_kev_flush(struct fn_kev *f, uint64_t t)
{
	if (!f->threads)
		return;
	for (;;) {
		const struct kev_record *first = NULL, *rec;
		unsigned which = 0;

		for (unsigned i = 0; i < f->r->nr_threads; i++) {
			rec = next_of(f, i);
			if (rec && rec->time < t && (!first || rec->time < first->time)) {
				first = rec;
				which = i;
			}
		}
		if (!first)
			return;
		f->threads[which].next++;
		print_one(f, which, first);
	}
}
