// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime's control thread (fntrace-ctl), one in each process of
 * the recording: its system calls (the epoll_wait it waits in, the
 * accept4, reads and writes of serving a recorder) are fntrace's, not
 * the program's, and are left out.
 *
 * A process's runtime says its control thread's tid in the buffer's
 * header as the thread starts; processes that share the buffer (a fork,
 * an exec) each overwrite it.  So a tid is judged once, the first time
 * one of its records is filed: the tid the header says now, or a thread
 * named fntrace-ctl in /proc, is one; and the verdict is kept.  A control
 * thread's first records (its start, a few microseconds before it names
 * itself) are taken for the program's only if a drain pass came between.
 */
#include "kevents.h"
#include "../common/fileio.h"
#include "../common/shm.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONTROL_NAME	"fntrace-ctl"

struct kev_verdicts {
	uint32_t *tids;			/* 0: an empty slot */
	unsigned char *control;
	size_t cap, nr;
};

static size_t slot_of(const struct kev_verdicts *v, uint32_t tid)
{
	size_t i = (tid * 2654435761u) & (v->cap - 1);

	while (v->tids[i] && v->tids[i] != tid)
		i = (i + 1) & (v->cap - 1);
	return i;
}

static int grow(struct kev_verdicts *v)
{
	struct kev_verdicts bigger = { .cap = v->cap ? 2 * v->cap : 64 };

	bigger.tids = calloc(bigger.cap, sizeof(*bigger.tids));
	bigger.control = calloc(bigger.cap, 1);
	if (!bigger.tids || !bigger.control) {
		free(bigger.tids);
		free(bigger.control);
		return -1;
	}
	for (size_t i = 0; i < v->cap; i++) {
		if (v->tids[i]) {
			size_t j = slot_of(&bigger, v->tids[i]);

			bigger.tids[j] = v->tids[i];
			bigger.control[j] = v->control[i];
			bigger.nr++;
		}
	}
	free(v->tids);
	free(v->control);
	*v = bigger;
	return 0;
}

/* Kept if there is memory for it; the verdict either way. */
static int remember(struct kev_verdicts *v, uint32_t tid, int control)
{
	size_t i;

	if (2 * (v->nr + 1) > v->cap && grow(v))
		return control;
	i = slot_of(v, tid);
	v->tids[i] = tid;
	v->control[i] = (unsigned char)control;
	v->nr++;
	return control;
}

/* Is thread tid of process pid named fntrace-ctl?  No if it is gone. */
static int named_control(uint32_t pid, uint32_t tid)
{
	char path[64], *comm;
	size_t len;
	int named;

	snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", pid, tid);
	comm = read_proc_file(path, &len);
	named = comm && !strcmp(comm, CONTROL_NAME "\n");
	free(comm);
	return named;
}

void kev_leave_out_control(struct kevents *k, const struct ft_shm *shm)
{
	k->shm = shm;
	if (!k->verdicts)
		k->verdicts = calloc(1, sizeof(*k->verdicts));
}

int kev_of_control_thread(struct kevents *k, const struct kev_record *rec)
{
	struct kev_verdicts *v = k->verdicts;
	uint32_t said;
	size_t i;

	if (!k->shm || !v || !rec->tid)
		return 0;
	if (v->cap && v->tids[i = slot_of(v, rec->tid)])
		return v->control[i];
	said = ft_shm_u32(k->shm, atomic_load_explicit(&k->shm->control_tid, memory_order_relaxed));
	return remember(v, rec->tid, rec->tid == said || named_control(rec->pid, rec->tid));
}

void kev_verdicts_free(struct kevents *k)
{
	if (k->verdicts) {
		free(k->verdicts->tids);
		free(k->verdicts->control);
		free(k->verdicts);
	}
}
