/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Creating the buffers' shared memory (layout in trace_format.h): by the
 * recorder for a recording, by the runtime for its own in-process buffer.
 */
#ifndef FNTRACE_SHM_H
#define FNTRACE_SHM_H

#include <stddef.h>

#include "trace_format.h"

#define FT_CHUNK_SIZE (256 * 1024)

/* A memfd of about size_kb, with its header written; its fd in *fd and
 * its mapping in *shm.  -1 with errno set on failure. */
int ft_shm_create(unsigned size_kb, unsigned flags, int *fd, struct ft_shm **shm);
size_t ft_shm_size(const struct ft_shm *shm);
struct ft_chunk *ft_shm_chunk(const struct ft_shm *shm, unsigned i);
/* Bytes of whole events in a chunk still being filled (counted from the
 * start of its events, beginning the walk at c->consumed). */
uint32_t ft_chunk_filled(const struct ft_shm *shm, const struct ft_chunk *c);

/* The time and CPU after the events before offset: a piece of a chunk
 * starting there is a chunk of its own with these start_time and cpu. */
void ft_chunk_state_at(const struct ft_chunk *c, uint32_t offset, uint64_t *time,
		       uint32_t *cpu);

#endif
