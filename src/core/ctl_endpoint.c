// SPDX-License-Identifier: GPL-2.0
/*
 * Where the control endpoint listens: /tmp/fntrace-UID/PID, in a
 * directory only its owner may enter, where `fntrace ctl` looks (in the
 * process's root, and in ours: src/control/ctl_client.c).
 *
 * A process that can make no such directory (attached in a chroot that
 * has no /tmp, or on a root it may not write) listens instead on the
 * abstract name "@fntrace-UID/PID" (a Unix socket name no file holds,
 * seen in /proc/net/unix), where the client looks last.  Anyone may
 * connect to either; the owner rules are kept the same way for both, by
 * the peer's credentials (control.c's peer_allowed), and the client
 * takes only the process it asked for (SO_PEERCRED).
 */
#include "ctl_endpoint.h"
#include "fds.h"
#include "messages.h"
#include "own_work.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static char sock_path[108];	/* the socket's file, if it has one */

void ft_ctl_endpoint_remove(void)
{
	uint64_t from = ft_own_work_begin();

	if (sock_path[0]) {
		unlink(sock_path);
		ft_own_share_end(from);
	}
}

void ft_ctl_endpoint_forget(void)
{
	sock_path[0] = '\0';
}

/* /tmp/fntrace-UID, a directory only uid may enter; refuse one that is
 * not. */
static int socket_dir(char *dir, size_t len, uid_t uid)
{
	struct stat st;

	snprintf(dir, len, "/tmp/fntrace-%u", (unsigned)uid);
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -1;
	if (lstat(dir, &st) || !S_ISDIR(st.st_mode) || st.st_uid != uid ||
	    (st.st_mode & 0077)) {
		ft_warn("control: %s is not a private directory of ours", dir);
		return -1;
	}
	return 0;
}

/* Whether nobody listens on DIR/NAME any more. */
static int socket_is_dead(const char *dir, const char *name)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd, dead;

	if ((size_t)snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/%s", dir, name) >=
	    sizeof(addr.sun_path))
		return 0;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	dead = connect(fd, (struct sockaddr *)&addr, sizeof(addr)) && errno == ECONNREFUSED;
	close(fd);
	return dead;
}

/*
 * A process killed by SIGKILL cannot remove its socket.  Remove those of
 * processes that are gone: no such pid here, and nobody listening (which
 * spares a live process of another pid namespace sharing this /tmp).
 */
static void remove_stale_sockets(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 0 || !kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		if (socket_is_dead(dir, e->d_name))
			unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
}

static int open_lock(void *path)
{
	return open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
}

/*
 * The sweep above and each runtime's making of its socket go one at a
 * time, under an flock of DIR/.lock: pids are reused (32768 of them by
 * default), and a sweep that found pid P gone and its socket dead could
 * otherwise remove the socket a new process P had just made in between,
 * which then had no endpoint.  A holder that stops (SIGSTOP) is waited
 * for LOCK_WAIT_MS at most; then nothing is swept.
 */
#define LOCK_WAIT_MS 1000

static int lock_dir(const char *dir)
{
	char path[80];
	int fd;

	snprintf(path, sizeof(path), "%s/.lock", dir);
	fd = ft_fd_open(FT_FD_SOCKET_LOCK, open_lock, path, NULL);
	for (int waited = 0; fd >= 0 && waited < LOCK_WAIT_MS; waited += 10) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK)
			break;
		usleep(10 * 1000);
	}
	ft_fd_release(FT_FD_SOCKET_LOCK);
	return -1;
}

static void unlock_dir(void)
{
	ft_fd_release(FT_FD_SOCKET_LOCK);	/* the lock goes with it */
}

static int new_socket(void *unused)
{
	return socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
}

/* Listening in uid's directory, the socket taken into its slot; -1
 * (errno set) if it cannot. */
static int open_socket_as(uid_t uid)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char dir[64];
	int fd, err, locked;

	if (socket_dir(dir, sizeof(dir), uid))
		return -1;
	locked = lock_dir(dir) == 0;
	if (locked)
		remove_stale_sockets(dir);
	snprintf(sock_path, sizeof(sock_path), "%s/%d", dir, (int)getpid());
	strcpy(addr.sun_path, sock_path);
	unlink(sock_path);
	fd = ft_fd_open(FT_FD_CONTROL, new_socket, NULL, NULL);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0 &&
	    chmod(sock_path, 0600) == 0 && listen(fd, FT_CTL_BACKLOG) == 0) {
		if (locked)
			unlock_dir();
		return fd;
	}
	err = errno;
	if (locked)
		unlock_dir();
	ft_fd_release(FT_FD_CONTROL);
	errno = err;
	return -1;
}

/* Listening on the abstract name "@fntrace-OWNER/PID". */
static int open_abstract(uid_t owner)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int n = snprintf(addr.sun_path + 1, sizeof(addr.sun_path) - 1, "fntrace-%u/%d",
			 (unsigned)owner, (int)getpid());
	socklen_t len = offsetof(struct sockaddr_un, sun_path) + 1 + n;
	int fd = ft_fd_open(FT_FD_CONTROL, new_socket, NULL, NULL), err;

	if (fd >= 0 && bind(fd, (struct sockaddr *)&addr, len) == 0 && listen(fd, FT_CTL_BACKLOG) == 0)
		return fd;
	err = errno;
	ft_fd_release(FT_FD_CONTROL);
	errno = err;
	return -1;
}

/*
 * In the owner's directory, where fntrace ctl looks first.  A child
 * forked after its program gave up the owner's user may not write there:
 * its own user's directory then, where root finds it.  Where neither
 * directory can be made, the abstract name.
 */
int ft_ctl_endpoint_open(uid_t owner)
{
	int fd;

	sock_path[0] = '\0';
	fd = open_socket_as(owner);
	if (fd < 0 && geteuid() != owner)
		fd = open_socket_as(geteuid());
	if (fd < 0 && !sock_path[0])
		fd = open_abstract(owner);
	if (fd >= 0)
		return fd;
	if (sock_path[0])
		ft_warn("control: cannot listen on %s: %s", sock_path, strerror(errno));
	else
		ft_warn("control: cannot listen on @fntrace-%u/%d: %s", (unsigned)owner,
			(int)getpid(), strerror(errno));
	sock_path[0] = '\0';
	return -1;
}
