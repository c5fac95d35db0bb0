// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime's control thread (fntrace-ctl), one in each process of
 * the recording: its system calls (the epoll_wait it waits in, the
 * accept4, reads and writes of serving a recorder) are fntrace's, not
 * the program's, and are left out.
 *
 * A process's runtime puts its control thread's tid in the buffer's
 * header as the thread starts, in a ring of the last FT_CONTROL_TIDS that
 * every process sharing the buffer (a fork, an exec) writes to, and
 * counts it there as noted.  A tid is judged the first time one of its
 * records is filed: one the ring holds, or a thread named fntrace-ctl in
 * /proc, is one.  A "yes" is kept; a "no" holds until the next control
 * thread is noted, and is judged again then: a drain pass may file a
 * control thread's first records (its start, microseconds before it
 * notes its tid), which are taken for the program's, but not the rest.
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
	uint32_t *noted;		/* control threads noted at the verdict */
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

static void verdicts_free(struct kev_verdicts *v)
{
	free(v->tids);
	free(v->noted);
	free(v->control);
}

static int grow(struct kev_verdicts *v)
{
	struct kev_verdicts bigger = { .cap = v->cap ? 2 * v->cap : 64 };

	bigger.tids = calloc(bigger.cap, sizeof(*bigger.tids));
	bigger.noted = calloc(bigger.cap, sizeof(*bigger.noted));
	bigger.control = calloc(bigger.cap, 1);
	if (!bigger.tids || !bigger.noted || !bigger.control) {
		verdicts_free(&bigger);
		return -1;
	}
	for (size_t i = 0; i < v->cap; i++) {
		if (v->tids[i]) {
			size_t j = slot_of(&bigger, v->tids[i]);

			bigger.tids[j] = v->tids[i];
			bigger.noted[j] = v->noted[i];
			bigger.control[j] = v->control[i];
			bigger.nr++;
		}
	}
	verdicts_free(v);
	*v = bigger;
	return 0;
}

/* Kept if there is memory for it; the verdict either way. */
static int remember(struct kev_verdicts *v, uint32_t tid, uint32_t noted, int control)
{
	size_t i;

	if (2 * (v->nr + 1) > v->cap && grow(v))
		return control;
	i = slot_of(v, tid);
	v->tids[i] = tid;
	v->noted[i] = noted;
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

void kev_leave_out_control(struct kevents *k, struct ft_shm *shm)
{
	k->shm = shm;
	/* A running process's runtime (record -p) says its windows from
	 * now on; a program's was told so at the buffer's making. */
	atomic_fetch_or(&shm->flags, ft_shm_u32(shm, FT_SHM_OWN_WORK));
	if (!k->verdicts)
		k->verdicts = calloc(1, sizeof(*k->verdicts));
}

/* How many control threads the header has noted: read before the ring,
 * so that one noted after the read is judged again. */
static uint32_t control_noted(const struct ft_shm *shm)
{
	return ft_shm_u32(shm, atomic_load_explicit(&shm->control_noted, memory_order_acquire));
}

/* Is tid one of the control threads the header's ring holds? */
static int said_control(const struct ft_shm *shm, uint32_t tid)
{
	for (unsigned i = 0; i < FT_CONTROL_TIDS; i++)
		if (ft_shm_u32(shm, atomic_load_explicit(&shm->control_tids[i],
							 memory_order_relaxed)) == tid)
			return 1;
	return 0;
}

int kev_of_control_thread(struct kevents *k, const struct kev_record *rec)
{
	struct kev_verdicts *v = k->verdicts;
	uint32_t noted;
	size_t i;

	if (!k->shm || !v || !rec->tid)
		return 0;
	noted = control_noted(k->shm);
	if (v->cap && v->tids[i = slot_of(v, rec->tid)]) {
		if (!v->control[i] && v->noted[i] != noted) {
			v->noted[i] = noted;
			v->control[i] = (unsigned char)said_control(k->shm, rec->tid);
		}
		return v->control[i];
	}
	return remember(v, rec->tid, noted, said_control(k->shm, rec->tid) ||
					    named_control(rec->pid, rec->tid));
}

void kev_verdicts_free(struct kevents *k)
{
	if (k->verdicts) {
		verdicts_free(k->verdicts);
		free(k->verdicts);
	}
}
