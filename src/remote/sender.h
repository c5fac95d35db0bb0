/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The target's side of a remote recording (record --host): one TCP
 * connection to a listener, fed from a bounded queue by a thread of its
 * own, so that the recorder's drain never waits for the network.  What
 * does not fit in the queue is refused, for the caller to count as
 * dropped; once the connection is lost, everything is.
 */
#ifndef FNTRACE_SENDER_H
#define FNTRACE_SENDER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

struct sender;

/* Connect to HOST:PORT ([V6ADDR]:PORT for an IPv6 address); NULL after a
 * line on why. */
struct sender *sender_open(const char *hostport);
/* The header (this host, PROG's base name, PID), then whatever was
 * queued, from now on; records may be queued before. */
int sender_begin(struct sender *s, const char *prog, uint32_t pid);
/* Queue one record of the bytes of iov: 0; -1 if refused: the queue is
 * full (errno EAGAIN: trace, not a must), or the stream is lost.  A
 * `must` record (a file of the directory but trace.dat) may take the
 * queue past the trace's limit. */
int sender_push(struct sender *s, unsigned type, const char *name, const struct iovec *iov,
		int n, int must);
/* errno of the loss of the connection; 0 while it stands. */
int sender_lost(const struct sender *s);
/* Bytes the connection took. */
uint64_t sender_bytes(const struct sender *s);
const char *sender_peer(const struct sender *s);
/* The end: everything queued sent, then END, and the listener's answer:
 * 0 with the name of its directory in dir; -1 (sender_lost says why). */
int sender_finish(struct sender *s, char *dir, size_t len);
/* The end of a recording given up: ABORT, with a line on why, sent as
 * far as it goes. */
void sender_abort(struct sender *s, const char *why);
/* Close, whatever state it is in. */
void sender_close(struct sender *s);

#endif
