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
 *
 * The runtime needs the C library and the loader alone, which every
 * process has loaded; a sanitized build needs UBSan's runtime and what
 * that needs.  Those the process has not loaded are staged too, DIR/NAME,
 * and dlopen()ed first by their paths, each after its own: the runtime's
 * load then finds them loaded by their names.
 */
#include "attach.h"
#include "../cli/cli.h"
#include "../elf/elf.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <link.h>
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

/* The names of the libraries the process has loaded, and of those staged
 * so far, each between newlines: what elf_needed_find() skips. */
static char loaded[16384], staged[1024];

static int listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(list, name); p; p = strstr(p + 1, name))
		if (p > list && p[-1] == '\n' && p[n] == '\n')
			return 1;
	return 0;
}

static int lacking(const char *name)
{
	return !listed(loaded, name) && !listed(staged, name);
}

/* A line of /proc/PID/maps: its file's name into loaded (one replaced on
 * disk since counts as loaded), and, if it maps code the process cannot
 * open at its path, that file copied under dir (once per file: a mapping
 * of one already copied is skipped). */
static int take_mapping(char *line, const char *root, const char *dir, size_t *len)
{
	char perms[8], copy[PATH_MAX], *path = strchr(line, '/'), *deleted;
	int code = sscanf(line, "%*s %7s", perms) == 1 && strchr(perms, 'x');

	line[strcspn(line, "\n")] = '\0';
	if (!path)
		return 0;
	if ((deleted = strstr(path, " (deleted)")))
		*deleted = '\0';
	if (*len + strlen(strrchr(path, '/')) + 1 < sizeof(loaded))
		*len += snprintf(loaded + *len, sizeof(loaded) - *len, "%s\n", strrchr(path, '/') + 1);
	if (!code || deleted || visible_inside(root, path))
		return 0;
	snprintf(copy, sizeof(copy), "%s/files%s", dir, path);
	return access(copy, F_OK) ? copy_with_dirs(path, copy) : 0;
}

/* One pass over the process's mappings. */
static int read_mappings(pid_t pid, const char *root, const char *dir)
{
	char maps[64], line[PATH_MAX + 128];
	size_t len = 1;
	int ret = 0;
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)pid);
	strcpy(loaded, "\n");
	staged[0] = '\0';
	if (!(f = fopen(maps, "re")))
		return -1;
	while (!ret && fgets(line, sizeof(line), f))
		ret = take_mapping(line, root, dir, &len);
	fclose(f);
	return ret;
}

/* Where our own loader finds the library name. */
static int host_library(const char *name, char *out, size_t len)
{
	void *h = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
	struct link_map *map = NULL;

	if (!h)
		h = dlopen(name, RTLD_LAZY);
	if (h && dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map->l_name[0])
		snprintf(out, len, "%s", map->l_name);
	if (h)
		dlclose(h);
	return map && map->l_name[0] ? 0 : -1;
}

/* The libraries file needs that the process lacks, each after those it
 * needs, into s->deps. */
static int stage_needed(const char *file, const char *dir, const char *inside,
			struct attach_staging *s, int depth)
{
	char name[256], host[PATH_MAX], copy[PATH_MAX];

	while (elf_needed_find(file, lacking, name, sizeof(name)) == 1) {
		if (depth > 4 || s->nr_deps == ATTACH_MAX_DEPS ||
		    strlen(staged) + strlen(name) + 2 > sizeof(staged)) {
			errno = E2BIG;
			return -1;
		}
		if (host_library(name, host, sizeof(host))) {
			errno = ENOENT;
			return -1;
		}
		snprintf(staged + strlen(staged), sizeof(staged) - strlen(staged), "\n%s\n", name);
		snprintf(copy, sizeof(copy), "%s/%s", dir, name);
		if (copy_file(host, copy) || stage_needed(host, dir, inside, s, depth + 1))
			return -1;
		snprintf(s->deps[s->nr_deps++], sizeof(s->deps[0]), "%s/%s", inside, name);
	}
	return 0;
}

/* The runtime, the libraries it needs that the process lacks and, for a
 * process that cannot open its own files, those the runtime reads. */
static int stage_all(pid_t pid, const char *lib, const char *root, const char *dir,
		     struct attach_staging *s)
{
	const char *inside = dir + strlen(root);
	char copy[PATH_MAX];

	snprintf(copy, sizeof(copy), "%s/libfntrace.so", dir);
	if ((mkdir(dir, 0755) && errno != EEXIST) || copy_file(lib, copy))
		return -1;
	snprintf(s->runtime, sizeof(s->runtime), "%s/libfntrace.so", inside);
	return read_mappings(pid, root, dir) || stage_needed(lib, dir, inside, s, 0) ||
	       link_program(pid, dir) ? -1 : 0;
}

int attach_stage_runtime(pid_t pid, const char *lib, struct attach_staging *s)
{
	char root[64], dir[128];

	s->nr_deps = 0;
	attach_root(pid, root, sizeof(root));
	if (!root[0]) {
		snprintf(s->runtime, sizeof(s->runtime), "%s", lib);
		return 0;
	}
	staging_dir(root, dir, sizeof(dir));
	if (stage_all(pid, lib, root, dir, s)) {
		cli_error("process %d: cannot put the runtime in its root (%s): %s", (int)pid, dir,
			  strerror(errno));
		attach_unstage_runtime(pid);
		return -1;
	}
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
