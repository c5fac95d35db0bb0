// SPDX-License-Identifier: GPL-2.0
/*
 * Connecting to a traced process's control endpoint: /tmp/fntrace-UID/PID,
 * UID being the user the process had when it bound it, or the abstract
 * name "@fntrace-UID/PID" where it could make no such file
 * (src/core/ctl_endpoint.c).
 */
#include "ctl_client.h"
#include "../cli/cli.h"
#include "../attach/attach.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

int ctl_timeout_ms = 5000;

/* Neither stopped (nor being debugged) nor gone. */
static int running(pid_t pid)
{
	char state[64];

	return cli_proc_status(pid, 0, "State", state, sizeof(state)) == 0 &&
	       !strchr("TtZX", state[0]);
}

/* A stopped process still takes connections, up to its backlog, and
 * requests, but answers none: the time limit says so instead of waiting
 * for ever.  (One that runs was waited for on: wait_on_busy.) */
static void say_no_answer(pid_t pid, unsigned waited_ms)
{
	double s = (waited_ms + ctl_timeout_ms) / 1000.0;

	if (waited_ms && running(pid))
		cli_error("process %d runs but did not answer within %g s", (int)pid, s);
	else
		cli_error("process %d does not answer within %g s (is it stopped?)", (int)pid, s);
}

static int timed_out(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK;
}

/*
 * A process that runs answers late, not never: a thousand threads of its
 * own busy on two CPUs keep its control thread waiting for one a second
 * or two at a time, and a request takes it a few turns.  So past the
 * limit, the answer to a running process is waited for on, said once,
 * up to BUSY_LIMIT_MS; a stopped one (or one being debugged) is given up.
 */
#define BUSY_LIMIT_MS 120000

/* errno as the receive left it, for the caller to say. */
static int wait_on_busy(struct ctl_conn *c)
{
	int err = errno, again = timed_out(err) && !cli_interrupted() && running(c->pid) &&
				 c->waited_ms + ctl_timeout_ms <= BUSY_LIMIT_MS;

	if (again && !c->waited_ms)
		pr_warn("process %d runs but has not answered in %g s (its threads keep "
			"the CPUs busy): waiting on", (int)c->pid, ctl_timeout_ms / 1000.0);
	if (again)
		c->waited_ms += ctl_timeout_ms;
	errno = err;
	return again;
}

/* The limit for connecting (a full backlog), sending and each receive. */
static void set_timeouts(int fd)
{
	struct timeval tv = { ctl_timeout_ms / 1000, ctl_timeout_ms % 1000 * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

long ctl_own_pid(pid_t pid)
{
	char value[256], *last;
	long own;

	if (cli_proc_status(pid, 0, "NSpid", value, sizeof(value)))
		return pid;
	last = strrchr(value, '\t');
	own = strtol(last ? last + 1 : value, NULL, 10);
	return own > 0 ? own : pid;
}

/*
 * Looking for a process's endpoint, /tmp/fntrace-UID/PID as it named it
 * when it bound it.  Since then it may have changed its user (setuid:
 * its /proc files are root's once it is no longer dumpable) or its root
 * (chroot, pivot_root: the socket stays in the root it had).  So every
 * place it may be is tried, the likeliest first: in the process's root
 * (a container's /tmp) and in ours, in the directory of the process's
 * owner and of our user, and, for root, of every user; last, its abstract
 * name, where it could make none of those files.  The process at
 * the other end must be pid itself (SO_PEERCRED): the same name in
 * another root may be another process's.
 */
struct search {
	pid_t pid;
	long own_pid;		/* the endpoint's name */
	int fd;			/* connected to pid; -1 until found */
	int denied, timed_out;
};

static int peer_is(int fd, pid_t pid)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 && cred.pid == pid;
}

static void try_address(struct search *s, const struct sockaddr_un *addr, socklen_t len)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), err;

	if (fd < 0)
		return;
	set_timeouts(fd);
	if (connect(fd, (const struct sockaddr *)addr, len) == 0 && peer_is(fd, s->pid)) {
		s->fd = fd;
		return;
	}
	err = errno;
	s->denied |= err == EACCES || err == EPERM;
	s->timed_out |= timed_out(err);
	close(fd);
}

static void try_endpoint(struct search *s, const char *root, unsigned uid)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };

	if (s->fd >= 0 || (size_t)snprintf(addr.sun_path, sizeof(addr.sun_path),
					   "%s/tmp/fntrace-%u/%ld", root, uid, s->own_pid) >=
			      sizeof(addr.sun_path))
		return;
	try_address(s, &addr, sizeof(addr));
}

/* name: an abstract one, without its leading NUL. */
static void try_abstract_name(struct search *s, const char *name)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	size_t n = strlen(name);

	if (n + 1 > sizeof(addr.sun_path))
		return;
	memcpy(addr.sun_path + 1, name, n);
	try_address(s, &addr, offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

/* A process that could make no directory for its endpoint (attached in
 * a chroot without /tmp) listens on "@fntrace-UID/PID", its owner's UID
 * whatever it is: those names of pid's are in /proc/net/unix. */
static void try_abstract(struct search *s)
{
	FILE *f = fopen("/proc/net/unix", "re");
	char line[512], tail[32];
	size_t tail_len = snprintf(tail, sizeof(tail), "/%ld", s->own_pid);

	while (f && s->fd < 0 && fgets(line, sizeof(line), f)) {
		char *name = strstr(line, " @fntrace-");
		size_t n;

		if (!name)
			continue;
		name += 2;
		n = strcspn(name, "\n");
		name[n] = '\0';
		if (n > tail_len && !strcmp(name + n - tail_len, tail))
			try_abstract_name(s, name);
	}
	if (f)
		fclose(f);
}

/* Root may enter every user's directory: each is tried. */
static void try_every_user(struct search *s, const char *root)
{
	char tmp[64];
	struct dirent *e;
	DIR *d;

	snprintf(tmp, sizeof(tmp), "%s/tmp", root);
	if (!(d = opendir(tmp)))
		return;
	while (s->fd < 0 && (e = readdir(d))) {
		char *end;
		unsigned long uid;

		if (strncmp(e->d_name, "fntrace-", 8) || !isdigit((unsigned char)e->d_name[8]))
			continue;
		uid = strtoul(e->d_name + 8, &end, 10);
		if (!*end && uid <= UINT_MAX)
			try_endpoint(s, root, (unsigned)uid);
	}
	closedir(d);
}

static void search_in(struct search *s, const char *root, unsigned owner)
{
	try_endpoint(s, root, owner);
	if (geteuid() != owner)
		try_endpoint(s, root, geteuid());
	if (geteuid() == 0)
		try_every_user(s, root);
}

/* Connected to pid's endpoint (s->fd), or why not (s->denied...). */
static void search_endpoint(struct search *s, unsigned owner)
{
	char root[64];

	s->own_pid = ctl_own_pid(s->pid);
	s->fd = -1;
	attach_root(s->pid, root, sizeof(root));
	search_in(s, root, owner);
	if (root[0])
		search_in(s, "", owner);
	try_abstract(s);
}

int ctl_endpoint_exists(pid_t pid)
{
	struct search s = { .pid = pid };
	char proc[32];
	struct stat st;

	snprintf(proc, sizeof(proc), "/proc/%d", (int)pid);
	if (stat(proc, &st))
		return 0;
	search_endpoint(&s, (unsigned)st.st_uid);
	if (s.fd < 0)
		return 0;
	close(s.fd);
	return 1;
}

/* A process found with no endpoint, or that broke off an answer, may
 * be dying: its descriptors close before it is a zombie.  How long to
 * wait for that before taking it for one that lives on. */
#define ENDING_GRACE_MS 200

static int connect_to(pid_t pid)
{
	struct search s = { .pid = pid };
	char proc[32];
	struct stat st;

	snprintf(proc, sizeof(proc), "/proc/%d", (int)pid);
	if (pid <= 0 || stat(proc, &st)) {
		cli_error("no process %d", (int)pid);
		return -1;
	}
	search_endpoint(&s, (unsigned)st.st_uid);
	if (s.fd >= 0)
		return s.fd;
	if (s.timed_out)
		say_no_answer(pid, 0);
	else if (s.denied)
		cli_error("not allowed to control process %d", (int)pid);
	else if (cli_process_ending(pid, ENDING_GRACE_MS))
		cli_error("process %d has ended", (int)pid);
	else
		cli_error("process %d has no fntrace control endpoint (start it with "
			  "'fntrace run', or use 'fntrace attach %d')", (int)pid, (int)pid);
	return -1;
}

static int send_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = send(fd, data, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		data += n;
		len -= n;
	}
	return 0;
}

/* The first bytes of the answer, and an fd if one comes with them. */
static ssize_t recv_first(struct ctl_conn *c, int *fd)
{
	char control[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { c->buf, sizeof(c->buf) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = control, .msg_controllen = sizeof(control) };
	struct cmsghdr *cm;
	ssize_t n;

	do
		n = recvmsg(c->fd, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && (errno == EINTR || wait_on_busy(c)));
	cm = n > 0 ? CMSG_FIRSTHDR(&msg) : NULL;
	if (fd && cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS)
		memcpy(fd, CMSG_DATA(cm), sizeof(int));
	return n;
}

static int fill(struct ctl_conn *c)
{
	ssize_t n;

	if (c->pos < c->len)
		return 1;
	do
		n = read(c->fd, c->buf, sizeof(c->buf));
	while (n < 0 && ((errno == EINTR && !cli_interrupted()) || wait_on_busy(c)));
	if (n < 0)
		c->err = errno;
	c->pos = 0;
	c->len = n > 0 ? n : 0;
	return n > 0;
}

int ctl_read_line(struct ctl_conn *c, char *line, size_t max)
{
	size_t n = 0;

	while (fill(c)) {
		char ch = c->buf[c->pos++];

		if (ch == '\n') {
			line[n] = '\0';
			return 0;
		}
		if (n + 1 < max)
			line[n++] = ch;
	}
	return -1;
}

int ctl_read_exact(struct ctl_conn *c, void *dst, size_t n)
{
	char *p = dst;

	while (n) {
		size_t k;

		if (!fill(c))
			return -1;
		k = c->len - c->pos < n ? c->len - c->pos : n;
		memcpy(p, c->buf + c->pos, k);
		c->pos += k;
		p += k;
		n -= k;
	}
	return 0;
}

ssize_t ctl_read_some(struct ctl_conn *c, void *dst, size_t max)
{
	size_t k;

	if (!fill(c))
		return -1;
	k = c->len - c->pos < max ? c->len - c->pos : max;
	memcpy(dst, c->buf + c->pos, k);
	c->pos += k;
	return k;
}

int ctl_wait(struct ctl_conn *c, int timeout_ms)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	int n;

	if (c->pos < c->len)
		return 1;
	n = poll(&p, 1, timeout_ms);
	if (n < 0)
		return errno == EINTR && !cli_interrupted() ? 0 : -1;
	return n > 0 ? 1 : 0;
}

/* "ok" (CLI_EXIT_OK), or "error ERRNO MESSAGE" said in one line. */
static int read_status(struct ctl_conn *c, const char *file, pid_t pid)
{
	char line[512];
	int err = 0, used = 0;

	if (ctl_read_line(c, line, sizeof(line))) {
		ctl_say_broken(c, file);
		return CLI_EXIT_FAILED;
	}
	if (!strcmp(line, "ok"))
		return CLI_EXIT_OK;
	if (sscanf(line, "error %d %n", &err, &used) == 1)
		cli_error("%s: %s", file, line + used);
	else
		cli_error("%s: malformed answer from process %d", file, (int)pid);
	return CLI_EXIT_FAILED;
}

struct ctl_conn *ctl_request(pid_t pid, const char *op, const char *file,
			     const char *value, int *fd, int *status)
{
	struct ctl_conn *c = calloc(1, sizeof(*c));
	char head[512];
	ssize_t n;

	if (fd)
		*fd = -1;
	*status = CLI_EXIT_FAILED;
	if (!c || (c->fd = connect_to(pid)) < 0) {
		free(c);
		return NULL;
	}
	c->pid = pid;
	snprintf(head, sizeof(head), "%s %s\n", op, file);
	if (send_all(c->fd, head, strlen(head)) ||
	    (value && send_all(c->fd, value, strlen(value))) || shutdown(c->fd, SHUT_WR) ||
	    (n = recv_first(c, fd)) < 0) {
		c->err = errno;
		ctl_say_broken(c, file);
		ctl_close(c);
		return NULL;
	}
	c->len = n;
	*status = read_status(c, file, pid);
	if (*status) {
		ctl_close(c);
		return NULL;
	}
	return c;
}

void ctl_say_broken(const struct ctl_conn *c, const char *file)
{
	if (timed_out(c->err))
		say_no_answer(c->pid, c->waited_ms);
	else if (cli_process_ending(c->pid, ENDING_GRACE_MS))
		cli_error("%s: process %d ended during the request", file, (int)c->pid);
	else if (c->err)
		cli_error("%s: process %d: %s", file, (int)c->pid, strerror(c->err));
	else
		cli_error("%s: process %d closed the connection", file, (int)c->pid);
}

void ctl_close(struct ctl_conn *c)
{
	if (!c)
		return;
	close(c->fd);
	free(c);
}

int ctl_has_call_sites(pid_t pid)
{
	static const char file[] = "available_filter_functions";
	int status, ret;
	char line[256];
	struct ctl_conn *c = ctl_request(pid, "read", file, NULL, NULL, &status);

	if (!c)
		return -1;
	/* The first line is enough: the rest of the list is left unread. */
	ret = ctl_read_line(c, line, sizeof(line)) == 0;
	if (!ret && c->err) {
		ctl_say_broken(c, file);
		ret = -1;
	}
	ctl_close(c);
	return ret;
}

int ctl_set(pid_t pid, const char *file, const char *value)
{
	int status;
	struct ctl_conn *c = ctl_request(pid, "write", file, value, NULL, &status);

	ctl_close(c);
	return c ? 0 : status;
}
