// SPDX-License-Identifier: GPL-2.0
/*
 * A thread's kernel events, only those of the program it ran.  An exec
 * keeps the pid and the thread's tid and starts another program with
 * calls of its own: the recording has a thread for each program
 * (funcs-PID.N), the kernel one list of events per tid.  Each program's
 * thread takes them from the exec that started it to the next one:
 *
 *        program 0 (kev_fork)        |  program 1 (kev_exec)
 *   child_exec() {                    |
 *     execve(0x7ffd792679a8, ...) {   |  } execve = 0
 *                                     |  openat(...) = 3     (its loader)
 *                                     |  main() {
 *                                     ^ program 1's from the exec's return
 *
 * from the return of a successful execve when the recording has it (-e
 * syscalls), else from the new program's first call: what it did before
 * that (its loader's calls) then goes with the program before.
 */
#include "trace_reader.h"

#include <stdlib.h>
#include <string.h>

static int compare_threads(const void *a, const void *b)
{
	const struct tr_thread *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->image != y->image)
		return x->image < y->image ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* Thread tid of program `image` of pid, or NULL. */
static const struct tr_thread *thread_of(const struct trace_data *td, uint32_t pid,
					 uint32_t image, uint32_t tid)
{
	struct tr_thread key = { .pid = pid, .image = image, .tid = tid };

	return bsearch(&key, td->threads, td->nr_threads, sizeof(key), compare_threads);
}

/* The program pid ran before (step -1) or after (+1) th's, if it has a
 * thread th->tid: the thread; or NULL. */
static const struct tr_thread *next_program(const struct trace_data *td,
					    const struct tr_thread *th, int step)
{
	const struct tr_process *p = th->proc;

	for (p += step; p >= td->procs && p < td->procs + td->nr_procs && p->pid == th->pid;
	     p += step) {
		const struct tr_thread *other = thread_of(td, th->pid, p->image, th->tid);

		if (other)
			return other;
	}
	return NULL;
}

/* The time of th's first event: its first chunk's start is not one (a
 * thread's first chunk counts from 0). */
static uint64_t first_call_ns(struct trace_data *td, const struct tr_thread *th)
{
	struct tr_cursor c;
	const struct tr_event *ev;
	uint64_t t;

	tr_cursor_init(&c, td, th);
	ev = tr_cursor_peek(&c);
	t = ev ? ev->time : UINT64_MAX;
	tr_cursor_free(&c);
	return t;
}

/* The first of refs at time t or later. */
static size_t first_at(const struct trace_data *td, const struct tr_kev_ref *refs, size_t nr,
		       uint64_t t)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (td->kev.recs[refs[mid].idx].time < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int is_exec_return(const struct tr_kevents *k, const struct kev_record *r)
{
	char buf[32];
	const char *name;

	if (r->kind != KEV_SYS_EXIT || r->value != 0)
		return 0;
	name = tr_kev_call_name(k, r->nr, buf, sizeof(buf));
	return !strcmp(name, "execve") || !strcmp(name, "execveat");
}

/* Where program `after` of the thread begins, `before` being the one it
 * ran before: the last exec's return between their first calls, or the
 * first call of `after`. */
static uint64_t program_start(struct trace_data *td, const struct tr_kev_ref *refs,
			      size_t nr, const struct tr_thread *before,
			      const struct tr_thread *after)
{
	uint64_t from = first_call_ns(td, before), to = first_call_ns(td, after);

	for (size_t i = first_at(td, refs, nr, to + 1); i-- > 0;) {
		const struct kev_record *r = &td->kev.recs[refs[i].idx];

		if (r->time <= from)
			break;
		if (is_exec_return(&td->kev, r))
			return r->time;
	}
	return to;
}

const struct tr_kev_ref *tr_thread_kevents(struct trace_data *td,
					   const struct tr_thread *th, size_t *nr)
{
	const struct tr_kev_ref *refs = tr_kevents_of(&td->kev, th->tid, nr);
	const struct tr_thread *before, *after;
	size_t from = 0, to = *nr;

	if (!refs || !th->proc)
		return refs;	/* a thread of kernel events alone */
	before = next_program(td, th, -1);
	after = next_program(td, th, 1);
	if (before)
		from = first_at(td, refs, *nr, program_start(td, refs, *nr, before, th));
	if (after)
		to = first_at(td, refs, *nr, program_start(td, refs, *nr, th, after));
	*nr = to > from ? to - from : 0;
	return *nr ? refs + from : NULL;
}

/* Several threads with one tid are the programs of one process (or tids
 * used again): each has the tid's events of its own time. */
const char *tr_comm_at(struct trace_data *td, uint32_t tid, uint64_t time)
{
	const struct tr_thread *first = NULL;
	unsigned same = 0;

	for (unsigned i = 0; i < td->nr_threads; i++)
		if (td->threads[i].tid == tid && !same++)
			first = &td->threads[i];
	for (unsigned i = 0; same > 1 && i < td->nr_threads; i++) {
		const struct tr_thread *th = &td->threads[i];
		const struct tr_kev_ref *refs;
		size_t nr;

		if (th->tid != tid || !(refs = tr_thread_kevents(td, th, &nr)))
			continue;
		if (td->kev.recs[refs[0].idx].time <= time &&
		    time <= td->kev.recs[refs[nr - 1].idx].time)
			return th->comm;
	}
	return first ? first->comm : NULL;
}
