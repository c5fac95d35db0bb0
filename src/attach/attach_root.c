// SPDX-License-Identifier: GPL-2.0
/*
 * A process in a container or a chroot, or one that made its own mount
 * namespace (pivot_root, a service's private /tmp), sees another tree of
 * files: the paths in its /proc/PID/maps are its own, and the runtime it
 * dlopen()s must be a file inside its tree.  We reach its files through
 * /proc/PID/root (and stage the runtime there: attach_stage.c).
 */
#include "attach.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The link's text cannot tell: a root in another mount namespace reads
 * "/" too.  The directory itself can, and the namespace. */
static int same_tree(pid_t pid, const char *root)
{
	char ours[64], theirs[64], path[64];
	struct stat a, b;
	ssize_t n, m;

	if (stat("/", &a) || stat(root, &b) || a.st_dev != b.st_dev || a.st_ino != b.st_ino)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pid);
	n = readlink("/proc/self/ns/mnt", ours, sizeof(ours));
	m = readlink(path, theirs, sizeof(theirs));
	return n > 0 && n == m && !memcmp(ours, theirs, n);
}

void attach_root(pid_t pid, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/%d/root", (int)pid);
	if (same_tree(pid, buf))
		buf[0] = '\0';
}
