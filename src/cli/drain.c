// SPDX-License-Identifier: GPL-2.0
/*
 * A chunk's events not taken yet go to trace.dat as a chunk of their own
 * (with the time its first event is relative to); a chunk handed over is
 * then zeroed and freed, written or not.  A chunk a live thread still
 * fills is read up to its last whole event, and `consumed` remembers how
 * far.
 */
#include "drain.h"

#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Events in words (TIME and CPU records only serve the others), and
 * the events its LOST records say the runtime dropped before. */
static void count_events(const uint32_t *w, uint32_t words, uint64_t *events,
			 uint64_t *lost)
{
	for (uint32_t i = 0; i < words;) {
		int len = ft_event_words(w[i]);
		unsigned type = (w[i] >> 2) & 0x3f;

		if (len < 0 || i + len > words)
			return;
		if ((w[i] & 3) != 3)
			++*events;
		else if (type == FT_LONG_LOST)
			*lost += w[i + 1] | (uint64_t)w[i + 2] << 32;
		else if (type != FT_LONG_TIME && type != FT_LONG_CPU)
			++*events;
		i += len;
	}
}

/* Write the piece, in our byte order (a big-endian program's is swapped
 * into a copy), or count its events as dropped. */
static void take_piece(struct drainer *d, const struct ft_chunk *c, uint32_t end)
{
	static uint32_t copy[FT_CHUNK_SIZE / 4];
	uint32_t from = ft_shm_u32(d->shm, c->consumed);
	const uint32_t *events = (const uint32_t *)(c + 1) + from / 4;
	struct ft_chunk head = *c;
	uint64_t n = 0, lost = 0;

	if (end <= from)
		return;
	if (ft_shm_swapped(d->shm)) {
		ft_chunk_swap(c, events, end - from, &head, copy);
		events = copy;
	}
	head.used = end - from;
	count_events(events, head.used / 4, &n, &lost);
	d->lost_noted += lost;
	ft_chunk_state_at(d->shm, c, from, &head.start_time, &head.cpu);
	head.consumed = 0;
	if (datadir_write(d->dir, &head, sizeof(head), events, head.used)) {
		d->dir->info->dropped += n + lost;
		return;
	}
	d->chunks++;
	d->bytes += head.used;
	d->lost += lost;
}

static void drain_chunk(struct drainer *d, unsigned i, uint32_t state, enum drain_what what)
{
	struct ft_chunk *c = ft_shm_chunk(d->shm, i);
	uint32_t room = FT_CHUNK_SIZE - sizeof(*c);
	uint32_t end = state == FT_CHUNK_FULL ? ft_shm_u32(d->shm, c->used)
					      : ft_chunk_filled(d->shm, c);

	end = end > room ? room : end;
	take_piece(d, c, end);
	if (state == FT_CHUNK_FILLING && what == DRAIN_LIVE) {
		c->consumed = ft_shm_u32(d->shm, end);
		return;
	}
	memset(c + 1, 0, end);
	c->consumed = 0;
	atomic_store_explicit(&d->shm->state[i], ft_shm_u32(d->shm, FT_CHUNK_FREE),
			      memory_order_release);
}

void drain(struct drainer *d, enum drain_what what)
{
	for (unsigned i = 0; i < ft_shm_nr_chunks(d->shm); i++) {
		uint32_t s = ft_shm_u32(d->shm, atomic_load_explicit(&d->shm->state[i],
								     memory_order_acquire));

		if (s == FT_CHUNK_FULL || (what != DRAIN_FULL && s == FT_CHUNK_FILLING))
			drain_chunk(d, i, s, what);
	}
}

uint64_t drain_lost_unsaid(const struct drainer *d)
{
	uint64_t all = ft_shm_u64(d->shm, atomic_load(&d->shm->lost));

	return all > d->lost_noted ? all - d->lost_noted : 0;
}

void drain_wait(struct drainer *d, uint32_t seen, unsigned timeout_ms)
{
	struct timespec timeout = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };

	syscall(SYS_futex, &d->shm->published, FUTEX_WAIT, seen, &timeout, NULL, 0);
}

void drain_keep_info(struct drainer *d)
{
	const struct clock_sync *c = &d->dir->info->clock;
	uint64_t every = c->ns[1] == c->ns[0] ? 50000000 : 1000000000;
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if ((uint64_t)now.tv_sec * 1000000000 + now.tv_nsec - c->ns[1] >= every)
		datadir_refresh(d->dir);
}
