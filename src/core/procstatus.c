// SPDX-License-Identifier: GPL-2.0
/*
 * A /proc status file, whose size stat() does not tell, read whole into
 * a buffer on the stack (a few kilobytes).
 */
#include "procstatus.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t read_all_of(int fd, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len && (n = read(fd, buf + got, len - got)) > 0)
		got += n;
	return got;
}

long ft_status_field(const char *path, const char *name)
{
	char text[4096], key[32];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n = fd < 0 ? 0 : read_all_of(fd, text + 1, sizeof(text) - 2);
	const char *field;

	if (fd >= 0)
		close(fd);
	text[0] = '\n';
	text[n + 1] = '\0';
	snprintf(key, sizeof(key), "\n%s:", name);
	field = strstr(text, key);
	return field ? strtol(field + strlen(key), NULL, 10) : -1;
}
