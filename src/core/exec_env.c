// SPDX-License-Identifier: GPL-2.0
/*
 * The environment an exec'd image gets: its sanitizer's runtime first in
 * LD_PRELOAD, as the program fntrace started got it (src/common/sanitizer.h).
 *
 * LD_PRELOAD reaches every image the program execs, and each needs its
 * own list: a program built with -fsanitize=address refuses to start
 * unless libasan comes first, and any other program must not get libasan
 * (it would run under ASan, and LeakSanitizer would judge its exit).  So
 * the environment the program sees holds the list of an image that needs
 * no sanitizer: at start-up the entry put first for this image alone
 * (named by SAN_ADDED_ENV) is taken out of it.  Every exec the runtime
 * wraps (the execve family here through unwind.c, posix_spawn and
 * posix_spawnp below) reads the image it starts and, if that image names a
 * sanitizer runtime its LD_PRELOAD lacks, passes a copy of the environment
 * with the runtime first and marked so.  system() and popen() start
 * /bin/sh, whose own exec is wrapped.  An exec the runtime does not see (a
 * raw system call, fexecve) gets the environment as it is.
 *
 * The wrappers may run in a vfork() child, on its parent's stack and
 * heap: the copy is built on the stack, the image read with pread().
 */
#include "exec_env.h"
#include "ftrace.h"
#include "own_work.h"
#include "../common/sanitizer.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_ENV 8192		/* entries copied at most: 64 KB of stack */

static char own_path[PATH_MAX];	/* libfntrace.so as LD_PRELOAD names it */

/*
 * A sanitizer runs its external symbolizer (llvm-symbolizer, addr2line: a
 * clang-built program's reports are symbolized so) with raw fork and exec
 * system calls that no wrapper sees, in the program's environment, every
 * descriptor past stderr closed: the runtime came along, could not reach
 * the recorder, and said so in the middle of the report.  It stays out of
 * them: they are never built for tracing.
 */
int ft_exec_env_stays_out(void)
{
	static const char *const helpers[] = { "llvm-symbolizer", "addr2line" };
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *name;

	if (n <= 0)
		return 0;
	exe[n] = '\0';
	name = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
	for (unsigned i = 0; i < sizeof(helpers) / sizeof(helpers[0]); i++)
		if (!strncmp(name, helpers[i], strlen(helpers[i])))
			return 1;
	return 0;
}

/* The entry added for this image alone, out of the environment its
 * children inherit.  At start-up, before the program runs. */
void ft_exec_env_start(void)
{
	const char *added = getenv(SAN_ADDED_ENV), *preload = getenv("LD_PRELOAD");
	size_t len = preload ? strlen(preload) + 1 : 0;
	char *rest = added && preload ? malloc(len) : NULL;
	Dl_info info;

	if (dladdr((void *)ft_exec_env_start, &info) && info.dli_fname)
		snprintf(own_path, sizeof(own_path), "%s", info.dli_fname);
	if (rest && san_preload_drop(rest, len, preload, added) == 0)
		setenv("LD_PRELOAD", rest, 1);
	free(rest);
	if (added)
		unsetenv(SAN_ADDED_ENV);
}

/* Is the environment entry NAME=...? */
static int starts_with_var(const char *entry, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(entry, name, n) && entry[n] == '=';
}

static const char *env_get(char *const envp[], const char *name)
{
	for (size_t i = 0; envp && envp[i]; i++)
		if (starts_with_var(envp[i], name))
			return envp[i] + strlen(name) + 1;
	return NULL;
}

static int executable_file(const char *path)
{
	struct stat st;

	return access(path, X_OK) == 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The file an exec of file runs: file itself, or (search) the first
 * executable one of that name in PATH's directories, as execvp() looks. */
static int image_of(const char *file, int search, char *out, size_t len)
{
	const char *dirs = getenv("PATH");

	if (!search || strchr(file, '/'))
		return snprintf(out, len, "%s", file) < (int)len ? 0 : -1;
	for (dirs = dirs ? dirs : "/bin:/usr/bin"; *dirs; dirs += *dirs == ':') {
		size_t n = strcspn(dirs, ":");

		if (snprintf(out, len, "%.*s%s%s", (int)n, dirs, n ? "/" : "", file) < (int)len &&
		    executable_file(out))
			return 0;
		dirs += n;
	}
	return -1;
}

/* envp (n entries) with LD_PRELOAD and the mark replaced, handed to go. */
static int with_runtime_first(char *const envp[], size_t n, const char *preload,
			      const char *san, ft_exec_fn go, void *call)
{
	const size_t name_len = sizeof("LD_PRELOAD=") - 1;
	size_t len = name_len + strlen(san) + 1 + strlen(preload) + 1, k = 0;
	char value[len], mark[sizeof(SAN_ADDED_ENV) + strlen(san) + 1], *env[n + 3];

	memcpy(value, "LD_PRELOAD=", name_len);
	if (san_preload(value + name_len, len - name_len, san, NULL, preload) != 1)
		return go(call, envp);
	snprintf(mark, sizeof(mark), "%s=%s", SAN_ADDED_ENV, san);
	for (size_t i = 0; i < n; i++)
		if (!starts_with_var(envp[i], "LD_PRELOAD") && !starts_with_var(envp[i], SAN_ADDED_ENV))
			env[k++] = envp[i];
	env[k++] = value;
	env[k++] = mark;
	env[k] = NULL;
	return go(call, env);
}

int ft_exec_with_env(const char *file, int search, char *const envp[], ft_exec_fn go,
		     void *call)
{
	const char *preload = env_get(envp, "LD_PRELOAD");
	char image[PATH_MAX], san[256];
	size_t n = 0;

	/* Only where the runtime goes along: an image the program starts
	 * without it gets what it would get without fntrace. */
	if (!file || !preload || !own_path[0] || !strstr(preload, own_path) ||
	    image_of(file, search, image, sizeof(image)) ||
	    san_runtime_needed(image, san, sizeof(san)) <= 0 || san_preload_has(preload, san))
		return go(call, envp);
	while (envp[n])
		n++;
	/* An environment too large to copy on the stack goes as it is. */
	return n <= MAX_ENV ? with_runtime_first(envp, n, preload, san, go, call) : go(call, envp);
}

/* ---- posix_spawn, posix_spawnp ---- */

typedef int (*spawn_fn)(pid_t *, const char *, const posix_spawn_file_actions_t *,
			const posix_spawnattr_t *, char *const[], char *const[]);

struct spawn_call {
	spawn_fn real;
	pid_t *pid;
	const char *file;
	const posix_spawn_file_actions_t *actions;
	const posix_spawnattr_t *attr;
	char *const *argv;
	uint64_t from;			/* the runtime's own work (the image
					 * read) from here */
};

static int spawn_with(void *arg, char *const envp[])
{
	struct spawn_call *c = arg;

	ft_own_share_end(c->from);
	return c->real(c->pid, c->file, c->actions, c->attr, c->argv, envp);
}

static int spawn(spawn_fn real, int search, pid_t *pid, const char *file,
		 const posix_spawn_file_actions_t *actions, const posix_spawnattr_t *attr,
		 char *const argv[], char *const envp[])
{
	struct spawn_call c = { real, pid, file, actions, attr, argv, ft_own_work_begin() };

	return real ? ft_exec_with_env(file, search, envp, spawn_with, &c) : ENOSYS;
}

FT_EXPORT int posix_spawn(pid_t *pid, const char *path,
			  const posix_spawn_file_actions_t *actions,
			  const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	REAL(spawn_fn, "posix_spawn");
	return spawn(real, 0, pid, path, actions, attr, argv, envp);
}

FT_EXPORT int posix_spawnp(pid_t *pid, const char *file,
			   const posix_spawn_file_actions_t *actions,
			   const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	REAL(spawn_fn, "posix_spawnp");
	return spawn(real, 1, pid, file, actions, attr, argv, envp);
}
