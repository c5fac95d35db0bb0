/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fntrace listen: take the streams of `record --host`, each on a thread
 * of its own, into directories of DIR (receiver.h), until SIGINT or
 * SIGTERM, or with --once the end of the first stream.
 */
#ifndef FNTRACE_LISTENER_H
#define FNTRACE_LISTENER_H

struct listen_options {
	const char *port;	/* a number; "0": any free one */
	const char *bind;	/* an address; NULL: every address */
	const char *out;	/* DIR */
	int once;
};

/* The exit status: 0 stopped, or with --once its stream complete; 1
 * failed (said), or with --once its stream cut. */
int listen_run(const struct listen_options *o);

#endif
