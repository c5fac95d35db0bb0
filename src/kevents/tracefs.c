// SPDX-License-Identifier: GPL-2.0
/*
 * The tracepoints' ids and the layout of their raw records, from tracefs:
 * events/<system>/<name>/id and .../format.  A field's place is read from
 * the format, as perf and libtraceevent read it, never assumed: the
 * layouts change between kernels (sched_switch's prev_state went from
 * an int to a long).  tracefs is looked for where it is mounted, never
 * mounted here: /sys/kernel/tracing, then the older
 * /sys/kernel/debug/tracing.
 */
#include "kevents.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#define TRACEFS_MAGIC	0x74726163

static const char *const tracefs_dirs[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

/* The first of the places with tracefs mounted, or NULL; errno says why
 * not the last one looked at. */
const char *kev_tracefs(void)
{
	struct statfs fs;
	int err = ENOENT;

	for (size_t i = 0; i < sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]); i++) {
		if (statfs(tracefs_dirs[i], &fs) == 0 && fs.f_type == TRACEFS_MAGIC)
			return tracefs_dirs[i];
		if (errno == EACCES)
			err = EACCES;
	}
	errno = err;
	return NULL;
}

/* "unsigned long args[6]" -> "args"; the name is the last word before
 * an array's bracket. */
static void field_name(const char *decl, size_t len, char *name, size_t size)
{
	const char *end = memchr(decl, '[', len);
	const char *start;

	if (!end)
		end = decl + len;
	start = end;
	while (start > decl && start[-1] != ' ' && start[-1] != '*')
		start--;
	snprintf(name, size, "%.*s", (int)(end - start), start);
}

/* One "\tfield:DECL;\toffset:N;\tsize:N;\tsigned:N;" line. */
static int parse_field(const char *line, struct kev_field *f, char *name, size_t size)
{
	const char *decl = strstr(line, "field:"), *semi;

	if (!decl)
		return -1;
	decl += 6;
	semi = strchr(decl, ';');
	if (!semi || sscanf(semi, "; offset:%u; size:%u;", &f->offset, &f->size) != 2)
		return -1;
	field_name(decl, semi - decl, name, size);
	return 0;
}

static int read_id(const char *tracefs, const char *event, unsigned *id)
{
	char path[512];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/events/%s/id", tracefs, event);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fscanf(f, "%u", id);
	fclose(f);
	if (n != 1) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/*
 * The tracepoint EVENT ("sched/sched_switch"): its id and the fields
 * named in tp->fields (each's offset and size filled in).  0, or -1 with
 * errno: ENOENT for a tracepoint this kernel lacks, EPROTO for a field
 * its format lacks.
 */
int kev_tracepoint(const char *tracefs, const char *event, struct kev_tracepoint *tp)
{
	char path[512], line[512], name[64];
	unsigned found = 0;
	FILE *f;

	if (read_id(tracefs, event, &tp->id))
		return -1;
	snprintf(path, sizeof(path), "%s/events/%s/format", tracefs, event);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		struct kev_field field;

		if (parse_field(line, &field, name, sizeof(name)))
			continue;
		for (unsigned i = 0; i < tp->nr_fields; i++)
			if (!strcmp(tp->fields[i].name, name)) {
				tp->fields[i].offset = field.offset;
				tp->fields[i].size = field.size;
				found |= 1u << i;
			}
	}
	fclose(f);
	if (found != (1u << tp->nr_fields) - 1) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}
