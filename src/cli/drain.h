/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Draining the buffers' shared memory into trace.dat: for a program the
 * recorder started, and for one it attached to (record -p).
 */
#ifndef FNTRACE_DRAIN_H
#define FNTRACE_DRAIN_H

#include <stdint.h>

#include "datadir.h"
#include "../common/shm.h"

struct drainer {
	struct ft_shm *shm;
	struct datadir *dir;
	uint64_t chunks, bytes;
};

enum drain_what {
	DRAIN_FULL,		/* the chunks threads handed over */
	DRAIN_DEAD,		/* everything: the process is gone */
	DRAIN_LIVE,		/* everything, but chunks threads still fill
				 * stay theirs: only their events are taken */
};

int drain(struct drainer *d, enum drain_what what);
/* Sleep until a chunk is handed over, or timeout_ms pass. */
void drain_wait(struct drainer *d, uint32_t seen, unsigned timeout_ms);

#endif
