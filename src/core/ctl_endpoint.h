/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the control endpoint listens (control.h tells what it serves).
 */
#ifndef FNTRACE_CTL_ENDPOINT_H
#define FNTRACE_CTL_ENDPOINT_H

#include <sys/types.h>

/* Connections that may wait to be accepted. */
#define FT_CTL_BACKLOG 16

/* A listening socket in its slot (FT_FD_CONTROL) for owner's clients;
 * -1 after one line saying why not. */
int ft_ctl_endpoint_open(uid_t owner);
/* Its name gone from the file system, if it has one there. */
void ft_ctl_endpoint_remove(void);
/* In a forked child: the name is the parent's, not ours to remove. */
void ft_ctl_endpoint_forget(void);

#endif
