// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace cc: the commands it runs (the compiler, its probes) and what
 * they print, when fntrace cc needs to read it.
 */
#include "cc.h"
#include "../cli/cli.h"
#include "../common/array.h"
#include "../record/record.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int cmd_push(struct cmd *c, const char *s)
{
	if (grow_array((void **)&c->v, &c->cap, c->n + 2, sizeof(*c->v)))
		return -1;
	c->v[c->n++] = (char *)s;
	c->v[c->n] = NULL;
	return 0;
}

int cmd_append(struct cmd *c, const struct cmd *more)
{
	for (int i = 0; i < more->n; i++)
		if (cmd_push(c, more->v[i]))
			return -1;
	return 0;
}

int cc_start_cmd(struct cmd *c, const struct cmd *cc, const struct cmd *flags)
{
	memset(c, 0, sizeof(*c));
	return cmd_append(c, cc) || (flags && cmd_append(c, flags)) ? -1 : 0;
}

/* Run argv and wait: its exit status, 128 + the signal that killed it,
 * or -1 after one line if it could not be started. */
static int run(char **argv, posix_spawn_file_actions_t *fa)
{
	pid_t pid;
	int status, err = posix_spawnp(&pid, argv[0], fa, NULL, argv, environ);

	if (err) {
		cli_error("cannot run %s: %s", argv[0], strerror(err));
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			cli_error("cannot wait for %s: %s", argv[0], strerror(errno));
			return -1;
		}
	}
	return record_exit_code(status);
}

int cc_run(const struct cmd *c)
{
	int status = c->v ? run(c->v, NULL) : -1;

	return status < 0 ? CLI_EXIT_FAILED : status;
}

int cc_succeeds(const struct cmd *c)
{
	posix_spawn_file_actions_t fa;
	int status;

	if (!c->v)
		return 0;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	status = run(c->v, &fa);
	posix_spawn_file_actions_destroy(&fa);
	return status == 0;
}

/* Everything fd gives until its end, into a new NUL-ended string. */
static char *read_all(int fd)
{
	char *text = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;

	do {
		if (grow_array((void **)&text, &cap, len + 4096, 1)) {
			free(text);
			return NULL;
		}
		n = read(fd, text + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			n = 1;
		else if (n > 0)
			len += n;
	} while (n > 0);
	text[len] = '\0';
	return text;
}

/* The command started with fd into a pipe (the other stream thrown
 * away): its pid, or -1 after one line; *rd the pipe's reading end. */
static pid_t spawn_piped(const struct cmd *c, int fd, int *rd)
{
	posix_spawn_file_actions_t fa;
	pid_t pid = -1;
	int p[2], err;

	if (pipe2(p, O_CLOEXEC)) {
		cli_error("cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], fd);
	posix_spawn_file_actions_addopen(&fa, fd == STDOUT_FILENO ? STDERR_FILENO : STDOUT_FILENO,
					 "/dev/null", O_WRONLY, 0);
	err = posix_spawnp(&pid, c->v[0], &fa, NULL, c->v, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (err) {
		cli_error("cannot run %s: %s", c->v[0], strerror(err));
		close(p[0]);
		return -1;
	}
	*rd = p[0];
	return pid;
}

int cc_capture(const struct cmd *c, int fd, char **text)
{
	int rd, status;
	pid_t pid = c->v ? spawn_piped(c, fd, &rd) : -1;

	if (pid < 0)
		return -1;
	*text = read_all(rd);
	close(rd);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			cli_error("cannot wait for %s: %s", c->v[0], strerror(errno));
			status = -1;
			break;
		}
	}
	if (*text && status >= 0)
		return record_exit_code(status);
	if (!*text)
		cli_error("cc: out of memory");
	free(*text);
	*text = NULL;
	return -1;
}
