// SPDX-License-Identifier: GPL-2.0
/*
 * A process in a container or a chroot sees another root: the paths in
 * its /proc/PID/maps are its own, and the runtime it dlopen()s must be
 * a file inside it.  We reach its files through /proc/PID/root, and put
 * a copy of the runtime in its /tmp for the moment of the dlopen: once
 * mapped, the copy is removed (the mapping keeps it).
 */
#include "attach.h"
#include "../cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void attach_root(pid_t pid, char *buf, size_t len)
{
	char target[8];
	ssize_t n;

	snprintf(buf, len, "/proc/%d/root", (int)pid);
	n = readlink(buf, target, sizeof(target));
	if (n == 1 && target[0] == '/')
		buf[0] = '\0';
}

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

/* Inside the process's root, its own /tmp: a directory of ours. */
static void staging_dir(const char *root, char *buf, size_t len)
{
	snprintf(buf, len, "%s/tmp/fntrace-attach-%d", root, (int)getpid());
}

int attach_stage_runtime(pid_t pid, const char *lib, char *inside, size_t len)
{
	char root[64], dir[128], copy[256];

	attach_root(pid, root, sizeof(root));
	if (!root[0]) {
		snprintf(inside, len, "%s", lib);
		return 0;
	}
	staging_dir(root, dir, sizeof(dir));
	snprintf(copy, sizeof(copy), "%s/libfntrace.so", dir);
	if ((mkdir(dir, 0755) && errno != EEXIST) || copy_file(lib, copy)) {
		cli_error("process %d: cannot put the runtime in its root (%s): %s", (int)pid,
			  copy, strerror(errno));
		rmdir(dir);
		return -1;
	}
	snprintf(inside, len, "%s", copy + strlen(root));
	return 0;
}

void attach_unstage_runtime(pid_t pid)
{
	char root[64], dir[128], copy[256];

	attach_root(pid, root, sizeof(root));
	if (!root[0])
		return;
	staging_dir(root, dir, sizeof(dir));
	snprintf(copy, sizeof(copy), "%s/libfntrace.so", dir);
	unlink(copy);
	rmdir(dir);
}
