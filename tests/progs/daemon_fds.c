// SPDX-License-Identifier: GPL-2.0
/*
 * A service's start, as fntrace must survive it: every descriptor it did
 * not open closed or covered, as MODE says, then some work.  The steps
 * are paced by files in DIR, so that a test can attach before the closing
 * and send requests after it:
 *
 *   "waiting"             until DIR/close exists
 *   closes, as MODE says  "first open N": what open() gives it now
 *   "closed"              until DIR/go exists
 *   leaf() LEAF_CALLS times; listen: takes CLIENTS connections, each
 *   answered; cloexec: execs itself (MODE exec), which calls leaf() again
 *
 * MODE: loop (close() 3..1023, /dev/null dup2'ed over 3..19), range
 * (close_range), cloexec (close_range with CLOSE_RANGE_CLOEXEC, then
 * exec), closefrom, dup2 (/dev/null dup2'ed and dup3'ed over 3..19 and
 * every number it did not open), listen (its listening socket dup2'ed onto
 * the first number it did not open that is a socket: the control
 * endpoint's), raw (the same after the raw system call close_range,
 * which no wrapper sees), limit (RLIMIT_NOFILE lowered to 64,
 * every descriptor taken until EMFILE), stderr (a file DIR/data dup2'ed
 * over descriptor 2), race (a thread closes everything in a loop until
 * DIR/go).
 *
 * Usage: daemon_fds MODE DIR  |  daemon_fds client SOCKET
 * Its pid goes to DIR/pid; it exits with status 7.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#define LEAF_CALLS 1000
#define CLIENTS 5
#define MAX_FOREIGN 64

static const char *dir;
static int foreign[MAX_FOREIGN], nr_foreign, foreign_socket = -1;
static volatile int sink;

__attribute__((noinline)) void leaf(int i)
{
	sink += i;
	__asm__ volatile("" ::: "memory");
}

static void path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static void say(const char *line)
{
	printf("%s\n", line);
	fflush(stdout);
}

static void wait_for(const char *name)
{
	char path[4096];

	path_of(path, sizeof(path), name);
	while (access(path, F_OK))
		usleep(10 * 1000);
}

/* The descriptors from 3 up that it did not open: the runtime's, if any. */
static void find_foreign(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		int fd = atoi(e->d_name);

		struct stat st;

		if (fd < 3 || fd == dirfd(d) || nr_foreign == MAX_FOREIGN)
			continue;
		foreign[nr_foreign++] = fd;
		if (foreign_socket < 0 && !fstat(fd, &st) && S_ISSOCK(st.st_mode))
			foreign_socket = fd;
	}
	if (d)
		closedir(d);
}

static void first_open(void)
{
	int fd = open("/dev/null", O_RDONLY);

	printf("first open %d\n", fd);
	close(fd);
}

static void cover_low(int with)
{
	for (int fd = 3; fd < 20; fd++)
		if (fd != with)
			dup2(with, fd);
}

static void close_loop(void)
{
	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	cover_low(open("/dev/null", O_RDONLY));
	for (int fd = 3; fd < 20; fd++)
		close(fd);
}

static void cover_foreign(void)
{
	int null = open("/dev/null", O_RDONLY);

	cover_low(null);
	for (int i = 0; i < nr_foreign; i++)
		dup2(null, foreign[i]);
	for (int i = 0; i < nr_foreign; i++)
		dup3(null, foreign[i], O_CLOEXEC);
	for (int i = 0; i < nr_foreign; i++)
		fcntl(null, F_DUPFD, foreign[i]);
	close_range(3, ~0U, 0);
}

static int listen_socket(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	path_of(addr.sun_path, sizeof(addr.sun_path), "sock");
	unlink(addr.sun_path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) || listen(fd, CLIENTS)) {
		perror("listen");
		exit(1);
	}
	/* Where the runtime's socket was, if the program may go there. */
	if (foreign_socket >= 0 && dup2(fd, foreign_socket) == foreign_socket) {
		close(fd);
		fd = foreign_socket;
	}
	return fd;
}

static void serve_clients(int fd)
{
	int served = 0;

	for (int i = 0; i < CLIENTS; i++) {
		int c = accept(fd, NULL, NULL);
		char byte;

		if (c >= 0 && read(c, &byte, 1) == 1 && write(c, "y", 1) == 1)
			served++;
		close(c);
	}
	printf("served %d\n", served);
}

static int client(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	char byte = 0;

	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    write(fd, "x", 1) != 1 || read(fd, &byte, 1) != 1)
		return 1;
	return byte == 'y' ? 0 : 1;
}

/* Every descriptor it may have, taken: how many. */
static int fill_limit(void)
{
	struct rlimit lim;
	int n = 0;

	getrlimit(RLIMIT_NOFILE, &lim);
	lim.rlim_cur = 64;
	if (setrlimit(RLIMIT_NOFILE, &lim))
		perror("setrlimit");
	while (open("/dev/null", O_RDONLY) >= 0)
		n++;
	printf("opened %d, then %s\n", n, strerror(errno));
	return n;
}

static void to_data_file(void)
{
	char path[4096];
	int fd;

	path_of(path, sizeof(path), "data");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 2);
	close(fd);
	dprintf(2, "the program's own line\n");
}

static volatile int racing = 1;

static void *closer(void *arg)
{
	while (racing) {
		int fd = open("/dev/null", O_RDONLY);

		cover_low(fd);
		close_range(3, ~0U, 0);
		closefrom(3);
	}
	return NULL;
}

static void close_as(const char *mode, pthread_t *racer)
{
	if (!strcmp(mode, "loop"))
		close_loop();
	else if (!strcmp(mode, "range"))
		close_range(3, ~0U, 0);
	else if (!strcmp(mode, "cloexec"))
		close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	else if (!strcmp(mode, "closefrom"))
		closefrom(3);
	else if (!strcmp(mode, "dup2"))
		cover_foreign();
	else if (!strcmp(mode, "stderr"))
		to_data_file();
	else if (!strcmp(mode, "race"))
		pthread_create(racer, NULL, closer, NULL);
	if (strcmp(mode, "race"))
		first_open();
}

static void work(void)
{
	for (int i = 0; i < LEAF_CALLS; i++)
		leaf(i);
}

/* The image exec'd by cloexec: what survived close-on-exec. */
static int after_exec(void)
{
	first_open();
	work();
	say("exec'd image done");
	return 7;
}

int main(int argc, char **argv)
{
	char path[4096];
	pthread_t racer;
	int listening = -1;
	FILE *pid;

	if (argc == 3 && !strcmp(argv[1], "client"))
		return client(argv[2]);
	if (argc != 3)
		return 2;
	dir = argv[2];
	if (!strcmp(argv[1], "exec"))
		return after_exec();
	alarm(30);
	find_foreign();
	path_of(path, sizeof(path), "pid");
	pid = fopen(path, "w");
	fprintf(pid, "%d\n", (int)getpid());
	fclose(pid);
	say("waiting");
	wait_for("close");
	close_as(argv[1], &racer);
	if (!strcmp(argv[1], "listen") || !strcmp(argv[1], "limit"))
		close_range(3, ~0U, 0);
	if (!strcmp(argv[1], "raw"))
		syscall(SYS_close_range, 3, ~0U, 0);
	if (!strcmp(argv[1], "listen") || !strcmp(argv[1], "raw"))
		listening = listen_socket();
	if (!strcmp(argv[1], "limit"))
		fill_limit();
	say("closed");
	wait_for("go");
	racing = 0;
	if (!strcmp(argv[1], "race"))
		pthread_join(racer, NULL);
	work();
	if (listening >= 0)
		serve_clients(listening);
	say("done");
	if (!strcmp(argv[1], "cloexec")) {
		execl("/proc/self/exe", argv[0], "exec", dir, (char *)NULL);
		return 3;
	}
	return 7;
}
