// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's events (record -e) in the Chrome JSON export, on their
 * thread's track after its calls, as complete events, which the viewers
 * nest by their times inside the calls that made them:
 *
 *   {"pid":7,"tid":7,"ts":20.113,"ph":"X","cat":"syscall","name":"read",
 *    "dur":30319.420,"args":{"call":"read(3, 0x7ffd5e0c1a17, 1)","ret":"1"}}
 *   {"pid":7,"tid":7,"ts":20.125,"ph":"X","cat":"sched","name":"off CPU: S",
 *    "dur":30311.770,"args":{"state":"sleeping","woken_by":"kev_waits-8"}}
 *
 * A wake-up the thread made and a page fault are instants.  A system
 * call without its return in the trace (one the thread was in at its
 * end, or execve's, whose entry came before) is left out, as is a
 * switch out the thread never came back from.
 */
#include "export_chrome.h"

#include <string.h>

uint64_t chrome_kevents_start(const struct trace_data *td)
{
	uint64_t first = UINT64_MAX;

	for (size_t i = 0; i < td->kev.nr; i++)
		if (td->kev.recs[i].kind != KEV_LOST && td->kev.recs[i].kind != KEV_OWN_WORK &&
		    td->kev.recs[i].time < first)
			first = td->kev.recs[i].time;
	return first;
}

static char *put_string(struct chrome *c, char *p, const char *s)
{
	json_out_done(&c->out, p);
	json_out_string(&c->out, s, strlen(s));
	return json_out_room(&c->out);
}

/* "args":{"KEY":"VALUE",...}: pairs of C strings, NULL-ended; none if
 * there are none. */
static char *put_args(struct chrome *c, char *p, const char *const *kv)
{
	if (!kv[0])
		return p;
	p = PUT(p, ",\"args\":{");
	for (int i = 0; kv[i]; i += 2) {
		if (i)
			*p++ = ',';
		p = put_string(c, p, kv[i]);
		*p++ = ':';
		p = put_string(c, p, kv[i + 1]);
	}
	*p++ = '}';
	return p;
}

static int write_complete(struct chrome *c, uint64_t start, uint64_t end, const char *cat,
			  const char *name, const char *const *args)
{
	char *p = chrome_begin_event(c, start);

	p = PUT(p, ",\"ph\":\"X\",\"cat\":");
	p = put_string(c, p, cat);
	p = PUT(p, ",\"name\":");
	p = put_string(c, p, name);
	p = PUT(p, ",\"dur\":");
	p = json_put_usec(p, end > start ? end - start : 0);
	return chrome_end_event(c, put_args(c, p, args));
}

static int write_instant(struct chrome *c, uint64_t time, const char *name,
			 const char *const *args)
{
	char *p = chrome_begin_event(c, time);

	p = PUT(p, ",\"ph\":\"i\",\"s\":\"t\",\"cat\":\"sched\",\"name\":");
	p = put_string(c, p, name);
	return chrome_end_event(c, put_args(c, p, args));
}

/* The event at refs[i] and, for an entry or a switch, the one that ends
 * it (a switch's: who woke the thread meanwhile). */
struct kev_span {
	const struct kev_record *rec, *end, *waker;
};

static void span_at(const struct trace_data *td, const struct tr_kev_ref *refs, size_t nr,
		      size_t i, uint32_t tid, struct kev_span *s)
{
	const struct kev_record *recs = td->kev.recs;

	*s = (struct kev_span){ .rec = &recs[refs[i].idx] };
	for (size_t j = i + 1; j < nr; j++) {
		const struct kev_record *r = &recs[refs[j].idx];

		if (s->rec->kind == KEV_SYS_ENTER && r->kind == KEV_SYS_EXIT) {
			s->end = r->nr == s->rec->nr ? r : NULL;
			break;
		}
		if (s->rec->kind != KEV_SWITCH_OUT)
			continue;
		if (r->kind == KEV_SWITCH_OUT)
			break;
		if (r->kind == KEV_WAKEUP && (uint32_t)r->value == tid)
			s->waker = r;
		if (r->kind == KEV_SWITCH_IN) {
			s->end = r;
			break;
		}
	}
}

static int write_syscall(struct chrome *c, const struct kev_span *s)
{
	char name[32], call[256], ret[64];
	const struct tr_kevents *k = &c->ex->td.kev;
	const char *args[] = { "call", tr_kev_call_text(k, s->rec, call, sizeof(call)),
			       "ret", tr_kev_return_text(s->end->value, ret, sizeof(ret)), NULL };

	return write_complete(c, s->rec->time, s->end->time, "syscall",
			      tr_kev_call_name(k, s->rec->nr, name, sizeof(name)), args);
}

static int write_off_cpu(struct chrome *c, const struct kev_span *s)
{
	struct trace_data *td = &c->ex->td;
	char name[32], next[64], waker[64], comm[17] = "";
	const char *args[] = { "state", tr_kev_state_name(s->rec->nr), "next", next,
			       s->waker ? "woken_by" : NULL, waker, NULL };

	memcpy(comm, s->rec->args, 16);
	tr_kev_task_text(s->rec->value ? comm : "<idle>", (uint32_t)s->rec->value, next,
			 sizeof(next));
	if (s->waker)
		tr_kev_task_text(tr_comm_at(td, s->waker->tid, s->waker->time), s->waker->tid,
				 waker, sizeof(waker));
	snprintf(name, sizeof(name), "off CPU: %s", tr_kev_state(s->rec->nr));
	return write_complete(c, s->rec->time, s->end->time, "sched", name, args);
}

static int write_point(struct chrome *c, const struct kev_record *r, uint32_t tid)
{
	char task[64], name[96], addr[32], ip[32];
	const char *fault[] = { "address", addr, "ip", ip, NULL };
	const char *none[] = { NULL };

	if (r->kind == KEV_FAULT) {
		snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)r->args[0]);
		snprintf(ip, sizeof(ip), "0x%llx", (unsigned long long)r->args[1]);
		return write_instant(c, r->time, "page fault", fault);
	}
	if (r->kind != KEV_WAKEUP || r->tid != tid || (uint32_t)r->value == tid)
		return 0;
	snprintf(name, sizeof(name), "wakes %s",
		 tr_kev_task_text(tr_comm_at(&c->ex->td, (uint32_t)r->value, r->time), (uint32_t)r->value,
				  task, sizeof(task)));
	return write_instant(c, r->time, name, none);
}

int chrome_write_kevents(struct chrome *c, const struct tr_thread *th)
{
	size_t nr;
	const struct tr_kev_ref *refs = tr_thread_kevents(&c->ex->td, th, &nr);
	int err = 0;

	for (size_t i = 0; !err && i < nr; i++) {
		struct kev_span s;

		span_at(&c->ex->td, refs, nr, i, th->tid, &s);
		if (s.rec->kind == KEV_SYS_ENTER && s.end)
			err = write_syscall(c, &s);
		else if (s.rec->kind == KEV_SWITCH_OUT && s.end)
			err = write_off_cpu(c, &s);
		else
			err = write_point(c, s.rec, th->tid);
	}
	return err;
}
