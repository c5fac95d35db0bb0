// SPDX-License-Identifier: GPL-2.0
/*
 * trace, trace_pipe, trace_stat/function and trace_marker.
 *
 * A chunk a thread still fills is read up to its last whole event (heads
 * are stored last, with release order); a consuming reader remembers how
 * far it got in the chunk's `consumed`, and the chunk is freed once it is
 * full and read to its end.  A full chunk is marked READING while it is
 * copied, so that a writer in overwrite mode does not reuse it meanwhile;
 * a piece of a chunk still being filled, which nothing marks, is copied
 * out before it is sent to a reader that may be slow.
 */
#include "args.h"
#include "buffer.h"
#include "control.h"
#include "events.h"
#include "funcs_file.h"
#include "lock.h"
#include "profile.h"
#include "readout.h"
#include "tracers.h"
#include "tracing.h"
#include "../common/array.h"
#include "../common/clock_pair.h"
#include "../common/shm.h"
#include "../common/sort.h"
#include "../common/muldiv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static uint64_t clock_ticks0, clock_ns0;

void ft_readout_clock_start(void)
{
	ft_clock_pair(&clock_ticks0, &clock_ns0);
}

static void add_line(void *arg, const char *line, size_t len)
{
	ctl_write(arg, line, len);
}

/* funcs are collected first, to know their length for the header. */
struct text {
	char *buf;
	size_t len, cap;
};

static void text_add(void *arg, const char *line, size_t len)
{
	struct text *t = arg;

	if (grow_array((void **)&t->buf, &t->cap, t->len + len, 1))
		return;
	memcpy(t->buf + t->len, line, len);
	t->len += len;
}

static void send_section(struct ctl_out *o, const char *name, const char *data, size_t len)
{
	ctl_printf(o, "%s %zu\n", name, len);
	ctl_write(o, data, len);
}

/*
 * The processes whose events went out, each of which needs its function
 * table: a forked child fills the same buffer under its own pid.
 */
struct sent {
	struct ctl_out *o;
	struct ft_shm *shm;		/* the buffer read: the ring, or a snapshot */
	struct proc_key { uint32_t pid, image; } *procs;
	size_t nr, cap, described;
};

static void note_process(struct sent *s, const struct ft_chunk *c)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->procs[i].pid == c->pid && s->procs[i].image == c->image)
			return;
	if (grow_array((void **)&s->procs, &s->cap, s->nr + 1, sizeof(*s->procs)))
		return;
	s->procs[s->nr++] = (struct proc_key){ c->pid, c->image };
}

/* "funcs PID[.IMAGE] LEN" and the table, for each process noted since. */
static void send_funcs(struct sent *s)
{
	for (; s->described < s->nr; s->described++) {
		const struct proc_key *p = &s->procs[s->described];
		struct text funcs = { 0 };
		char name[48];
		int known;

		ftrace_lock();
		known = !ft_funcs_emit_for(p->pid, p->image, text_add, &funcs);
		ftrace_unlock();
		if (p->image)
			snprintf(name, sizeof(name), "funcs %u.%u", p->pid, p->image);
		else
			snprintf(name, sizeof(name), "funcs %u", p->pid);
		if (known)
			send_section(s->o, name, funcs.buf, funcs.len);
		free(funcs.buf);
	}
}

/* "args LEN" and set_ftrace_args' specs, if any: the reader names the
 * values from them, as from a data directory's args file. */
static void send_specs(struct ctl_out *o)
{
	struct text specs = { 0 };

	ftrace_lock();
	ft_args_emit(text_add, &specs);
	ftrace_unlock();
	if (specs.len)
		send_section(o, "args", specs.buf, specs.len);
	free(specs.buf);
}

/* The clock samples the times convert with: the runtime's start and
 * now, or a snapshot's own, so that it reads the same each time. */
static void clock_samples(const struct sent *s, uint64_t ticks[2], uint64_t ns[2])
{
	if (s->shm && s->shm != ft_buffer_shm() && !ft_shm_clock_read(s->shm, ticks, ns))
		return;
	ticks[0] = clock_ticks0;
	ns[0] = clock_ns0;
	ft_clock_pair(&ticks[1], &ns[1]);
}

/* extra: more info lines (a snapshot's), or NULL. */
static void send_preamble(struct sent *s, const char *tracer, const char *extra)
{
	struct text info = { 0 };
	uint64_t ticks[2], ns[2];
	char line[512];
	int n;

	clock_samples(s, ticks, ns);
	n = snprintf(line, sizeof(line),
		     "fntrace-data: 1\ntracer: %s\npid: %d\nclock_sync: %llu %llu %llu %llu\n"
		     "options: %s\nnr_cpus: %ld\ntracing_thresh: %u\n",
		     tracer, (int)getpid(),
		     (unsigned long long)ticks[0], (unsigned long long)ns[0],
		     (unsigned long long)ticks[1], (unsigned long long)ns[1],
		     ft_graph.retval ? "retval" : "", sysconf(_SC_NPROCESSORS_ONLN),
		     ft_graph_thresh());
	text_add(&info, line, n);
	if (extra)
		text_add(&info, extra, strlen(extra));
	/* The chunks go as they are, in our byte order: the reader swaps. */
	ctl_printf(s->o, "fntrace-stream 1 %s\n", FT_BIG_ENDIAN ? "be" : "le");
	send_section(s->o, "info", info.buf, info.len);
	free(info.buf);
	send_specs(s->o);
	note_process(s, &(struct ft_chunk){ .pid = getpid(), .image = ft_image });
	send_funcs(s);
}

/* The head of events [from, from + len) of c, a chunk of their own. */
static struct ft_chunk piece_head(const struct ft_shm *shm, const struct ft_chunk *c,
				  uint32_t from, uint32_t len)
{
	struct ft_chunk head = *c;

	ft_chunk_state_at(shm, c, from, &head);
	head.used = len;
	head.consumed = ft_piece_mark(from);
	return head;
}

static void send_events(struct sent *s, const struct ft_chunk *head, const void *events)
{
	note_process(s, head);
	ctl_printf(s->o, "chunk %zu\n", sizeof(*head) + head->used);
	ctl_write(s->o, head, sizeof(*head));
	ctl_write(s->o, events, head->used);
}

/* Events [from, to) of a chunk nobody writes to meanwhile (READING). */
static void send_piece(struct sent *s, const struct ft_chunk *c, uint32_t from, uint32_t to)
{
	struct ft_chunk head;

	if (to <= from)
		return;
	head = piece_head(s->shm, c, from, to - from);
	send_events(s, &head, (const char *)(c + 1) + from);
}

/* Which use of a chunk this is: published, its order changes; taken
 * again for new events, its seq. */
struct chunk_use {
	uint64_t order, seq;
};

static struct chunk_use use_of(const struct ft_chunk *c)
{
	const volatile struct ft_chunk *v = c;

	atomic_thread_fence(memory_order_acquire);
	return (struct chunk_use){ v->order, v->seq };
}

/*
 * Events [from, to) of a chunk its thread still fills, copied before
 * they are sent: once full, the chunk may be taken for new events
 * (overwrite) while a slow reader is sent the piece.  -1, nothing sent,
 * if it was published during the copy: the next pass reads it whole if
 * it is still there.
 */
static int send_filling_piece(struct sent *s, const struct ft_chunk *c, uint32_t from,
			      uint32_t to, struct chunk_use use)
{
	struct ft_chunk head;
	struct chunk_use after;
	char *copy;

	if (to <= from)
		return 0;
	copy = malloc(to - from);
	if (!copy)
		return -1;
	head = piece_head(s->shm, c, from, to - from);
	memcpy(copy, (const char *)(c + 1) + from, to - from);
	after = use_of(c);
	if (after.order == use.order && after.seq == use.seq)
		send_events(s, &head, copy);
	free(copy);
	return after.order == use.order && after.seq == use.seq ? 0 : -1;
}

/* Send (or, with send = 0, drop) what full chunk i holds past
 * `consumed`; with consume, free it.  A chunk read but kept goes back to
 * FULL with the mark its thread may have set meanwhile (FT_CHUNK_OLD,
 * buffer.c), unless a recorder freed it under the mark (shm.h).  0 if
 * it was not full. */
static int read_full_chunk(struct sent *s, struct ft_shm *shm, unsigned i, int consume,
			   int send)
{
	struct ft_chunk *c = ft_shm_chunk(shm, i);
	uint32_t word;

	if (!ft_chunk_start_reading(shm, i, &word))
		return 0;
	if (send)
		send_piece(s, c, c->consumed, c->used);
	if (consume)
		ft_chunk_free(shm, i, word, c->used);
	else
		ft_chunk_end_reading(shm, i, word);
	return 1;
}

/* The same for chunk i if its thread still fills it; with consume,
 * `consumed` moves past what was read. */
static void read_filling_chunk(struct sent *s, struct ft_shm *shm, unsigned i, int consume,
			       int send)
{
	struct ft_chunk *c = ft_shm_chunk(shm, i);
	struct chunk_use use = use_of(c);
	uint32_t to;

	if (ft_chunk_state(atomic_load(&shm->state[i])) != FT_CHUNK_FILLING)
		return;
	to = ft_chunk_filled(shm, c);
	if (send && send_filling_piece(s, c, c->consumed, to, use))
		return;
	if (consume)
		c->consumed = to;
}

/* A chunk the second look of a pass takes: one a thread still fills, or
 * one it filled after the first look went by. */
struct late_chunk {
	struct ft_chunk_place place;
	unsigned index;
	int filling;
};

static int by_place(const void *a, const void *b)
{
	const struct late_chunk *x = a, *y = b;

	return ft_chunk_place_cmp(&x->place, &y->place);
}

/* The chunks being filled, and the full ones the first look did not
 * take (taken[i]), into *late: their number. */
static size_t look_late(struct ft_shm *shm, const uint8_t *taken, struct late_chunk **late)
{
	size_t n = 0, cap = 0;

	*late = NULL;
	for (unsigned i = 0; i < shm->nr_chunks; i++) {
		unsigned state = ft_chunk_state(atomic_load(&shm->state[i]));
		const struct ft_chunk *c = ft_shm_chunk(shm, i);

		if (state != FT_CHUNK_FILLING && (state != FT_CHUNK_FULL || taken[i]))
			continue;
		if (grow_array((void **)late, &cap, n + 1, sizeof(**late)))
			break;
		(*late)[n++] = (struct late_chunk){ ft_chunk_place(shm, c), i,
						    state == FT_CHUNK_FILLING };
	}
	sort_array(*late, n, sizeof(**late), by_place);
	return n;
}

/*
 * A pass looks twice.  The first look takes the full chunks.  The second
 * takes, thread by thread in its order, the ones filled since the first
 * went by, then the one the thread still fills, and nothing of the
 * thread after that: a thread may fill the chunk a look found being
 * filled and take another while the pass goes on.  Sent in the order
 * found, the second's start would go before the first's end: a reader
 * that reads the stream in parts (a live report) would show them out of
 * order, and a read once would lack the first's end.  A chunk filled
 * after the second look went by is read in the next pass (or, read
 * once, is missing: where the next piece begins tells).
 * Out of memory for the second look, a pass takes the full chunks only.
 */
static void read_all(struct sent *s, int consume, int send)
{
	struct ft_shm *shm = s->shm;
	struct late_chunk *late = NULL;
	const struct late_chunk *stop = NULL;	/* its thread's last taken */
	uint8_t *taken;
	size_t n;

	if (!shm)
		return;
	taken = calloc(shm->nr_chunks, 1);
	for (unsigned i = 0; i < shm->nr_chunks; i++)
		if (read_full_chunk(s, shm, i, consume, send) && taken)
			taken[i] = 1;
	n = taken ? look_late(shm, taken, &late) : 0;
	for (size_t k = 0; k < n; k++) {
		if (stop && ft_same_stream(&stop->place, &late[k].place))
			continue;
		if (late[k].filling) {
			read_filling_chunk(s, shm, late[k].index, consume, send);
			stop = &late[k];
		} else {
			read_full_chunk(s, shm, late[k].index, consume, send);
		}
	}
	free(late);
	free(taken);
	ft_shm_freed(shm);
}

int ft_readout_stream(struct ctl_out *o, struct ft_shm *shm, const char *tracer,
		      const char *extra)
{
	struct sent s = { .o = o, .shm = shm };

	ctl_printf(o, "ok\n");
	send_preamble(&s, tracer, extra);
	read_all(&s, 0, 1);
	send_funcs(&s);
	ctl_printf(o, "end\n");
	free(s.procs);
	return 0;
}

int ft_readout_trace(struct ctl_out *o, int arg)
{
	return ft_readout_stream(o, ft_buffer_shm(), ft_tracer_name(), NULL);
}

/* Emptying the buffer (writing trace, or another tracer starting, as in
 * the kernel) leaves alone a buffer a recorder drains: what is in it
 * belongs to the recording, and would be lost without a count. */
int ft_readout_clear(const char *value, int append, int arg, char *err, size_t errlen)
{
	struct sent s = { .shm = ft_buffer_shm() };

	if (s.shm && !(atomic_load(&s.shm->flags) & FT_SHM_OVERWRITE))
		return 0;
	read_all(&s, 1, 0);
	return 0;
}

static uint32_t published(void)
{
	struct ft_shm *shm = ft_buffer_shm();

	return shm ? atomic_load(&shm->published) : 0;
}

/* Up to a tick for events published since `seen`; then the clients
 * waiting are served. */
static void wait_events(uint32_t seen)
{
	struct timespec tick = { 0, 200 * 1000 * 1000 };
	struct ft_shm *shm = ft_buffer_shm();

	if (shm)
		ft_shm_wait(shm, seen, 1, tick.tv_nsec / 1000000);
	else
		nanosleep(&tick, NULL);
	ft_control_serve_waiting();
}

/*
 * New events as they come, until the reader's end of the socket closes
 * or the endpoint does (detach).  The stream never blocks the endpoint:
 * others are served between its passes, and while the reader is slow.
 */
int ft_readout_pipe(struct ctl_out *o, int arg)
{
	struct sent s = { .o = o };

	if (ft_ctl_pipe_claim(o))
		return -1;
	o->streaming = 1;
	ctl_printf(o, "ok\n");
	send_preamble(&s, ft_tracer_name(), NULL);
	while (!o->failed && !ctl_peer_gone(o->fd) && !ft_control_stopping()) {
		uint32_t seen = published();

		s.shm = ft_buffer_shm();	/* made when the first tracer starts */
		read_all(&s, 1, 1);
		send_funcs(&s);
		ctl_printf(o, "sync\n");	/* a whole part: the reader may print it */
		if (ctl_flush(o))
			break;
		wait_events(seen);
	}
	ft_ctl_pipe_release();
	free(s.procs);
	return 0;
}

int ft_readout_funcs(struct ctl_out *o, int arg)
{
	ctl_printf(o, "ok\n");
	ftrace_lock();
	ft_funcs_emit(add_line, o);
	ftrace_unlock();
	return 0;
}

int ft_readout_profile(struct ctl_out *o, int arg)
{
	ctl_printf(o, "ok\n");
	ftrace_lock();
	for (uint32_t id = 1; id <= ftrace_rec_count(); id++) {
		const struct ft_profile_stat *s = ft_profile_get(id);

		if (s)
			ctl_printf(o, "%s\t%llu\t%llu\t%llu\n", ftrace_rec_get(id)->name,
				   (unsigned long long)s->hits,
				   (unsigned long long)ft_profile_ticks_to_ns(s->time),
				   (unsigned long long)ft_profile_variance_ns2(s));
	}
	ftrace_unlock();
	return 0;
}

int ft_marker_write(const char *text, size_t len)
{
	struct ft_thread *t = ft_thread_get();
	struct ft_context *c;
	unsigned words;

	if (!t || !ft_buffer_attached())
		return -1;
	c = &t->own;
	len = len > FT_MARKER_MAX ? FT_MARKER_MAX : len;
	while (len && text[len - 1] == '\n')
		len--;
	words = 1 + (len + 3) / 4;
	if (ft_buffer_reserve(c, FT_MAX_EVENT_WORDS + words))
		return -1;
	ev_cpu(c);
	c->last = arch_clock();
	ev_time(c, c->last);
	memset(c->pos + 1, 0, (words - 1) * 4);
	memcpy(c->pos + 1, text, len);
	ev_commit(c, ft_long_word(FT_LONG_MARKER, len), words - 1);
	return 0;
}
