// SPDX-License-Identifier: GPL-2.0
/*
 * A process that changed its root after it started (chroot, pivot_root)
 * and was attached since can no longer open the files it runs by their
 * paths: its program, its libraries, /proc/self/exe are outside its root.
 * fntrace attach then loads the runtime from a staging directory in the
 * process's root (src/attach/attach_stage.c), and puts beside it what
 * the runtime must read:
 *
 *   DIR/libfntrace.so   the runtime, as dlopen()ed
 *   DIR/files/PATH      a copy of each mapped file the process cannot
 *                       open at PATH (or would find another file there)
 *   DIR/exe             a symbolic link to files/PATH, PATH the program's
 *
 * The directory goes once the load is over: the runtime reads every
 * module meanwhile, and keeps the files of those it defers mapped.
 */
#include "staged.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The staging directory the runtime was loaded from, or "". */
static const char *stage_dir(void)
{
	static char dir[256];
	static int looked;
	Dl_info info;
	const char *slash, *name;

	if (looked++)
		return dir;
	if (!dladdr((void *)stage_dir, &info) || !info.dli_fname ||
	    !(slash = strrchr(info.dli_fname, '/')) || strcmp(slash, "/libfntrace.so"))
		return dir;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - info.dli_fname), info.dli_fname);
	name = strrchr(dir, '/');
	name = name ? name + 1 : dir;
	if (strncmp(name, "fntrace-attach-", 15) && strncmp(name, ".fntrace-attach-", 16))
		dir[0] = '\0';
	return dir;
}

const char *ft_staged_path(const char *path, char *buf, size_t len)
{
	const char *dir = stage_dir();

	if (!dir[0] || path[0] != '/' ||
	    (size_t)snprintf(buf, len, "%s/files%s", dir, path) >= len || access(buf, R_OK))
		return path;
	return buf;
}

int ft_staged_program(char *buf, size_t len)
{
	const char *dir = stage_dir();
	char link[300], target[4096];
	ssize_t n;

	if (!dir[0])
		return -1;
	snprintf(link, sizeof(link), "%s/exe", dir);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 5 || strncmp(target, "files/", 6))
		return -1;
	target[n] = '\0';
	snprintf(buf, len, "%s", target + 5);
	return 0;
}
