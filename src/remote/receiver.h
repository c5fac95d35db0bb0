/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fntrace listen: one connection's stream into a data directory of its
 * own under DIR, named from the stream's header, HOST-PROG-PID[-N]: written
 * as NAME.tmp-PID and renamed into place when the stream ends, complete
 * or not (then its info says how it ended, `stream: ...`).  Nothing is
 * written outside it: every name the stream gives is one plain file
 * (stream_name_ok), created with O_NOFOLLOW.
 */
#ifndef FNTRACE_RECEIVER_H
#define FNTRACE_RECEIVER_H

struct receiver {
	int fd;			/* the connection */
	int out_fd;		/* DIR */
	const char *out;	/* its name, for the messages */
	char peer[128];		/* ADDR:PORT */
	volatile int stopping;	/* the listener shuts the connection down */
	/* what came of it */
	int had_header;		/* a stream at all */
	int complete;		/* its END came, and it is in place */
};

/* Serve the connection until its stream ends; one line on stderr says
 * how, and where it went. */
void receiver_run(struct receiver *r);

#endif
