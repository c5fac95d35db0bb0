// SPDX-License-Identifier: GPL-2.0
/*
 * The gate a program waits at between its fork and its exec while the
 * recorder opens its kernel events (enable_on_exec: they start with the
 * program, not with what fntrace does before it).  A pipe: the child
 * reads it, the recorder closes its end once it has tried, whether the
 * events could be opened or not, and a recorder that died opens it too
 * (the read sees the end of the file).  The program's exec closes the
 * child's end (O_CLOEXEC).
 */
#include "kevents.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int kev_gate_make(const struct kev_request *req, int gate[2])
{
	gate[0] = gate[1] = -1;
	return req->groups ? pipe2(gate, O_CLOEXEC) : 0;
}

void kev_gate_wait(int gate[2])
{
	char c;

	if (gate[0] < 0)
		return;
	close(gate[1]);		/* only the recorder's end holds it shut */
	while (read(gate[0], &c, 1) < 0 && errno == EINTR)
		;
}

struct kevents *kev_gate_open(int gate[2], const struct kev_request *req, pid_t pid,
			      const char *dir, size_t keep)
{
	struct kevents *k = NULL;

	if (gate[0] < 0)
		return NULL;
	close(gate[0]);
	if (pid > 0)
		k = kev_start(req, pid, 1, dir, keep);
	close(gate[1]);
	return k;
}
