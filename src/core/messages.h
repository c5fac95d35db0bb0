/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runtime's messages (messages.c): to the user, never the program's
 * streams.
 */
#ifndef FNTRACE_MESSAGES_H
#define FNTRACE_MESSAGES_H

struct ctl_out;

void ft_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Said only under FNTRACE_DEBUG. */
void ft_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* At start-up, before anything is said. */
void ft_messages_start(void);
/* fntrace attach: from now on, the attaching user reads the messages. */
void ft_messages_attached(void);
/* The control file `messages`: every line not handed out yet. */
int ft_messages_read(struct ctl_out *o, int arg);

#endif
