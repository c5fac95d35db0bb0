// SPDX-License-Identifier: GPL-2.0
/*
 * Shared memory of the other byte order (a mips program traced from
 * x86_64): the header, the chunk walk and the import into trace.dat's
 * order give what the same events give in our own order.
 */
#include "unit.h"
#include "common/shm.h"

#include <string.h>

/* A chunk's events, in our order: an entry, a marker whose text must
 * stay bytes, a CPU change, a long entry with its arguments (a string
 * among them, bytes too), an exit and a stack trace. */
static const char text[] = "abcdefg";
static const char arg_text[] = "hi\"xyz";
static uint32_t events[32];
static unsigned nr_events, arg_text_at, arg_text_words;

static void put_value(uint64_t v)
{
	events[nr_events++] = (uint32_t)v;
	events[nr_events++] = (uint32_t)(v >> 32);
}

/* arg1 = -5, arg2 = "hi\"xyz", arg3 = 0x123456789 */
static void make_args(void)
{
	uint32_t len = sizeof(arg_text) - 1;

	arg_text_words = (len + 3) / 4;
	events[nr_events++] = ft_long_word(FT_LONG_ARGS, 3 + 1 + arg_text_words + 3);
	events[nr_events++] = ft_arg_head(FT_ARG_SIGNED, 1, 8);
	put_value((uint64_t)-5);
	events[nr_events++] = ft_arg_head(FT_ARG_STRING, 2, len);
	arg_text_at = nr_events;
	memset(&events[nr_events], 0, arg_text_words * 4);
	memcpy(&events[nr_events], arg_text, len);
	nr_events += arg_text_words;
	events[nr_events++] = ft_arg_head(FT_ARG_HEX, 3, 8);
	put_value(0x123456789ull);
}

static void make_events(void)
{
	uint32_t marker_words = (sizeof(text) + 3) / 4;

	events[nr_events++] = ft_entry_word(5, 7);
	events[nr_events++] = ft_long_word(FT_LONG_MARKER, sizeof(text));
	memcpy(&events[nr_events], text, sizeof(text));
	nr_events += marker_words;
	events[nr_events++] = ft_long_word(FT_LONG_CPU, 3);
	events[nr_events++] = ft_long_word(FT_LONG_ENTRY, 11);
	events[nr_events++] = 300000;
	make_args();
	events[nr_events++] = ft_exit_word(13);
	events[nr_events++] = ft_stack_word(1, 1);	/* an id, then an address */
	events[nr_events++] = 5;
	put_value(0x7f0000401234ull);
}

/* Chunk 1: four frames open, a LOST that resumes seven deep, an exit. */
static struct ft_chunk *fill_lost(struct ft_shm *shm)
{
	struct ft_chunk *c = ft_shm_chunk(shm, 1);
	uint32_t *w = (uint32_t *)(c + 1);
	const uint32_t lost[] = { ft_long_word(FT_LONG_LOST, 7), 9, 0, ft_exit_word(1) };

	c->depth = __builtin_bswap32(5);
	for (unsigned i = 0; i < 4; i++)
		w[i] = __builtin_bswap32(lost[i]);
	return c;
}

/* Fill chunk 0 of shm as a program of the other order would. */
static struct ft_chunk *fill_swapped(struct ft_shm *shm)
{
	struct ft_chunk *c = ft_shm_chunk(shm, 0);
	uint32_t *w = (uint32_t *)(c + 1);

	c->pid = __builtin_bswap32(42);
	c->tid = __builtin_bswap32(43);
	c->seq = __builtin_bswap64(2);
	c->start_time = __builtin_bswap64(1000);
	c->cpu = __builtin_bswap32(1);
	c->depth = __builtin_bswap32(3);	/* two frames open */
	c->used = __builtin_bswap32(nr_events * 4);
	for (unsigned i = 0; i < nr_events; i++)
		w[i] = __builtin_bswap32(events[i]);
	memcpy(&w[2], text, sizeof(text));	/* bytes are bytes */
	memcpy(&w[arg_text_at], &events[arg_text_at], arg_text_words * 4);
	return c;
}

int main(void)
{
	struct ft_shm *shm;
	struct ft_chunk *c, head;
	uint32_t out[32], words_before_cpu;
	int fd;

	make_events();
	CHECK("shm order: created swapped",
	      ft_shm_create(1024, 0, 1, &fd, &shm) == 0 && ft_shm_swapped(shm));
	CHECK("shm order: header read in our order",
	      ft_shm_sane(shm) && ft_shm_nr_chunks(shm) == 128 &&
	      ft_shm_chunk_size(shm) == FT_CHUNK_MIN && ft_shm_size(shm) > 128 * FT_CHUNK_MIN);
	c = fill_swapped(shm);
	CHECK("shm order: the walk finds every event",
	      ft_chunk_filled(shm, c) == nr_events * 4);
	ft_chunk_swap(c, (const uint32_t *)(c + 1), nr_events * 4, &head, out);
	CHECK("shm order: chunk header swapped",
	      head.pid == 42 && head.tid == 43 && head.seq == 2 && head.start_time == 1000 &&
	      head.used == nr_events * 4 && head.cpu == 1 && head.depth == 3);
	CHECK("shm order: events swapped, the texts of a marker and an argument kept as bytes, "
	      "a stack's words swapped",
	      memcmp(out, events, nr_events * 4) == 0);
	ft_chunk_swap(c, (uint32_t *)(c + 1), nr_events * 4, c, (uint32_t *)(c + 1));
	CHECK("shm order: swapped in place, as the ctl stream does",
	      c->pid == 42 && c->start_time == 1000 &&
	      memcmp(c + 1, events, nr_events * 4) == 0);
	fill_swapped(shm);
	words_before_cpu = 2 + (sizeof(text) + 3) / 4 + 1;
	ft_chunk_state_at(shm, c, words_before_cpu * 4, &head);
	CHECK("shm order: time, CPU and depth after the first events",
	      head.start_time == 1007 && head.cpu == 3 && head.depth == 4);
	ft_chunk_state_at(shm, c, nr_events * 4, &head);
	CHECK("shm order: depth after an entry more and an exit", head.depth == 4);
	ft_chunk_state_at(shm, fill_lost(shm), 3 * 4, &head);
	CHECK("shm order: depth after a LOST: the one it says", head.depth == 8);
	ft_chunk_state_at(shm, ft_shm_chunk(shm, 1), 4 * 4, &head);
	CHECK("shm order: depth after the exit that follows", head.depth == 7);
	return unit_done();
}
