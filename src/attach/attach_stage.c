// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime where a process in another tree of files (attach_root.c)
 * can dlopen() it: a staging directory of ours in its root, in its /tmp
 * or, where it has none (a bare chroot), at its top, removed once the
 * load is over (the mappings keep what they map).
 *
 * A process that changed its root after it started runs files it can no
 * longer open by their paths, and the runtime reads each module's file
 * for its call sites.  So each mapped file of code the process would not
 * find at its path (nothing there, or another file) is copied beside the
 * runtime, DIR/files/PATH, and DIR/exe links to the program's copy path
 * (src/core/staged.c reads them).
 */
#include "attach.h"
#include "../cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out, ret = 0;
	ssize_t n;

	out = in < 0 ? -1 : open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	while (out >= 0 && !ret && (n = read(in, buf, sizeof(buf))) > 0)
		ret = write(out, buf, n) != n;
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out))
		ret = 1;
	return in < 0 || out < 0 || ret ? -1 : 0;
}

/* Inside the process's root, its own /tmp, or its top where it has no
 * /tmp: a directory of ours. */
static void staging_dir(const char *root, char *buf, size_t len)
{
	char tmp[80];
	struct stat st;

	snprintf(tmp, sizeof(tmp), "%s/tmp", root);
	if (stat(tmp, &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(buf, len, "%s/fntrace-attach-%d", tmp, (int)getpid());
	else
		snprintf(buf, len, "%s/.fntrace-attach-%d", root, (int)getpid());
}

/* Would the process, opening path, find the file we find there? */
static int visible_inside(const char *root, const char *path)
{
	char inside[PATH_MAX];
	struct stat ours, theirs;

	snprintf(inside, sizeof(inside), "%s%s", root, path);
	return stat(path, &ours) == 0 && stat(inside, &theirs) == 0 &&
	       ours.st_dev == theirs.st_dev && ours.st_ino == theirs.st_ino;
}

/* to's directories made, then from copied there. */
static int copy_with_dirs(const char *from, char *to)
{
	for (char *slash = strchr(to + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(to, 0755) && errno != EEXIST) {
			*slash = '/';
			return -1;
		}
		*slash = '/';
	}
	return copy_file(from, to);
}

/* The mapped files of code that the process cannot open at their paths.
 * Each appears in maps once per mapping: a copy that exists is skipped. */
static int stage_mapped_files(pid_t pid, const char *root, const char *dir)
{
	char maps[64], line[PATH_MAX + 128], copy[PATH_MAX];
	FILE *f;
	int ret = 0;

	snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)pid);
	if (!(f = fopen(maps, "re")))
		return -1;
	while (!ret && fgets(line, sizeof(line), f)) {
		char perms[8], *path = strchr(line, '/');

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%*s %7s", perms) != 1 || !strchr(perms, 'x') || !path ||
		    strstr(path, " (deleted)") || visible_inside(root, path))
			continue;
		snprintf(copy, sizeof(copy), "%s/files%s", dir, path);
		if (access(copy, F_OK))
			ret = copy_with_dirs(path, copy);
	}
	fclose(f);
	return ret;
}

static int link_program(pid_t pid, const char *dir)
{
	char exe[64], target[PATH_MAX], rel[PATH_MAX + 8], link[PATH_MAX];
	ssize_t n;

	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)pid);
	if ((n = readlink(exe, target, sizeof(target) - 1)) <= 0)
		return -1;
	target[n] = '\0';
	snprintf(rel, sizeof(rel), "files%s", target);
	snprintf(link, sizeof(link), "%s/exe", dir);
	return symlink(rel, link);
}

/* The runtime and, for a process that cannot open its own files, those
 * the runtime reads. */
static int stage_all(pid_t pid, const char *lib, const char *root, const char *dir)
{
	char copy[PATH_MAX];

	snprintf(copy, sizeof(copy), "%s/libfntrace.so", dir);
	if ((mkdir(dir, 0755) && errno != EEXIST) || copy_file(lib, copy))
		return -1;
	return stage_mapped_files(pid, root, dir) || link_program(pid, dir) ? -1 : 0;
}

int attach_stage_runtime(pid_t pid, const char *lib, char *inside, size_t len)
{
	char root[64], dir[128];

	attach_root(pid, root, sizeof(root));
	if (!root[0]) {
		snprintf(inside, len, "%s", lib);
		return 0;
	}
	staging_dir(root, dir, sizeof(dir));
	if (stage_all(pid, lib, root, dir)) {
		cli_error("process %d: cannot put the runtime in its root (%s): %s", (int)pid, dir,
			  strerror(errno));
		attach_unstage_runtime(pid);
		return -1;
	}
	snprintf(inside, len, "%s/libfntrace.so", dir + strlen(root));
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

void attach_unstage_runtime(pid_t pid)
{
	char root[64], dir[128];

	attach_root(pid, root, sizeof(root));
	if (!root[0])
		return;
	staging_dir(root, dir, sizeof(dir));
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}
