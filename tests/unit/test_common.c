// SPDX-License-Identifier: GPL-2.0
/*
 * The helpers of src/common that many callers share: whole reads and
 * writes, files replaced in one step, arrays that double.
 */
#include "unit.h"
#include "../../src/common/array.h"
#include "../../src/common/fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/fntrace-unit-common.XXXXXX";

/* Entries of dir besides . and .., to see that nothing is left behind. */
static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

static int has_text(const char *path, const char *text)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)strlen(text) && !memcmp(buf, text, n);
}

static void test_whole_io(void)
{
	size_t len = 1 << 20;
	char *out = malloc(len), *in = malloc(len + 1), path[64];
	int fd;

	snprintf(path, sizeof(path), "%s/io", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	for (size_t i = 0; i < len; i++)
		out[i] = (char)(i * 7);
	CHECK("write_all: a megabyte", write_all(fd, out, len) == 0);
	lseek(fd, 0, SEEK_SET);
	CHECK("read_all: reads it back", read_all(fd, in, len) == 0 && !memcmp(in, out, len));
	lseek(fd, 0, SEEK_SET);
	CHECK("read_all: an early end fails", read_all(fd, in, len + 1) == -1);
	close(fd);
	CHECK("write_all: a bad fd fails", write_all(-1, out, 1) == -1 && errno == EBADF);
	unlink(path);
	free(out);
	free(in);
}

/* /proc's files say size 0: read to their end, NULs and all. */
static void test_read_proc_file(void)
{
	size_t len;
	char *cmdline = read_proc_file("/proc/self/cmdline", &len), *none;

	CHECK("read_proc_file: /proc/self/cmdline whole, argv[0] and its NUL",
	      cmdline && len == strlen(cmdline) + 1 && strstr(cmdline, "test_common") &&
	      cmdline[len] == '\0');
	none = read_proc_file("/proc/self/no such file", &len);
	CHECK("read_proc_file: a file that is not there", !none && len == 0);
	free(cmdline);
}

static void test_replace_file(void)
{
	char path[64], sub[64];
	struct stat st;

	snprintf(path, sizeof(path), "%s/target", dir);
	umask(077);
	CHECK("replace_file: makes a new file",
	      replace_file(path, "one\n", 4, 0644) == 0 && has_text(path, "one\n"));
	CHECK("replace_file: the mode asked, whatever the umask",
	      stat(path, &st) == 0 && (st.st_mode & 07777) == 0644);
	umask(022);
	CHECK("replace_file: replaces an old one",
	      replace_file(path, "two\n", 4, 0600) == 0 && has_text(path, "two\n"));
	CHECK("replace_file: only the target is left", entries() == 1);
	snprintf(sub, sizeof(sub), "%s/none/target", dir);
	CHECK("replace_file: a missing directory fails with ENOENT",
	      replace_file(sub, "x", 1, 0644) == -1 && errno == ENOENT);
	unlink(path);
	mkdir(path, 0755);
	CHECK("replace_file: a failed rename says why",
	      replace_file(path, "x", 1, 0644) == -1 && errno == EISDIR);
	CHECK("replace_file: a failure leaves the target, and nothing else",
	      stat(path, &st) == 0 && S_ISDIR(st.st_mode) && entries() == 1);
	rmdir(path);
}

static void test_grow_array(void)
{
	int *v = NULL, *before;
	size_t cap = 0;
	int zeroed = 1;

	CHECK("grow_array: room for one is 16",
	      grow_array((void **)&v, &cap, 1, sizeof(*v)) == 0 && v && cap == 16);
	for (int i = 0; i < 16; i++)
		v[i] = i + 1;
	CHECK("grow_array: doubles", grow_array((void **)&v, &cap, 17, sizeof(*v)) == 0 && cap == 32);
	for (int i = 0; i < 16; i++)
		zeroed &= v[i] == i + 1 && v[16 + i] == 0;
	CHECK("grow_array: keeps the old elements and zeroes the new", zeroed);
	CHECK("grow_array: doubles until it fits",
	      grow_array((void **)&v, &cap, 100, sizeof(*v)) == 0 && cap == 128);
	before = v;
	CHECK("grow_array: enough room is left alone",
	      grow_array((void **)&v, &cap, 128, sizeof(*v)) == 0 && v == before && cap == 128);
	CHECK("grow_array: too large to count fails, changing nothing",
	      grow_array((void **)&v, &cap, SIZE_MAX / 2, sizeof(*v)) == -1 && errno == ENOMEM &&
	      v == before && cap == 128);
	free(v);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_whole_io();
	test_read_proc_file();
	test_replace_file();
	test_grow_array();
	rmdir(dir);
	return unit_done();
}
