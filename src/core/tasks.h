/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which tasks of /proc/self/task are the program's threads.
 */
#ifndef FNTRACE_TASKS_H
#define FNTRACE_TASKS_H

#include <sys/types.h>

/* At start-up: note the tasks that are not the program's (tasks.c). */
void ft_tasks_init(void);
/* In the child of a fork: every other task is not the program's. */
void ft_tasks_after_fork(void);
/* Is tid a task that never runs the program's code? */
int ft_task_foreign(pid_t tid);
/* Does the task block SIGTRAP (SigBlk in its status)? */
int ft_task_blocks_trap(pid_t tid);

#endif
