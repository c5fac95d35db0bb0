// SPDX-License-Identifier: GPL-2.0
/*
 * The one lock of the control path.  A fork while another thread patches
 * would give the child text halfway through a batch, and a lock that no
 * thread of the child will ever release: fork takes the lock too, and
 * waits for the batch to end (runtime.c registers the handlers).
 */
#include "lock.h"
#include "sanitized.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

static pthread_mutex_t control_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int forks_waiting;

/* A fork waiting for the lock goes first: a thread that switches tracers
 * in a loop takes the lock again the moment it lets it go, and glibc's
 * mutex is not fair (torture_fork's fork waited minutes for it). */
void ftrace_lock(void)
{
	while (atomic_load(&forks_waiting))
		sched_yield();
	ft_mutex_lock(&control_lock);
}

void ftrace_unlock(void)
{
	ft_mutex_unlock(&control_lock);
}

void ftrace_lock_for_fork(void)
{
	atomic_fetch_add(&forks_waiting, 1);
	ft_mutex_lock(&control_lock);
	atomic_fetch_sub(&forks_waiting, 1);
}
