// SPDX-License-Identifier: GPL-2.0
/*
 * Small helpers shared by the subcommands.
 */
#include "cli.h"
#include "../common/filter.h"
#include "../common/print.h"
#include "../common/trigger.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *cli_find_program(const char *name)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? strdup(name) : NULL;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)len,
			 len ? path : ".", name);
		if (access(buf, X_OK) == 0)
			return strdup(buf);
		path += len + (path[len] == ':');
	}
	return NULL;
}

int cli_proc_status(pid_t pid, pid_t tid, const char *key, char *value, size_t len)
{
	char path[64], line[512];
	size_t klen = strlen(key);
	int found = -1;
	FILE *f;

	if (tid)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, (int)tid);
	else
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	while (f && found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) || line[klen] != ':')
			continue;
		snprintf(value, len, "%s", line + klen + 1 + strspn(line + klen + 1, " \t"));
		value[strcspn(value, "\n")] = '\0';
		found = 0;
	}
	if (f)
		fclose(f);
	return found;
}

int cli_process_gone(pid_t pid)
{
	char state[32];

	if (kill(pid, 0) && errno == ESRCH)
		return 1;
	/* X: being reaped (its parent has waited, its pid not yet freed). */
	if (cli_proc_status(pid, 0, "State", state, sizeof(state)) == 0)
		return state[0] == 'Z' || state[0] == 'X';
	/* Reaped between the two looks: a zombie a moment ago, and /proc
	 * has it no more.  (Either taken for alive, a crash's last snapshot
	 * said the recording stopped, one in a hundred.) */
	return kill(pid, 0) && errno == ESRCH;
}

int cli_process_ending(pid_t pid, unsigned grace_ms)
{
	for (unsigned waited = 0; waited < grace_ms; waited += 10) {
		if (cli_process_gone(pid))
			return 1;
		usleep(10 * 1000);
	}
	return cli_process_gone(pid);
}

int cli_parse_pid(const char *text, pid_t *pid)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v <= 0 || v > 1 << 30) {
		cli_usage_error("not a process id: '%s'", text);
		return -1;
	}
	*pid = v;
	return 0;
}

int cli_parse_seconds(const char *text, unsigned *seconds)
{
	char *end;
	unsigned long n = strtoul(text, &end, 10);

	if (*text < '0' || *text > '9' || *end || n < 1 || n > 3600) {
		cli_usage_error("--timeout wants whole seconds from 1 to 3600: '%s'", text);
		return -1;
	}
	*seconds = n;
	return 0;
}

int cli_parse_tid(const char *text, uint32_t *tid)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(text, &end, 10);
	if (errno || end == text || *end || v == 0 || v > UINT32_MAX || *text == '-') {
		cli_usage_error("a thread id is a positive number: '%s'", text);
		return -1;
	}
	*tid = v;
	return 0;
}

int cli_parse_thresh(const char *text, unsigned *us)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || *text < '0' || *text > '9' || *end || v > UINT_MAX) {
		cli_usage_error("--tracing-thresh wants microseconds from 0 to %u: '%s'",
				UINT_MAX, text);
		return -1;
	}
	*us = v;
	return 0;
}

int cli_parse_interval(const char *text)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(text, &end, 10);
	if (errno || *text < '0' || *text > '9' || *end || v > CLI_MAX_INTERVAL_MS) {
		cli_usage_error("--snapshot-interval wants milliseconds from 0 to %u: '%s'",
				CLI_MAX_INTERVAL_MS, text);
		return -1;
	}
	return 0;
}

int cli_size_value(const char *text, uint64_t *bytes)
{
	static const char units[] = "kMG";
	char *end;
	const char *unit;
	unsigned long long v;

	errno = 0;
	v = strtoull(text, &end, 10);
	unit = *end ? strchr(units, *end == 'K' ? 'k' : *end) : NULL;
	if (unit && !end[1])
		for (int i = 0; i <= unit - units && v <= UINT64_MAX / 1024; i++)
			v *= 1024;
	else if (*end)
		v = 0;
	if (errno || end == text || *text == '-' || v == 0 || v >= UINT64_MAX / 1024)
		return -1;
	*bytes = v;
	return 0;
}

int cli_parse_size(const char *text, uint64_t *bytes)
{
	if (cli_size_value(text, bytes) == 0)
		return 0;
	cli_usage_error("a size is a positive number of bytes, with k, M or G: '%s'", text);
	return -1;
}

int cli_append_line(char **list, const char *line)
{
	size_t old = *list ? strlen(*list) : 0;
	char *s = realloc(*list, old + strlen(line) + 2);

	if (!s)
		return -1;
	sprintf(s + old, "%s%s", old ? "\n" : "", line);
	*list = s;
	return 0;
}

int cli_add_trigger(char **list, const char *text)
{
	struct trigger_expr t;
	struct filter func = { 0 };
	char err[256];
	int bad;

	if (text[0] == '!')
		return cli_usage_error("--trigger sets a trigger, it removes none: '%s'", text);
	if (trigger_parse(&t, text, err, sizeof(err)))
		return cli_usage_error("bad trigger: %s", err);
	bad = filter_add(&func, t.func, err, sizeof(err));
	filter_free(&func);
	trigger_expr_free(&t);
	if (bad)
		return cli_usage_error("bad trigger: %s", err);
	if (cli_append_line(list, text)) {
		cli_error("out of memory");
		return CLI_EXIT_FAILED;
	}
	return 0;
}

int cli_set_env(const char *name, const char *value)
{
	return value && *value ? setenv(name, value, 1) : unsetenv(name);
}

const char *cli_self_dir(void)
{
	static char dir[PATH_MAX];
	ssize_t n;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n <= 0)
		return strcpy(dir, ".");
	dir[n] = '\0';
	*strrchr(dir, '/') = '\0';
	return dir;
}

int cli_make_temp_dir(char *dir, size_t size, const char *name)
{
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	int n = snprintf(dir, size, "%s/%s.XXXXXX", tmp, name);

	if (n < 0 || (size_t)n >= size || !mkdtemp(dir)) {
		cli_error("cannot make a temporary directory in %s: %s", tmp,
			  n < 0 || (size_t)n >= size ? "name too long" : strerror(errno));
		return -1;
	}
	return 0;
}

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	interrupted = 1;
}

void cli_catch_interrupt(void)
{
	struct sigaction sa = { .sa_handler = on_interrupt };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int cli_interrupted(void)
{
	return interrupted;
}

static sigset_t mask_before_hold;

/*
 * Caught from now on, but held back: one sent meanwhile (a shell's
 * background job has SIGINT ignored, which catching overrides) is not
 * lost, and comes when released.
 */
void cli_hold_interrupts(void)
{
	sigset_t both;

	cli_catch_interrupt();
	sigemptyset(&both);
	sigaddset(&both, SIGINT);
	sigaddset(&both, SIGTERM);
	sigprocmask(SIG_BLOCK, &both, &mask_before_hold);
}

void cli_release_interrupts(void)
{
	sigprocmask(SIG_SETMASK, &mask_before_hold, NULL);
}

/*
 * Interrupted, a reader ends at once: what stdio still holds for an
 * output that takes nothing now (a stopped pager, a full pipe) is
 * dropped rather than waited for at exit, and the write the signal cut
 * short is no error to report.
 */
void cli_drop_untaken_output(void)
{
	struct pollfd p = { .fd = fileno(stdout), .events = POLLOUT };

	if (ferror(stdout) || poll(&p, 1, 0) != 1 || !(p.revents & POLLOUT)) {
		__fpurge(stdout);
		clearerr(stdout);
	}
}

