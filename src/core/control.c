// SPDX-License-Identifier: GPL-2.0
/*
 * The control thread: accept, check who is asking, read one request, run
 * it, answer, close.  While it streams trace_pipe, it serves the clients
 * that come meanwhile the same way between the stream's passes.  It
 * blocks every signal, so the program's signals go to the program's
 * threads, and it traces nothing of its own but the markers written
 * through it.
 */
#include "buffer.h"
#include "clone.h"
#include "control.h"
#include "ctl_endpoint.h"
#include "fds.h"
#include "ftrace.h"
#include "interpose.h"
#include "lock.h"
#include "messages.h"
#include "own_work.h"
#include "sanitized.h"
#include "seccomp.h"
#include "snapshot_ctl.h"
#include "sync.h"
#include "../common/array.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_REQUEST (1 << 20)

/*
 * While one client is served nobody else can be, so none may keep the
 * thread: a client sends its whole request as soon as it is connected,
 * and one that has not within REQUEST_TIMEOUT_MS (stopped, or not an
 * fntrace client) is dropped, as is one that takes nothing of its
 * answer for ANSWER_TIMEOUT_MS.  fntrace ctl waits 5 s for its answer:
 * longer than a silent peer ahead of it can hold the thread.  A
 * streaming reader (trace_pipe) is the exception: the others are served
 * around it (ctl_out.c), so it may take its time.
 */
#define REQUEST_TIMEOUT_MS 1000
#define ANSWER_TIMEOUT_MS 5000

static int stop_requested;

void ft_control_stop_after_request(void)
{
	stop_requested = 1;
}

int ft_control_stopping(void)
{
	return stop_requested;
}

/*
 * The user the endpoint is for: ours when it was first opened.  A
 * program that gives up its user since (setuid to nobody) stays its
 * starter's to control, and does not become the new user's.
 */
static uid_t owner_uid;

/* The owner, or root. */
static int peer_allowed(int fd)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		return 0;
	return cred.uid == 0 || cred.uid == owner_uid;
}

pid_t ctl_peer_pid(int fd)
{
	struct ucred cred = { 0 };
	socklen_t len = sizeof(cred);

	return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) ? 0 : cred.pid;
}

/* The whole request, up to the client's shutdown; NUL-terminated.  NULL
 * if it fails or passes MAX_REQUEST with its NUL. */
static char *read_request(int fd)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;

	/* Room for at least one more byte, and the NUL. */
	while (len + 2 <= MAX_REQUEST && !grow_array((void **)&buf, &cap, len + 2, 1)) {
		ssize_t n = recv(fd, buf + len, cap - len - 1, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (n == 0) {
			buf[len] = '\0';
			return buf;
		}
		len += n;
	}
	free(buf);
	return NULL;
}

static void set_timeout(int fd, int option, int ms)
{
	struct timeval tv = { ms / 1000, ms % 1000 * 1000 };

	setsockopt(fd, SOL_SOCKET, option, &tv, sizeof(tv));
}

static void answer_error(struct ctl_out *o, int err, const char *msg)
{
	ctl_printf(o, "error %d %s\n", err, msg);
}

static void run_request(struct ctl_out *o, char *req)
{
	char *nl = strchr(req, '\n'), *file, err[256] = "";
	const struct ctl_file *f;
	int append;

	if (!nl || !(file = strchr(req, ' '))) {
		answer_error(o, EINVAL, "malformed request");
		return;
	}
	*nl = *file++ = '\0';
	f = ctl_file_find(file);
	append = !strcmp(req, "append");
	ftrace_modules_need_records();
	if (!f) {
		answer_error(o, ENOENT, "no such file");
	} else if (!strcmp(req, "read")) {
		if (!f->read)
			answer_error(o, EACCES, "not readable");
		else
			f->read(o, f->arg);
	} else if (!append && strcmp(req, "write")) {
		answer_error(o, EINVAL, "malformed request");
	} else if (!f->write) {
		answer_error(o, EACCES, "not writable");
	} else if (f->write(nl + 1, append, f->arg, err, sizeof(err))) {
		answer_error(o, EINVAL, err[0] ? err : "invalid argument");
	} else {
		ctl_printf(o, "ok\n");
	}
}

static void close_endpoint(void)
{
	ft_fd_release(FT_FD_CONTROL);
	ft_fd_release(FT_FD_POLL);
	ft_snapshot_requests_close();
}

/* The client being served: who asked, for a snapshot's header. */
static pid_t client_pid;

pid_t ft_control_client_pid(void)
{
	return client_pid;
}

static void serve(int fd)
{
	struct ctl_out *o = calloc(1, sizeof(*o));
	pid_t outer = client_pid;	/* one a stream serves others around */
	char *req;

	if (!o)
		return;
	o->fd = fd;
	o->send_fd = -1;
	set_timeout(fd, SO_RCVTIMEO, REQUEST_TIMEOUT_MS);
	set_timeout(fd, SO_SNDTIMEO, ANSWER_TIMEOUT_MS);
	req = read_request(fd);
	/* A client that closed before its answer was killed, maybe halfway
	 * through its request, or gave up waiting (the process was
	 * stopped): what it asked is not done. */
	if (!req)
		answer_error(o, EINVAL, "unreadable request");
	else if (!ctl_peer_gone(fd)) {
		client_pid = ctl_peer_pid(fd);
		run_request(o, req);
		client_pid = outer;
	}
	/* A detach is answered once the endpoint is gone: an attach made
	 * the moment it returns must not find it still taking connections. */
	if (stop_requested) {
		close_endpoint();
		ft_ctl_endpoint_remove();
	}
	ctl_flush(o);
	free(req);
	free(o);
}

/* The signal the control thread must answer (sync.c), 0 if none. */
static int sync_signal;

static int open_socket(void);

/* A new endpoint in place of one lost. */
static int reopen_socket(void)
{
	close_endpoint();
	ft_ctl_endpoint_remove();
	return open_socket() < 0 ? -1 : 0;
}

static int accept_once(void *listen_fd)
{
	return accept4(*(int *)listen_fd, NULL, NULL, SOCK_CLOEXEC);
}

/* What woke the thread: a client (the listening socket's event), or a
 * program thread's request for a snapshot (its eventfd's). */
enum { WOKEN_BY_CLIENT, WOKEN_BY_SNAPSHOT };

/*
 * Until a client waits, the thread sleeps in epoll_wait(), not in
 * accept(): a blocked accept() holds the number its connection will get,
 * the lowest free one, and the program's next open() would skip it.  Not
 * in poll() either, which watches a number: once a dup2() of the
 * program's moved our socket away from it, poll() slept on the program's
 * file, while epoll watches our socket wherever its number goes.  The
 * socket is non-blocking, so a client gone meanwhile costs no sleep in
 * accept() either.  Returns the client's descriptor, taken into its slot,
 * or -1 with errno.
 */
static int wait_client(void)
{
	struct epoll_event ev;
	int listen_fd;

	/* Interrupted (a debugger attaching): asleep again, at once. */
	while (epoll_wait(ft_fd(FT_FD_POLL), &ev, 1, -1) < 0)
		if (errno != EINTR)
			return -1;
	if (ev.data.u32 == WOKEN_BY_SNAPSHOT) {
		ft_snapshot_serve();
		errno = EAGAIN;
		return -1;
	}
	listen_fd = ft_fd_checked(FT_FD_CONTROL);
	if (listen_fd < 0) {
		errno = EBADF;
		return -1;
	}
	/* At the limit, past it: the program never sees the number. */
	return ft_fd_open(FT_FD_CLIENT, accept_once, &listen_fd, NULL);
}

/* The next client, on the endpoint's own socket; -1 if the endpoint is
 * lost for good. */
static int next_client(void)
{
	for (;;) {
		int fd;

		/* A raw close_range() passes our wrappers: the numbers may
		 * be closed, or the program's own files, since. */
		if (ft_fd_checked(FT_FD_CONTROL) < 0 || ft_fd_checked(FT_FD_POLL) < 0) {
			if (reopen_socket())
				return -1;
			continue;
		}
		fd = wait_client();
		if (fd >= 0)
			return fd;
		if (errno == EMFILE || errno == ENFILE) {
			/* The client waits; it is tried again, not in a loop. */
			usleep(100 * 1000);
		} else if (errno == EINVAL || errno == ENOTSOCK) {
			if (reopen_socket())	/* ours, but no longer listening */
				return -1;
		} else if (errno != EBADF && errno != EAGAIN && errno != EINTR &&
			   errno != ECONNABORTED) {
			ft_warn("control: accept: %s; control stopped", strerror(errno));
			return -1;
		}
	}
}

/* The client in the slot served, if it may be, and closed. */
static void serve_client(enum ft_fd_slot slot)
{
	/* Serving allocates (glibc's malloc may call mprotect) and
	 * patches: not under a filter that came since.  Nor does the
	 * thread end (glibc frees its stack with madvise): it goes on
	 * taking connections and closing them. */
	if (ft_seccomp_may_serve("control requests are refused") && peer_allowed(ft_fd(slot)))
		serve(ft_fd(slot));
	ft_fd_release(slot);
}

/*
 * The clients waiting while a reader streams, each served in a slot of
 * its own, at most a backlog's worth at a time so that the stream goes
 * on.  An endpoint lost meanwhile is left to next_client(), once the
 * stream ends.
 */
void ft_control_serve_waiting(void)
{
	for (int n = 0; n < FT_CTL_BACKLOG && !stop_requested; n++) {
		int poll_fd = ft_fd_checked(FT_FD_POLL), listen_fd;
		struct epoll_event ev;

		if (poll_fd < 0 || epoll_wait(poll_fd, &ev, 1, 0) <= 0)
			return;
		if (ev.data.u32 == WOKEN_BY_SNAPSHOT) {
			ft_snapshot_serve();
			continue;
		}
		listen_fd = ft_fd_checked(FT_FD_CONTROL);
		if (listen_fd < 0 ||
		    ft_fd_open(FT_FD_SIDE_CLIENT, accept_once, &listen_fd, NULL) < 0)
			return;
		serve_client(FT_FD_SIDE_CLIENT);
	}
}

int ft_control_wait_serving(int fd, short events, int ms)
{
	struct pollfd p[2] = { { .fd = fd, .events = events },
			       { .fd = ft_fd(FT_FD_POLL), .events = POLLIN } };

	if (poll(p, 2, ms) < 0)
		return errno == EINTR ? 0 : -1;
	if (p[1].revents & POLLIN)
		ft_control_serve_waiting();
	return p[0].revents;
}

/* The control thread's tid, which it sets itself: pthread_create() may
 * not have stored its id yet when it first serves. */
static _Atomic pid_t control_tid;

int ft_control_on_thread(void)
{
	return atomic_load(&control_tid) == (pid_t)syscall(SYS_gettid);
}

pid_t ft_control_tid(void)
{
	return atomic_load(&control_tid);
}

/*
 * The control thread is made once and never ends.  A detach closes the
 * endpoint and the thread parks; the next attach opens an endpoint and
 * wakes it.  A thread that ended would have to be joined by someone
 * (ThreadSanitizer reports a thread that ends unjoined as leaked, and
 * after a detach nobody of ours is left to join it).  control_running
 * is set while it serves; wake, to send it back to work.
 */
static _Atomic int control_running, wake;

/* Until a detach, which serve() answers once the endpoint is gone. */
static void serve_clients(void)
{
	while (!stop_requested) {
		if (next_client() < 0)
			return;
		serve_client(FT_FD_CLIENT);
	}
}

/* Asleep on the futex until an attach wakes it (a raw system call:
 * nothing of the C library's, which a sanitizer would see). */
static void park(void)
{
	atomic_store(&control_running, 0);
	while (!atomic_exchange(&wake, 0))
		syscall(SYS_futex, &wake, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
}

static void unpark(void)
{
	atomic_store(&control_running, 1);
	atomic_store(&wake, 1);
	syscall(SYS_futex, &wake, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *control_thread(void *arg)
{
	atomic_store(&control_tid, (pid_t)syscall(SYS_gettid));
	ft_buffer_note_control_tid();
	ft_sanitized_thread_ignored();
	ft_control_take_signals(sync_signal);
	ft_control_take_priority();
	prctl(PR_SET_NAME, "fntrace-ctl");
	for (;;) {
		serve_clients();
		park();
	}
	return NULL;
}

static int new_epoll(void *unused)
{
	return epoll_create1(EPOLL_CLOEXEC);
}

/* What the control thread sleeps in: the socket's readiness, and the
 * program threads' requests for snapshots (snapshot_ctl.c). */
static int open_waiter(int listen_fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = WOKEN_BY_CLIENT };
	struct epoll_event req = { .events = EPOLLIN, .data.u32 = WOKEN_BY_SNAPSHOT };
	int fd = ft_fd_open(FT_FD_POLL, new_epoll, NULL, NULL), req_fd;

	if (fd < 0 || epoll_ctl(fd, EPOLL_CTL_ADD, listen_fd, &ev))
		return -1;
	req_fd = ft_snapshot_requests_open();
	if (req_fd < 0 || epoll_ctl(fd, EPOLL_CTL_ADD, req_fd, &req))
		ft_warn("control: snapshots cannot be asked for by the program's threads");
	return 0;
}

/* The endpoint (ctl_endpoint.c) and what the thread sleeps in. */
static int open_socket(void)
{
	int fd = ft_ctl_endpoint_open(owner_uid);

	if (fd >= 0 && open_waiter(fd) == 0)
		return fd;
	close_endpoint();
	ft_ctl_endpoint_remove();
	return -1;
}

static int thread_made;

/* The thread a detach stopped has closed its endpoint: an attach may
 * open the next. */
static void wait_stopped(void)
{
	if (thread_made && stop_requested)
		while (atomic_load(&control_running))
			usleep(1000);
}

int ft_control_running(void)
{
	return thread_made && !stop_requested;
}

static int start_thread(void)
{
	pthread_t thread;
	sigset_t all, old;
	int ret;

	sync_signal = ftrace_sync_signal();
	/* Not SIGTRAP: a thread that blocks it dies on our breakpoints. */
	sigfillset(&all);
	sigdelset(&all, SIGTRAP);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	atomic_store(&control_running, 1);
	ret = pthread_create(&thread, NULL, control_thread, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	thread_made = ret == 0;
	atomic_store(&control_running, thread_made);
	return ret ? -1 : 0;
}

/* A forked child is a process of its own: its own socket and thread. */
static void control_after_fork(void)
{
	uint64_t from = ft_own_work_begin();

	thread_made = 0;	/* the parent's, not here */
	atomic_store(&control_running, 0);
	atomic_store(&wake, 0);
	ft_fd_release(FT_FD_CLIENT);	/* forked while serving one */
	ft_fd_release(FT_FD_SIDE_CLIENT);
	if (ft_fd(FT_FD_CONTROL) >= 0) {
		close_endpoint();
		ft_ctl_endpoint_forget();
		if (!ft_forked_by_clone())
			ft_control_start();
	}
	ft_own_share_end(from);
}

int ft_control_start(void)
{
	static int once;

	if (ft_fd(FT_FD_CONTROL) >= 0)
		return 0;
	if (!once)
		owner_uid = geteuid();
	if (!ft_seccomp_may_serve("no control endpoint"))
		return -1;
	if (open_socket() < 0)
		return -1;
	if (thread_made)
		unpark();
	else if (start_thread()) {
		close_endpoint();
		ft_ctl_endpoint_remove();
		return -1;
	}
	if (!once++) {
		atexit(ft_ctl_endpoint_remove);
		ft_atfork(NULL, NULL, control_after_fork);
	}
	return 0;
}

/*
 * The same files for the program itself: libfntrace.so exports these so
 * that a program can switch its own tracing (dlsym() them, to keep
 * working without the runtime).  Returns 0, or -1 with the reason in err.
 */
FT_EXPORT int fntrace_ctl_write(const char *file, const char *value, int append,
				char *err, size_t errlen)
{
	const struct ctl_file *f = ctl_file_find(file);

	if (!f || !f->write) {
		snprintf(err, errlen, "%s: %s", file, f ? "not writable" : "no such file");
		return -1;
	}
	ftrace_modules_need_records();
	return f->write(value, append, f->arg, err, errlen);
}

static char *traps_unblocked;

/* The threads fntrace attach took SIGTRAP out of the masks of, for
 * fntrace detach to put it back (src/attach/attach_traps.c). */
const char *ft_traps_unblocked(void)
{
	return traps_unblocked ? traps_unblocked : "";
}

/*
 * fntrace attach: the runtime was just dlopen()ed into a running process,
 * whose other threads run on: it patched live from the start (or, loaded
 * before and detached since, makes the sites nops again).  Point the
 * program's calls at the wrappers, as preloading would have, keep the list
 * of threads attach let take SIGTRAP, and open the control endpoint.
 */
FT_EXPORT int fntrace_attach_init(const char *unblocked)
{
	int interposed;

	ft_messages_attached();
	free(traps_unblocked);
	traps_unblocked = unblocked ? strdup(unblocked) : NULL;
	ftrace_lock();
	if (ftrace_reattach()) {
		ftrace_unlock();
		ft_warn("cannot make the call sites nops again");
		return -1;
	}
	interposed = ft_interpose_start();
	ftrace_unlock();
	if (interposed)
		ft_warn("cannot reach the program's calls to longjmp, dlopen and the like: "
			"function_graph and the profiler stay off");
	wait_stopped();
	stop_requested = 0;
	return ft_control_start();
}
