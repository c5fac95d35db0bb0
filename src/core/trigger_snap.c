// SPDX-License-Identifier: GPL-2.0
/*
 * The triggers that take snapshots: FUNC:snapshot and FUNC:dump, at the
 * call.
 *
 * A program thread never takes a snapshot: it asks the control thread
 * (snapshot_ctl.c), which copies the ring while the program runs on.  A
 * trigger's request also says why, for the snapshot's info: one pending
 * request at a time, in a slot a hit claims with a compare-and-swap and
 * the control thread empties as it takes the snapshot.  A hit that finds
 * the slot taken asks nothing: the snapshot pending is taken after its
 * call, so the ring it copies holds that call too.  Nothing here waits
 * or takes a lock; the one system call is the eventfd's write, once per
 * snapshot asked for.
 */
#include "events.h"
#include "messages.h"
#include "snapshot_ctl.h"
#include "triggers.h"
#include "ftrace.h"
#include "../common/snapshot.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { SLOT_FREE, SLOT_FILLING, SLOT_READY };

/* The pending request: what a snapshot taken now is for. */
static struct {
	_Atomic int state;
	enum trigger_cmd cmd;
	uint32_t id, tid;
} pending;

/* Claim the slot and ask.  A request pending already stands for this
 * one: the snapshot it asks for is taken after this call.  0 only if
 * none can be made (no control thread). */
static int request(enum trigger_cmd cmd, uint32_t id, uint32_t tid)
{
	int free_state = SLOT_FREE;

	if (!atomic_compare_exchange_strong(&pending.state, &free_state, SLOT_FILLING))
		return 1;
	pending.cmd = cmd;
	pending.id = id;
	pending.tid = tid;
	atomic_store(&pending.state, SLOT_READY);
	if (ft_snapshot_ask())
		return 1;
	atomic_store(&pending.state, SLOT_FREE);
	return 0;
}

void ft_trigger_snapshot(const struct ft_trigger_hit *h)
{
	if (ft_trigger_take_count(h->count))
		request(h->cmd, h->id, h->t->tid);
}

/* ---- on the control thread ---- */

void ft_trigger_snap_note(struct ft_snap *snap)
{
	const char *name;

	if (atomic_load(&pending.state) != SLOT_READY)
		return;
	name = ftrace_rec_get(pending.id)->name;
	snprintf(snap->why, sizeof(snap->why), "%s:%s thread %u", name,
		 trigger_commands[pending.cmd].name, pending.tid);
	if (pending.cmd == TRIGGER_DUMP)
		ft_warn("dump (trigger %s:dump, thread %u): snapshot %u holds the ring: "
			"fntrace ctl %d snapshot", name, pending.tid, snap->number, (int)getpid());
	atomic_store(&pending.state, SLOT_FREE);
}
