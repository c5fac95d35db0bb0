// SPDX-License-Identifier: GPL-2.0
/*
 * A chunk's events not taken yet go to trace.dat as a chunk of their own
 * (with the time its first event is relative to); a chunk handed over is
 * then zeroed and freed.  A chunk a live thread still fills is read up to
 * its last whole event, and `consumed` remembers how far.
 */
#include "drain.h"

#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int write_piece(struct drainer *d, const struct ft_chunk *c, uint32_t end)
{
	struct ft_chunk head = *c;

	if (end <= c->consumed)
		return 0;
	ft_chunk_state_at(c, c->consumed, &head.start_time, &head.cpu);
	head.used = end - c->consumed;
	head.consumed = 0;
	d->chunks++;
	d->bytes += head.used;
	return datadir_write(d->dir, &head, sizeof(head), (const char *)(c + 1) + c->consumed,
			     head.used);
}

static int drain_chunk(struct drainer *d, unsigned i, uint32_t state, enum drain_what what)
{
	struct ft_chunk *c = ft_shm_chunk(d->shm, i);
	uint32_t room = d->shm->chunk_size - sizeof(*c);
	uint32_t end = state == FT_CHUNK_FULL ? c->used : ft_chunk_filled(d->shm, c);

	end = end > room ? room : end;
	if (write_piece(d, c, end))
		return -1;
	if (state == FT_CHUNK_FILLING && what == DRAIN_LIVE) {
		c->consumed = end;
		return 0;
	}
	memset(c + 1, 0, end);
	c->consumed = 0;
	atomic_store_explicit(&d->shm->state[i], FT_CHUNK_FREE, memory_order_release);
	return 0;
}

int drain(struct drainer *d, enum drain_what what)
{
	for (unsigned i = 0; i < d->shm->nr_chunks; i++) {
		uint32_t s = atomic_load_explicit(&d->shm->state[i], memory_order_acquire);

		if ((s == FT_CHUNK_FULL || (what != DRAIN_FULL && s == FT_CHUNK_FILLING)) &&
		    drain_chunk(d, i, s, what))
			return -1;
	}
	return 0;
}

void drain_wait(struct drainer *d, uint32_t seen, unsigned timeout_ms)
{
	struct timespec timeout = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };

	syscall(SYS_futex, &d->shm->published, FUTEX_WAIT, seen, &timeout, NULL, 0);
}
