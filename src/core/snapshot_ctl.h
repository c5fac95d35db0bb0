/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Snapshots in the runtime (snapshot_ctl.c): the `snapshot` control file
 * with the kernel's meanings, the snapshot buffer (../common/snapshot.h),
 * and the requests of program threads, which the control thread serves.
 */
#ifndef FNTRACE_SNAPSHOT_CTL_H
#define FNTRACE_SNAPSHOT_CTL_H

#include <stdint.h>
#include <stddef.h>

struct ctl_out;

/* The buffer (and the eventfd that tells of each snapshot) the recorder
 * that started the process made: FNTRACE_SNAPSHOT_FD and
 * FNTRACE_SNAPSHOT_BELL.  0, or -1 if they cannot be used. */
int ft_snapshot_from_recorder(const char *fd, const char *bell);

/* The control files: snapshot (0 frees, 1 takes one, 2 clears; read:
 * the snapshot in its tracer's format), and for a recorder attaching
 * (record -p --overwrite) the buffer's fd and the bell's. */
int ft_snapshot_read(struct ctl_out *o, int arg);
int ft_snapshot_write(const char *value, int append, int arg, char *err, size_t errlen);
int ft_snapshot_read_fd(struct ctl_out *o, int arg);
int ft_snapshot_read_bell(struct ctl_out *o, int arg);
/* A recorder asking for the ring (buffer_fd) while another flight-records
 * the process: -1, the refusal written to o. */
int ft_snapshot_busy(struct ctl_out *o);

/* The snapshot buffer made now, if it is not there yet, as a snapshot
 * trigger is set (the kernel allocates it then too): a snapshot it asks
 * for is a copy, not a first touch of fresh memory.  On the control
 * thread; -1 with the reason in err. */
int ft_snapshot_alloc(char *err, size_t errlen);

/* The control thread's side: the eventfd requests come on (made anew
 * with each endpoint), and the requests waiting, served. */
int ft_snapshot_requests_open(void);
void ft_snapshot_requests_close(void);
void ft_snapshot_serve(void);

/* A snapshot asked for by a program thread (a trigger, a signal
 * handler), never taken by it: async-signal-safe; why (static text, or
 * NULL: a trigger says its own) is said in it.  Its ticket, or 0 if no
 * control thread takes it.  ft_snapshot_wait: until it is taken (0), or timeout_ms pass (-1). */
uint32_t ft_snapshot_ask(const char *why);
int ft_snapshot_wait(uint32_t ticket, unsigned timeout_ms);

/* The tracer changed (under ftrace_lock): a recorder's last copy names
 * its events by it. */
void ft_snapshot_note_tracer(void);
/* A recorder waiting for snapshots should look again (detach). */
void ft_snapshot_ring_bell(void);

#endif
