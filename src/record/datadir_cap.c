// SPDX-License-Identifier: GPL-2.0
/*
 * record --max-size: the newest SIZE of trace kept, the rest dropped as
 * the recording goes.  trace.dat is written as numbered segments,
 * trace.dat.0, trace.dat.1 ..., each a trace file of its own (a file
 * header, then whole chunks), the newest being written; before a chunk
 * would take the segments on disk past SIZE, the oldest are removed.
 * Dropping old data is then one unlink, nothing copied or rewritten, and
 * a recorder killed at any moment leaves segments a reader takes as they
 * are: only the newest may end inside a chunk.  (LTTng keeps a ring of
 * trace files the same way: enable-channel --tracefile-size/-count.)
 *
 * A segment is an eighth of SIZE, and holds the largest chunk a buffer
 * may have (FT_CHUNK_MAX) at the least: from 2 MB up, what is kept is at
 * least seven eighths of SIZE, the newest, in a few files; below, the
 * newest chunks that fit.  A batch of chunks written in one system call
 * (drain.c) goes in as many as the newest segment takes, the rest after
 * a new one is begun.
 * What went is counted (chunks, bytes, events) into info, with where the
 * oldest chunk kept begins, and info is rewritten at once, so that even
 * a recorder killed says what its segments lack.
 */
#include "datadir.h"
#include "../common/array.h"
#include "../common/shm.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#define SEGMENTS_PER_CAP	8

static struct datadir_segment *newest(struct datadir *d)
{
	return &d->cap.live[d->cap.nr_live - 1];
}

/* trace.dat.N, N the next number, as the file trace_fd writes. */
static int open_segment(struct datadir *d)
{
	struct datadir_cap *c = &d->cap;
	char name[32];

	if (grow_array((void **)&c->live, &c->cap, c->nr_live + 1, sizeof(*c->live))) {
		errno = ENOMEM;
		return -1;
	}
	snprintf(name, sizeof(name), "trace.dat.%u", c->next);
	c->live[c->nr_live++] = (struct datadir_segment){
		.number = c->next++, .first_time = UINT64_MAX };
	if (datadir_open_trace(d, name))
		return -1;
	newest(d)->bytes = d->file_size;
	return 0;
}

int datadir_cap_start(struct datadir *d)
{
	uint64_t least = sizeof(struct ft_file_header) + FT_CHUNK_MAX;

	d->cap.segment_size = d->info->max_size / SEGMENTS_PER_CAP;
	if (d->cap.segment_size < least)
		d->cap.segment_size = least;
	return open_segment(d);
}

/* Where the oldest chunk kept begins: the earliest start of the
 * segments left (a chunk a thread filled slowly is written late). */
static uint64_t kept_from(const struct datadir_cap *c)
{
	uint64_t t = UINT64_MAX;

	for (size_t i = 0; i < c->nr_live; i++)
		if (c->live[i].first_time < t)
			t = c->live[i].first_time;
	return t == UINT64_MAX ? 0 : t;
}

/* The oldest segment goes, counted, and info says so now.  A segment
 * already gone (removed by hand) counts as dropped all the same. */
static void drop_oldest(struct datadir *d)
{
	struct datadir_cap *c = &d->cap;
	struct datadir_segment *s = &c->live[0];
	struct tr_cut *cut = &d->info->cut;
	char path[4200];

	snprintf(path, sizeof(path), "%s/trace.dat.%u", d->tmp, s->number);
	unlink(path);
	d->size -= s->bytes;
	cut->chunks += s->chunks;
	cut->bytes += s->bytes;
	cut->events += s->counts.events;
	cut->lost += s->counts.lost;
	tr_counts_add(&c->counts, &s->counts);
	memmove(c->live, c->live + 1, --c->nr_live * sizeof(*c->live));
	cut->kept_from = kept_from(c);
	datadir_refresh(d);
}

static uint64_t piece_len(const struct datadir_piece *p)
{
	return sizeof(p->head) + p->head.used;
}

unsigned datadir_cap_room(struct datadir *d, const struct datadir_piece *p, unsigned n)
{
	const struct datadir_segment *s = newest(d);
	uint64_t len = piece_len(p);
	unsigned k = 1;

	if (s->chunks && s->bytes + len > d->cap.segment_size && open_segment(d)) {
		datadir_stop_writing(d, errno);
		return 0;
	}
	s = newest(d);
	while (k < n && s->bytes + len + piece_len(&p[k]) <= d->cap.segment_size)
		len += piece_len(&p[k++]);
	while (d->cap.nr_live > 1 && d->size + len > d->info->max_size)
		drop_oldest(d);
	return d->error ? 0 : k;
}

void datadir_cap_note(struct datadir *d, const struct datadir_piece *p)
{
	struct datadir_segment *s = newest(d);

	s->bytes += piece_len(p);
	s->chunks++;
	tr_counts_add(&s->counts, &p->n);
	if (p->head.start_time < s->first_time)
		s->first_time = p->head.start_time;
}

void datadir_cap_free(struct datadir *d)
{
	free(d->cap.live);
	d->cap.live = NULL;
	d->cap.nr_live = d->cap.cap = 0;
}
