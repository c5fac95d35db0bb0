/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Perfetto export's parts: export_perfetto.c writes the tracks and
 * the calls, export_perfetto_kev.c the kernel's events (record -e) among
 * them on each thread's sequence.
 */
#ifndef FNTRACE_EXPORT_PERFETTO_H
#define FNTRACE_EXPORT_PERFETTO_H

#include "export.h"
#include "pb_write.h"
#include "symbols.h"

#include <stdint.h>

/* Track uuids: a process's is its pid; a thread's has its program's
 * number after exec (plus one) above its tid, so the two never meet. */
#define PROCESS_TRACK(pid)		((uint64_t)(pid))
#define THREAD_TRACK(th)		((uint64_t)((th)->image + 1) << 32 | (th)->tid)

#define DESCRIPTOR_SEQUENCE		1

struct perfetto {
	struct export *ex;
	struct pb_writer pb;
	/* The sequence being written: one thread's. */
	const struct tr_thread *th;
	uint32_t sequence;
	uint64_t track;
	int cleared;		/* its first packet is written */
	uint64_t last_time;	/* of its last packet, on SEQUENCE_CLOCK */
	uint64_t *interned;	/* a bit per function id: has its iid */
	uint64_t *located;	/* ... and a SourceLocation (--srcline) */
	size_t interned_bits;
	/* The function tracer's callers, named in th->proc's modules. */
	struct sym_table syms;
	const struct tr_process *syms_proc;
	/* The thread's kernel events (record -e), the next to write, and
	 * the names of theirs interned on the sequence. */
	const struct tr_kev_ref *kev;
	size_t nr_kev, next_kev;
	uint64_t *kev_interned;
	unsigned char kev_open[2];	/* begins written: a system call's,
					 * a switch's */
	unsigned char task_state;	/* the last TASK_STATE_* written for
					 * the thread, 0: none yet */
};

static inline int has_bit(const uint64_t *bits, uint32_t n)
{
	return bits[n / 64] >> (n % 64) & 1;
}

static inline void set_bit(uint64_t *bits, uint32_t n)
{
	bits[n / 64] |= (uint64_t)1 << (n % 64);
}

/* ---- export_perfetto.c ---- */

void perfetto_put_string(struct pb_writer *pb, unsigned field, const char *s);
/* A packet of the current sequence at time, its fields to follow. */
size_t perfetto_packet_begin(struct perfetto *p, uint64_t time);
/* Its TrackEvent, on the thread's track. */
size_t perfetto_event_begin(struct perfetto *p, unsigned type);
void perfetto_annotate_string(struct perfetto *p, const char *name, const char *value);

/* ---- export_perfetto_kev.c ---- */

/* The thread of the sequence just started: its kernel events. */
void perfetto_kev_start(struct perfetto *p);
/* Those before time t written; 0, or -1 (errno). */
int perfetto_kev_before(struct perfetto *p, uint64_t t);

#endif
