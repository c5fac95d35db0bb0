// SPDX-License-Identifier: GPL-2.0
/*
 * Detour files (detourfile.h).  As with the side files of call sites
 * (sitefile.c), the reader runs inside traced processes on a file anyone
 * in the user's cache could have written: every field is parsed and
 * bounded, one bad line rejects the file, and what it claims is checked
 * against the image's bytes before anything is patched (core/detours.c).
 */
#include "detourfile.h"
#include "sitefile.h"
#include "../common/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILE	(64u << 20)

static int fail(char *err, size_t errlen, const char *what, unsigned line)
{
	if (line)
		snprintf(err, errlen, "line %u: %s", line, what);
	else
		snprintf(err, errlen, "%s", what);
	return -1;
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* A hex number of 1 to 16 digits, then one space. */
static int hex_field(char **p, uint64_t *v)
{
	unsigned digits = 0;
	char *s = *p;
	int d;

	for (*v = 0; digits <= 16 && (d = hex_digit(*s)) >= 0; s++, digits++)
		*v = *v << 4 | (unsigned)d;
	if (!digits || digits > 16 || *s != ' ')
		return -1;
	*p = s + 1;
	return 0;
}

/* A decimal number up to max, then the character end. */
static int dec_field(char **p, unsigned max, char end, unsigned *v)
{
	char *s = *p;

	for (*v = 0; *s >= '0' && *s <= '9' && *v <= max; s++)
		*v = *v * 10 + (unsigned)(*s - '0');
	if (s == *p || *v > max || *s != end)
		return -1;
	*p = s + 1;
	return 0;
}

/* Bytes in hex, two digits each, at most max of them, then a space. */
static int bytes_field(char **p, uint8_t *out, unsigned max, uint8_t *n)
{
	char *s = *p;
	unsigned i = 0;

	for (; hex_digit(s[0]) >= 0 && hex_digit(s[1]) >= 0 && i < max; s += 2)
		out[i++] = (uint8_t)(hex_digit(s[0]) << 4 | hex_digit(s[1]));
	if (!i || *s != ' ')
		return -1;
	*n = (uint8_t)i;
	*p = s + 1;
	return 0;
}

/* "-", or offsets, comma-separated, each leaving room for its 4 bytes
 * in the copy. */
static int relocs_field(char **p, struct detourfile_entry *e)
{
	e->nr_relocs = 0;
	if ((*p)[0] == '-' && (*p)[1] == ' ') {
		*p += 2;
		return 0;
	}
	for (;;) {
		unsigned off = 0;
		char *s = *p;

		for (; *s >= '0' && *s <= '9' && off <= DETOUR_MAX_COPY; s++)
			off = off * 10 + (unsigned)(*s - '0');
		if (s == *p || off + 4 > e->copy_len || e->nr_relocs == DETOUR_MAX_RELOCS ||
		    (*s != ',' && *s != ' '))
			return -1;
		e->relocs[e->nr_relocs++] = (uint8_t)off;
		*p = s + 1;
		if (*s == ' ')
			return 0;
	}
}

static int name_field(const char *s)
{
	if (!*s)
		return -1;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return -1;
	return 0;
}

static int parse_line(char *p, struct detourfile_entry *e)
{
	uint8_t n;
	unsigned len;

	if (hex_field(&p, &e->patch) || dec_field(&p, DETOUR_MAX_LEN, ' ', &len) || len < 2 ||
	    bytes_field(&p, e->orig, DETOUR_MAX_LEN, &n) || n != len ||
	    bytes_field(&p, e->copy, DETOUR_MAX_COPY, &e->copy_len) || relocs_field(&p, e) ||
	    hex_field(&p, &e->func) || name_field(p))
		return -1;
	e->len = (uint8_t)len;
	e->name = p;
	return 0;
}

static int parse(char *text, size_t size, const char *header, struct detourfile *out,
		 char *err, size_t errlen)
{
	unsigned lines = 0, no = 1;
	char *line = text, *nl;

	for (size_t i = 0; i < size; i++)
		lines += text[i] == '\n';
	if (!size || text[size - 1] != '\n' || strlen(text) != size)
		return fail(err, errlen, "not a text file ending with a newline", 0);
	nl = strchr(line, '\n');
	*nl = '\0';
	if (strcmp(line, header))
		return fail(err, errlen, "not the header this image's detour file must have", 1);
	if (!(out->v = calloc(lines, sizeof(*out->v))))
		return fail(err, errlen, "out of memory", 0);
	for (line = nl + 1; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		*nl = '\0';
		no++;
		if (parse_line(line, &out->v[out->nr]))
			return fail(err, errlen, "not a detour line", no);
		out->nr++;
	}
	return 0;
}

int detourfile_read(const char *path, const char *arch, const char *build_id,
		    struct detourfile *out, char *err, size_t errlen)
{
	char header[160];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t size;

	memset(out, 0, sizeof(*out));
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR || errno == EACCES ? 0
			: fail(err, errlen, strerror(errno), 0);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size >= (off_t)MAX_FILE ||
	    !(out->text = malloc((size_t)st.st_size + 1)) || read_all(fd, out->text, st.st_size)) {
		close(fd);
		detourfile_free(out);
		return fail(err, errlen, "cannot be read", 0);
	}
	close(fd);
	size = (size_t)st.st_size;
	out->text[size] = '\0';
	snprintf(header, sizeof(header), "fntrace-detours %u %s %s", DETOURFILE_VERSION, arch,
		 build_id);
	if (parse(out->text, size, header, out, err, errlen)) {
		detourfile_free(out);
		return -1;
	}
	return 1;
}

void detourfile_free(struct detourfile *df)
{
	free(df->text);
	free(df->v);
	memset(df, 0, sizeof(*df));
}

static void put_bytes(FILE *out, const uint8_t *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		fprintf(out, "%02x", v[i]);
	fputc(' ', out);
}

static void put_line(FILE *out, const struct detourfile_entry *e)
{
	fprintf(out, "%llx %u ", (unsigned long long)e->patch, e->len);
	put_bytes(out, e->orig, e->len);
	put_bytes(out, e->copy, e->copy_len);
	for (unsigned i = 0; i < e->nr_relocs; i++)
		fprintf(out, "%u%c", e->relocs[i], i + 1 < e->nr_relocs ? ',' : ' ');
	if (!e->nr_relocs)
		fputs("- ", out);
	fprintf(out, "%llx %s\n", (unsigned long long)e->func, e->name);
}

int detourfile_write(const char *path, const char *arch, const char *build_id,
		     const struct detourfile_entry *v, unsigned n, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	int ret = -1;

	if (out) {
		fprintf(out, "fntrace-detours %u %s %s\n", DETOURFILE_VERSION, arch, build_id);
		for (unsigned i = 0; i < n; i++)
			put_line(out, &v[i]);
		ret = fclose(out) ? -1 : 0;
	}
	if (!ret && (sitefile_make_dirs(path) || replace_file(path, text, len, 0644)))
		ret = -1;
	if (ret)
		snprintf(err, errlen, "%s: %s", path, text ? strerror(errno) : "out of memory");
	free(text);
	return ret;
}
