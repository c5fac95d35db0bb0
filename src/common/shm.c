// SPDX-License-Identifier: GPL-2.0
/*
 * The buffers' shared memory: a header, the chunk states, then the chunks,
 * each on a page boundary.
 */
#include "shm.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int ft_shm_create(unsigned size_kb, unsigned flags, int *fd, struct ft_shm **out)
{
	unsigned n = (uint64_t)size_kb * 1024 / FT_CHUNK_SIZE;
	size_t head, size;
	struct ft_shm *shm;

	n = n < 4 ? 4 : n;
	head = (sizeof(*shm) + n * sizeof(uint32_t) + 4095) & ~(size_t)4095;
	size = head + (size_t)n * FT_CHUNK_SIZE;
	*fd = memfd_create("fntrace-buffers", MFD_CLOEXEC);
	if (*fd < 0)
		return -1;
	if (ftruncate(*fd, size) ||
	    (shm = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0)) == MAP_FAILED) {
		close(*fd);
		return -1;
	}
	memcpy(shm->magic, FT_SHM_MAGIC, sizeof(shm->magic));
	shm->version = FT_VERSION;
	shm->nr_chunks = n;
	shm->chunk_size = FT_CHUNK_SIZE;
	shm->chunks_offset = head;
	shm->flags = flags;
	*out = shm;
	return 0;
}

size_t ft_shm_size(const struct ft_shm *shm)
{
	return shm->chunks_offset + (size_t)shm->nr_chunks * shm->chunk_size;
}

struct ft_chunk *ft_shm_chunk(const struct ft_shm *shm, unsigned i)
{
	return (struct ft_chunk *)((char *)shm + shm->chunks_offset + (size_t)i * shm->chunk_size);
}

/* Whole events up to the first place an event should start and none does;
 * each head is read with acquire order, as the writer stored it. */
uint32_t ft_chunk_filled(const struct ft_shm *shm, const struct ft_chunk *c)
{
	const _Atomic uint32_t *w = (const _Atomic uint32_t *)(c + 1);
	size_t n = (shm->chunk_size - sizeof(*c)) / 4, i = c->consumed / 4;

	for (;;) {
		int len = i < n ? ft_event_words(atomic_load_explicit(&w[i], memory_order_acquire)) : -1;

		if (len < 0 || i + len > n)
			return i * 4;
		i += len;
	}
}

void ft_chunk_state_at(const struct ft_chunk *c, uint32_t offset, uint64_t *time,
		       uint32_t *cpu)
{
	const uint32_t *w = (const uint32_t *)(c + 1);

	*time = c->start_time;
	*cpu = c->cpu;
	for (uint32_t i = 0; i < offset / 4;) {
		int len = ft_event_words(w[i]);

		if (len < 0)
			break;
		*time = ft_event_time(w + i, *time);
		if ((w[i] & 3) == 3 && ((w[i] >> 2) & 0x3f) == FT_LONG_CPU)
			*cpu = w[i] >> 8;
		i += len;
	}
}
