// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's events (record -e) in the Perfetto export, on their
 * thread's sequence among its calls, in time order, so that each nests
 * in the call that made it:
 *
 *   a system call      TYPE_SLICE_BEGIN "read" ("call": its text) at its
 *                      entry, TYPE_SLICE_END ("ret") at its return
 *   time off the CPU   TYPE_SLICE_BEGIN "off CPU: S" ("state", "next",
 *                      "woken_by") at the switch, END at the return
 *   a wake-up it made  TYPE_INSTANT "wakes kev_waits-8"
 *   a page fault       TYPE_INSTANT "page fault" ("address", "ip")
 *
 * and, for Perfetto's own thread state track and CPU tracks, the
 * thread's state as a GenericKernelTaskStateEvent, the form Perfetto
 * reads from a kernel whose scheduler events are each one task's (ftrace's
 * sched_switch names two, and a switch back in here is perf's record,
 * which does not say whom it replaced):
 *
 *   a switch out        the state left in ("S", "D", "R" preempted ...),
 *                       on the CPU left
 *   a switch back in    Running, on its CPU
 *   a wake-up by another thread while asleep   Runnable
 *
 * A slice's name is interned as a function's is, its iid past the
 * process's functions': a slot per system call number (one for numbers
 * past them all), then one per task state.  A system call whose return
 * the trace lacks (exit's, one the thread was in at its end) and a
 * switch the thread never came back from are left out: a slice must end.
 */
#include "export_perfetto.h"
#include "perfetto_proto.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SYSCALL_SLOTS	8193		/* 0..8191 (mips o32 numbers from 4000), then any
				 * other number */
#define STATE_SLOTS	16
#define KEV_SLOTS	(SYSCALL_SLOTS + STATE_SLOTS)

void perfetto_kev_start(struct perfetto *p)
{
	p->kev = tr_thread_kevents(&p->ex->td, p->th, &p->nr_kev);
	p->next_kev = 0;
	p->kev_open[0] = p->kev_open[1] = 0;
	p->task_state = 0;
	if (p->kev_interned)
		memset(p->kev_interned, 0, (KEV_SLOTS + 63) / 64 * sizeof(uint64_t));
}

static const struct kev_record *rec_at(const struct perfetto *p, size_t i)
{
	return &p->ex->td.kev.recs[p->kev[i].idx];
}

/* A state's slot: its index among the states tr_kev_state() says. */
static unsigned state_slot(uint32_t state)
{
	static const char *const states[] = { "R", "R+", "S", "D", "T", "t", "X", "Z", "P", "I" };
	const char *s = tr_kev_state(state);

	for (unsigned i = 0; i < sizeof(states) / sizeof(states[0]); i++)
		if (!strcmp(states[i], s))
			return SYSCALL_SLOTS + i;
	return SYSCALL_SLOTS + STATE_SLOTS - 1;
}

/* The iid of a slot's name, interned in the current packet the first
 * time; 0 (no room for the bitmap): named in full instead. */
static uint64_t intern(struct perfetto *p, unsigned slot, const char *name)
{
	uint64_t iid = p->interned_bits + 1 + slot;
	size_t interned, entry;

	if (!p->kev_interned &&
	    !(p->kev_interned = calloc((KEV_SLOTS + 63) / 64, sizeof(uint64_t))))
		return 0;
	if (has_bit(p->kev_interned, slot))
		return iid;
	set_bit(p->kev_interned, slot);
	interned = pb_begin(&p->pb, PACKET_INTERNED_DATA);
	entry = pb_begin(&p->pb, INTERNED_EVENT_NAMES);
	pb_uint(&p->pb, EVENT_NAME_ENTRY_IID, iid);
	perfetto_put_string(&p->pb, EVENT_NAME_ENTRY_NAME, name);
	pb_end(&p->pb, entry);
	pb_end(&p->pb, interned);
	return iid;
}

/* A slice's begin, named by slot; its annotations follow. */
static size_t slice_begin(struct perfetto *p, uint64_t time, unsigned slot, const char *name,
			  size_t *event)
{
	size_t packet = perfetto_packet_begin(p, time);
	uint64_t iid = intern(p, slot, name);

	*event = perfetto_event_begin(p, TYPE_SLICE_BEGIN);
	if (iid)
		pb_uint(&p->pb, EVENT_NAME_IID, iid);
	else
		perfetto_put_string(&p->pb, EVENT_NAME, name);
	return packet;
}

static void event_end(struct perfetto *p, size_t packet, size_t event)
{
	pb_end(&p->pb, event);
	pb_end(&p->pb, packet);
}

/* The index of the record that ends the one at i (a system call's
 * return, a switch's return to a CPU), or 0 if the trace has none; and
 * for a switch, who woke the thread meanwhile. */
static size_t end_of(const struct perfetto *p, size_t i, const struct kev_record **waker)
{
	const struct kev_record *r = rec_at(p, i);

	*waker = NULL;
	for (size_t j = i + 1; j < p->nr_kev; j++) {
		const struct kev_record *e = rec_at(p, j);

		if (r->kind == KEV_SYS_ENTER && (e->kind == KEV_SYS_ENTER || e->kind == KEV_SYS_EXIT))
			return e->kind == KEV_SYS_EXIT && e->nr == r->nr ? j : 0;
		if (r->kind != KEV_SWITCH_OUT)
			continue;
		if (e->kind == KEV_SWITCH_OUT)
			return 0;
		if (e->kind == KEV_WAKEUP && (uint32_t)e->value == p->th->tid)
			*waker = e;
		if (e->kind == KEV_SWITCH_IN)
			return j;
	}
	return 0;
}

static void write_syscall(struct perfetto *p, const struct kev_record *r)
{
	char buf[32], call[256];
	const char *name = tr_kev_call_name(&p->ex->td.kev, r->nr, buf, sizeof(buf));
	size_t event, packet;

	packet = slice_begin(p, r->time, r->nr < SYSCALL_SLOTS - 1 ? r->nr : SYSCALL_SLOTS - 1,
			     name, &event);
	perfetto_annotate_string(p, "call", tr_kev_call_text(&p->ex->td.kev, r, call, sizeof(call)));
	event_end(p, packet, event);
}

static void write_return(struct perfetto *p, const struct kev_record *r)
{
	size_t packet = perfetto_packet_begin(p, r->time);
	size_t event = perfetto_event_begin(p, TYPE_SLICE_END);
	char ret[64];

	perfetto_annotate_string(p, "ret", tr_kev_return_text(r->value, ret, sizeof(ret)));
	event_end(p, packet, event);
}

static void write_back_in(struct perfetto *p, const struct kev_record *r)
{
	size_t packet = perfetto_packet_begin(p, r->time);

	event_end(p, packet, perfetto_event_begin(p, TYPE_SLICE_END));
}

static void write_switch(struct perfetto *p, const struct kev_record *r,
			 const struct kev_record *waker)
{
	char name[32], next[64], by[64], comm[17] = "";
	size_t event, packet;

	snprintf(name, sizeof(name), "off CPU: %s", tr_kev_state(r->nr));
	memcpy(comm, r->args, 16);
	packet = slice_begin(p, r->time, state_slot(r->nr), name, &event);
	perfetto_annotate_string(p, "state", tr_kev_state_name(r->nr));
	perfetto_annotate_string(p, "next", tr_kev_task_text(r->value ? comm : "<idle>",
							     (uint32_t)r->value, next, sizeof(next)));
	if (waker)
		perfetto_annotate_string(p, "woken_by",
					 tr_kev_task_text(tr_comm_at(&p->ex->td, waker->tid, waker->time),
							  waker->tid, by, sizeof(by)));
	event_end(p, packet, event);
}

static void write_instant(struct perfetto *p, const struct kev_record *r)
{
	char name[96], task[64], hex[32];
	size_t packet, event;

	if (r->kind == KEV_WAKEUP && (r->tid != p->th->tid || (uint32_t)r->value == r->tid))
		return;
	packet = perfetto_packet_begin(p, r->time);
	event = perfetto_event_begin(p, TYPE_INSTANT);
	if (r->kind == KEV_FAULT) {
		perfetto_put_string(&p->pb, EVENT_NAME, "page fault");
		snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)r->args[0]);
		perfetto_annotate_string(p, "address", hex);
		snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)r->args[1]);
		perfetto_annotate_string(p, "ip", hex);
	} else {
		snprintf(name, sizeof(name), "wakes %s",
			 tr_kev_task_text(tr_comm_at(&p->ex->td, (uint32_t)r->value, r->time),
					  (uint32_t)r->value, task, sizeof(task)));
		perfetto_put_string(&p->pb, EVENT_NAME, name);
	}
	event_end(p, packet, event);
}

/* ---- the thread's state ---- */

static unsigned task_state_left_in(uint32_t prev_state)
{
	static const struct {
		const char *ps;
		unsigned char state;
	} states[] = {
		{ "R", TASK_STATE_RUNNABLE }, { "R+", TASK_STATE_RUNNABLE },
		{ "S", TASK_STATE_INTERRUPTIBLE_SLEEP }, { "D", TASK_STATE_UNINTERRUPTIBLE_SLEEP },
		{ "I", TASK_STATE_UNINTERRUPTIBLE_SLEEP }, { "T", TASK_STATE_STOPPED },
		{ "t", TASK_STATE_STOPPED }, { "P", TASK_STATE_STOPPED },
		{ "X", TASK_STATE_DEAD }, { "Z", TASK_STATE_DEAD },
	};
	const char *s = tr_kev_state(prev_state);

	for (unsigned i = 0; i < sizeof(states) / sizeof(states[0]); i++)
		if (!strcmp(states[i].ps, s))
			return states[i].state;
	return TASK_STATE_UNINTERRUPTIBLE_SLEEP;
}

static int asleep(unsigned state)
{
	return state == TASK_STATE_INTERRUPTIBLE_SLEEP || state == TASK_STATE_UNINTERRUPTIBLE_SLEEP;
}

/* The thread's state from r on, if it is a change: Perfetto takes two
 * Running in a row, or anything after dead, for lost data, and a wake-up
 * of a thread not asleep is none (the kernel's sched_waking of one still
 * on its way off the CPU). */
static unsigned task_state_after(const struct perfetto *p, const struct kev_record *r)
{
	unsigned now = p->task_state, next = 0;

	if (r->kind == KEV_SWITCH_OUT)
		next = task_state_left_in(r->nr);
	else if (r->kind == KEV_SWITCH_IN && now != TASK_STATE_RUNNING)
		next = TASK_STATE_RUNNING;
	else if (r->kind == KEV_WAKEUP && (uint32_t)r->value == p->th->tid &&
		 r->tid != p->th->tid && asleep(now))
		next = TASK_STATE_RUNNABLE;
	return now == TASK_STATE_DEAD ? 0 : next;
}

/* The CPU is said where Perfetto looks for it: Running's, and the one a
 * switch out leaves, whose slice it ends. */
static void write_task_state(struct perfetto *p, const struct kev_record *r)
{
	unsigned state = task_state_after(p, r);
	size_t packet, event;

	if (!state)
		return;
	p->task_state = (unsigned char)state;
	packet = perfetto_packet_begin(p, r->time);
	event = pb_begin(&p->pb, PACKET_TASK_STATE);
	if (r->kind != KEV_WAKEUP)
		pb_uint(&p->pb, TASK_CPU, r->cpu);
	perfetto_put_string(&p->pb, TASK_COMM, p->th->comm);
	pb_uint(&p->pb, TASK_TID, p->th->tid);
	pb_uint(&p->pb, TASK_STATE, state);
	event_end(p, packet, event);
}

/* ---- the records in turn ---- */

/* Each begin is written only with its end known to follow; an end or a
 * return met without its begin written (one the trace lacks) is none of
 * the slices': skipped. */
static void write_one(struct perfetto *p, size_t i, unsigned char *open)
{
	const struct kev_record *r = rec_at(p, i), *waker;

	write_task_state(p, r);
	switch (r->kind) {
	case KEV_SYS_ENTER:
	case KEV_SWITCH_OUT:
		if (!end_of(p, i, &waker))
			return;
		open[r->kind == KEV_SWITCH_OUT]++;
		if (r->kind == KEV_SYS_ENTER)
			write_syscall(p, r);
		else
			write_switch(p, r, waker);
		return;
	case KEV_SYS_EXIT:
	case KEV_SWITCH_IN:
		if (!open[r->kind == KEV_SWITCH_IN])
			return;
		open[r->kind == KEV_SWITCH_IN]--;
		if (r->kind == KEV_SYS_EXIT)
			write_return(p, r);
		else
			write_back_in(p, r);
		return;
	case KEV_WAKEUP:
	case KEV_FAULT:
		write_instant(p, r);
		return;
	}
}

int perfetto_kev_before(struct perfetto *p, uint64_t t)
{
	while (p->next_kev < p->nr_kev && rec_at(p, p->next_kev)->time < t) {
		write_one(p, p->next_kev++, p->kev_open);
		if (pb_flush_if_full(&p->pb))
			return -1;
	}
	return 0;
}
