/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runtime's own descriptors, out of the program's way (fds.c).
 *
 * Each lives in a slot, at a number above the program's descriptor limit
 * where the hard limit leaves room (else among the last numbers below
 * it), and the program's calls that close or replace descriptors pass
 * them by: to the program they are not there.  Code that uses one reads
 * its number from the slot each time, since a dup2() onto it moves it.
 */
#ifndef FNTRACE_FDS_H
#define FNTRACE_FDS_H

enum ft_fd_slot {
	FT_FD_CONTROL,		/* the control endpoint's listening socket */
	FT_FD_POLL,		/* the epoll instance the control thread sleeps in */
	FT_FD_CLIENT,		/* the connection the control thread serves */
	FT_FD_SIDE_CLIENT,	/* one it serves while the first streams */
	FT_FD_BUFFER,		/* the trace buffer's shared memory */
	FT_FD_FUNCS,		/* funcs-PID in the recorder's directory */
	FT_FD_MESSAGES,		/* the stderr the runtime started with */
	FT_FD_FILES,		/* the recorder's file service (recorder_files.c) */
	FT_FD_MAPS,		/* /proc/self/maps, for the text's protections */
	FT_FD_SNAPSHOT,		/* the snapshot buffer's shared memory */
	FT_FD_SNAP_REQUEST,	/* the eventfd program threads ask for one with */
	FT_FD_SNAP_BELL,	/* the eventfd that tells a recorder one was taken */
	FT_FD_SOCKET_LOCK,	/* the endpoints' directory's lock, while held */
	FT_NR_FD_SLOTS
};

/* Take fd into the slot, moved up out of the program's way.  exec_name:
 * the variable that tells an exec'd image its number (the recorder's
 * buffer: FNTRACE_SHM_FD), kept up to date; NULL: close-on-exec.  Returns
 * its number now (fd itself if it could not move), or -1 if not open. */
int ft_fd_adopt(enum ft_fd_slot slot, int fd, const char *exec_name);
/* make(arg), which returns a new descriptor or -1 with errno, taken into
 * the slot as ft_fd_adopt() does, while no call of the program's can
 * close or replace it; if the program has used every descriptor it may,
 * made with the limit raised for the call (where the hard limit allows),
 * past the program's numbers. */
int ft_fd_open(enum ft_fd_slot slot, int (*make)(void *arg), void *arg, const char *exec_name);
/* The slot's descriptor, or -1. */
int ft_fd(enum ft_fd_slot slot);
/* Close the slot's descriptor, if any. */
void ft_fd_release(enum ft_fd_slot slot);
/* Forget the slot without closing: its descriptor is gone already. */
void ft_fd_forget(enum ft_fd_slot slot);
/* The slot's descriptor if it is still the file the slot took, else -1,
 * the slot forgotten (a raw close_range() closed it; the number may be
 * the program's now). */
int ft_fd_checked(enum ft_fd_slot slot);
/* Is fd one of the runtime's? */
int ft_fd_is_ours(int fd);

#endif
