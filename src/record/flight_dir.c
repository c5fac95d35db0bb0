// SPDX-License-Identifier: GPL-2.0
/*
 * A flight recording's directory (record --overwrite -o DIR):
 *
 *   DIR/flight        what was recorded: "fntrace-flight: 1", command, pid
 *   DIR/shared/       the function tables (funcs-PID) the program's
 *                     processes write, and the argument specs
 *   DIR/snapshot.N    one data directory per snapshot, N from 1
 *
 * Unlike a recording's, DIR is made at the start, under its own name:
 * its snapshots are read while the program runs.  Like a recording, it
 * replaces only what is recognisably one of fntrace's (datadir_place.c
 * asks here too), and the previous one is kept as DIR.old.
 */
#include "datadir.h"
#include "flight.h"
#include "../cli/cli.h"
#include "../common/fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FLIGHT_TAG "fntrace-flight: "

/* Its `flight` file starts so, and it is a directory, not a symlink. */
static int has_tag(int dir_fd)
{
	return datadir_file_starts(dir_fd, "flight", FLIGHT_TAG);
}

/* A directory of plain files only (shared/), removed; -1 if it has
 * anything else. */
static int remove_plain_dir(int parent, const char *name)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	int ret = 0;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			ret |= unlinkat(fd, e->d_name, 0);
	closedir(d);
	return ret ? -1 : unlinkat(parent, name, AT_REMOVEDIR);
}

/* Is the entry one a flight directory has: its flight file, shared/ (a
 * directory, not a link), or a snapshot that is a recording of ours? */
static int entry_is_ours(int dir_fd, const char *path, const char *name)
{
	struct stat st;
	char sub[4400];

	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return 1;
	if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW))
		return 0;
	if (!strcmp(name, "flight"))
		return S_ISREG(st.st_mode);
	if (!strcmp(name, "shared"))
		return S_ISDIR(st.st_mode);
	snprintf(sub, sizeof(sub), "%s/%s", path, name);
	return !strncmp(name, "snapshot.", 9) && datadir_is_recording(sub);
}

/* Tagged, and nothing in it but what a flight recording makes: so that
 * replacing it removes nothing of the user's, and is decided before. */
int flight_dir_is_ours(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int fd2 = fd >= 0 && has_tag(fd) ? dup(fd) : -1;
	DIR *d = fd2 >= 0 ? fdopendir(fd2) : NULL;
	struct dirent *e;
	int ours = d != NULL;

	while (ours && (e = readdir(d)))
		ours = entry_is_ours(fd, path, e->d_name);
	if (d)
		closedir(d);
	else if (fd2 >= 0)
		close(fd2);
	if (fd >= 0)
		close(fd);
	return ours;
}

/* Every entry: its snapshots (recordings, or their temporary
 * directories), shared/ and the flight file. */
int flight_dir_remove(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int fd2 = fd >= 0 && has_tag(fd) ? dup(fd) : -1;
	DIR *d = fd2 >= 0 ? fdopendir(fd2) : NULL;
	struct dirent *e;
	char sub[4400];

	if (!d) {
		if (fd >= 0)
			close(fd);
		if (fd2 >= 0)
			close(fd2);
		errno = ENOTEMPTY;
		return -1;
	}
	while ((e = readdir(d))) {
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (!strncmp(e->d_name, "snapshot.", 9))
			datadir_remove_recording(sub);
		else if (!strcmp(e->d_name, "shared"))
			remove_plain_dir(fd, e->d_name);
	}
	closedir(d);
	unlinkat(fd, "flight", 0);
	close(fd);
	return rmdir(path);
}

int flight_tables_remove(const char *path)
{
	return remove_plain_dir(AT_FDCWD, path);
}

/* DIR/flight: what is recorded, for the user and for has_tag(). */
int flight_dir_tag(const char *dir, const struct datadir_info *info)
{
	char path[4200], *text;
	int ret;

	if (asprintf(&text, FLIGHT_TAG "1\ncommand: %s\npid: %d\nstarted: %lld\n",
		     info->command, info->pid, (long long)info->started) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/flight", dir);
	ret = replace_file(path, text, strlen(text), 0644);
	free(text);
	return ret;
}

int flight_dir_create(const char *dir, const char *shared, const struct datadir_info *info)
{
	char old[4200];

	if (datadir_check_output(dir))
		return -1;
	snprintf(old, sizeof(old), "%s.old", dir);
	if (access(dir, F_OK) == 0 &&
	    ((access(old, F_OK) == 0 && datadir_remove_ours(old)) || rename(dir, old))) {
		cli_error("cannot keep the previous %s as %s: %s", dir, old, strerror(errno));
		return -1;
	}
	if (mkdir(dir, 0755) || mkdir(shared, 0755) || flight_dir_tag(dir, info)) {
		cli_error("cannot make %s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}
