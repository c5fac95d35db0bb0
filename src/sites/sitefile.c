// SPDX-License-Identifier: GPL-2.0
/*
 * Side files (sitefile.h): where they live, how they are read and written.
 *
 * The reader runs inside traced processes, on a file anyone in the user's
 * cache could have written, so it is strict: every byte is parsed, every
 * number is bounded, and one bad line rejects the whole file.  Even a
 * well-formed file is only a list of claims: sites.c checks each site
 * against the image's bytes before using it.
 */
#include "sitefile.h"
#include "../common/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILE	(256u << 20)	/* about 6 million sites */
#define MAX_SITE_LEN	16

static const char *const kind_names[] = {
	[SITE_ENTRY] = "entry", [SITE_FRAME] = "frame", [SITE_FRAME_REALIGNED] = "realigned",
};

/* ---- where ---- */

static int is_build_id(const char *id)
{
	size_t n = strspn(id, "0123456789abcdef");

	return n >= 2 && n < SITEFILE_MAX_ID && id[n] == '\0';
}

char *sitefile_path(const char *build_id)
{
	return sitefile_cache_path(build_id, "sites");
}

char *sitefile_cache_path(const char *build_id, const char *suffix)
{
	const char *dir = getenv("FNTRACE_CACHE"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char *path = NULL;
	int n = -1;

	if (!is_build_id(build_id))
		return NULL;
	if (dir && *dir)
		n = asprintf(&path, "%s/%s.%s", dir, build_id, suffix);
	else if (xdg && *xdg == '/')	/* the XDG spec ignores relative paths */
		n = asprintf(&path, "%s/fntrace/%s.%s", xdg, build_id, suffix);
	else if (home && *home)
		n = asprintf(&path, "%s/.cache/fntrace/%s.%s", home, build_id, suffix);
	return n < 0 ? NULL : path;
}

/* ---- reading ---- */

static int fail(char *err, size_t errlen, const char *what, unsigned line)
{
	if (line)
		snprintf(err, errlen, "line %u: %s", line, what);
	else
		snprintf(err, errlen, "%s", what);
	return -1;
}

/* Whether a failed open means there is no side file for us.  One we
 * may not open is another user's cache: a process that changed its user
 * (setuid) keeps the HOME it was started with, and would otherwise say so
 * for every module it reads. */
static int not_ours(int err)
{
	return err == ENOENT || err == ENOTDIR || err == EACCES;
}

/* The whole file, NUL-terminated; 0 if there is none for us. */
static int slurp(const char *path, char **text, size_t *size, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	const char *why = NULL;
	struct stat st;

	if (fd < 0)
		return not_ours(errno) ? 0 : fail(err, errlen, strerror(errno), 0);
	*text = NULL;
	if (fstat(fd, &st))
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode) || st.st_size >= (off_t)MAX_FILE)
		why = "not a regular file of a sensible size";
	else if (!(*text = malloc(st.st_size + 1)))
		why = "out of memory";
	else if (read_all(fd, *text, st.st_size))
		why = "cannot be read";
	close(fd);
	if (why) {
		free(*text);
		return fail(err, errlen, why, 0);
	}
	(*text)[st.st_size] = '\0';
	*size = st.st_size;
	return 1;
}

/* A hex number of 1 to 16 digits, then one space. */
static int hex_field(char **p, uint64_t *v)
{
	unsigned digits = 0;
	char *s = *p;

	for (*v = 0; digits <= 16; s++, digits++) {
		int d = *s >= '0' && *s <= '9' ? *s - '0' :
			*s >= 'a' && *s <= 'f' ? *s - 'a' + 10 : -1;

		if (d < 0)
			break;
		*v = *v << 4 | d;
	}
	if (!digits || digits > 16 || *s != ' ')
		return -1;
	*p = s + 1;
	return 0;
}

static int len_field(char **p, unsigned *len)
{
	char *s = *p;

	for (*len = 0; *s >= '0' && *s <= '9' && *len <= MAX_SITE_LEN; s++)
		*len = *len * 10 + (*s - '0');
	if (s == *p || *s != ' ' || *len == 0 || *len > MAX_SITE_LEN)
		return -1;
	*p = s + 1;
	return 0;
}

static int kind_field(char **p, unsigned *kind)
{
	for (unsigned k = 0; k < sizeof(kind_names) / sizeof(kind_names[0]); k++) {
		size_t n = strlen(kind_names[k]);

		if (!strncmp(*p, kind_names[k], n) && (*p)[n] == ' ') {
			*kind = k;
			*p += n + 1;
			return 0;
		}
	}
	return -1;
}

/* A name: printable, no control character (it reaches terminals). */
static int name_field(const char *s)
{
	if (!*s)
		return -1;
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return -1;
	return 0;
}

static int parse_site(char *line, struct sitefile_entry *e)
{
	char *p = line;

	if (hex_field(&p, &e->addr) || len_field(&p, &e->len) ||
	    kind_field(&p, &e->kind) || hex_field(&p, &e->func) || name_field(p))
		return -1;
	e->name = p;
	return 0;
}

static int parse_header(const char *line, const char *arch, const char *build_id,
			char *err, size_t errlen)
{
	char want[64 + SITEFILE_MAX_ID];
	unsigned version;

	if (sscanf(line, "fntrace-sites %u ", &version) == 1 && version != SITEFILE_VERSION) {
		snprintf(err, errlen, "format version %u, this fntrace reads %u",
			 version, SITEFILE_VERSION);
		return -1;
	}
	snprintf(want, sizeof(want), "fntrace-sites %u %s %s", SITEFILE_VERSION, arch,
		 build_id);
	if (strcmp(line, want))
		return fail(err, errlen, "not the header this image's side file must have", 1);
	return 0;
}

/* Split text into lines in place; the last line must end with '\n'. */
static int parse(char *text, size_t size, const char *arch, const char *build_id,
		 struct sitefile *out, char *err, size_t errlen)
{
	unsigned lines = 0, no = 1;
	char *line = text, *nl;

	for (size_t i = 0; i < size; i++)
		lines += text[i] == '\n';
	if (!size || text[size - 1] != '\n' || strlen(text) != size)
		return fail(err, errlen, "not a text file ending with a newline", 0);
	out->v = malloc(lines * sizeof(*out->v));
	if (!out->v)
		return fail(err, errlen, "out of memory", 0);
	for (; (nl = strchr(line, '\n')); line = nl + 1, no++) {
		*nl = '\0';
		if (no == 1 && parse_header(line, arch, build_id, err, errlen))
			return -1;
		if (no > 1 && parse_site(line, &out->v[out->nr++]))
			return fail(err, errlen, "not \"ADDRESS LENGTH entry|frame "
				    "FUNCTION-ADDRESS NAME\"", no);
	}
	return 0;
}

int sitefile_read(const char *path, const char *arch, const char *build_id,
		  struct sitefile *out, char *err, size_t errlen)
{
	size_t size;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = slurp(path, &out->text, &size, err, errlen);
	if (ret <= 0)
		return ret;
	if (parse(out->text, size, arch, build_id, out, err, errlen)) {
		sitefile_free(out);
		return -1;
	}
	return 1;
}

void sitefile_free(struct sitefile *sf)
{
	free(sf->text);
	free(sf->v);
	memset(sf, 0, sizeof(*sf));
}

/* ---- writing ---- */

/* mkdir -p of the directory part of path. */
int sitefile_make_dirs(const char *path)
{
	char *dir = strdup(path), *slash;
	int ret = 0;

	if (!dir)
		return -1;
	for (slash = strchr(dir + 1, '/'); slash && !ret; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			ret = -1;
		*slash = '/';
	}
	free(dir);
	return ret;
}

static int write_sites(FILE *out, const char *arch, const char *build_id,
		       const struct site *v, unsigned n)
{
	fprintf(out, "fntrace-sites %u %s %s\n", SITEFILE_VERSION, arch, build_id);
	for (unsigned i = 0; i < n; i++)
		fprintf(out, "%llx %u %s %llx %s\n", (unsigned long long)v[i].addr,
			v[i].len, kind_names[v[i].kind <= SITE_FRAME_REALIGNED ? v[i].kind : SITE_FRAME],
			(unsigned long long)v[i].func, v[i].name);
	return ferror(out) ? -1 : 0;
}

/* The whole file, in memory: replace_file() writes it in one step.
 * NULL if out of memory (the only way a memory stream fails). */
static char *sites_text(const char *arch, const char *build_id, const struct site *v,
			unsigned n, size_t *len)
{
	char *text = NULL;
	FILE *out = open_memstream(&text, len);
	int ok;

	if (!out)
		return NULL;
	ok = write_sites(out, arch, build_id, v, n) == 0;
	if (fclose(out) || !ok) {
		free(text);
		return NULL;
	}
	return text;
}

int sitefile_write(const char *path, const char *arch, const char *build_id,
		   const struct site *v, unsigned n, char *err, size_t errlen)
{
	size_t len;
	char *text = sites_text(arch, build_id, v, n, &len);
	int ret = !text || sitefile_make_dirs(path) || replace_file(path, text, len, 0644) ? -1 : 0;

	if (ret)
		snprintf(err, errlen, "%s: %s", path, text ? strerror(errno) : "out of memory");
	free(text);
	return ret;
}
