// SPDX-License-Identifier: GPL-2.0
/*
 * A snapshot's lines of info (trace_snapshot.h), as
 * src/common/snapshot.c's ft_snap_info_lines() writes them.  A key of
 * theirs this reader does not know is for a newer one, as in info.
 */
#include "trace_snapshot.h"
#include "trace_internal.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int set_text(char **field, const char *v)
{
	char *s = strdup(v);

	if (!s)
		return -1;
	free(*field);
	*field = s;
	return 0;
}

static int numbers(char *v, uint64_t *a, uint64_t *b)
{
	return tr_take_number(&v, a) || (b && tr_take_number(&v, b)) || *v ? -1 : 0;
}

/* "NS CHUNKS SKIPPED" */
static int parse_copy(struct tr_snapshot *s, char *v)
{
	return tr_take_number(&v, &s->copy_ns) || tr_take_u32(&v, &s->chunks) ||
	       tr_take_u32(&v, &s->skipped) || *v ? -1 : 0;
}

/* "OVERWRITTEN WHOLE_FROM LOST_BEFORE CAP" */
static int parse_kevents(struct tr_snapshot *s, char *v)
{
	s->has_kev = 1;
	return tr_take_number(&v, &s->kev_overwritten) || tr_take_number(&v, &s->kev_whole_from) ||
	       tr_take_number(&v, &s->kev_lost_before) || tr_take_number(&v, &s->kev_cap) || *v ?
	       -1 : 0;
}

int tr_snapshot_field(struct tr_snapshot *s, const char *key, char *v)
{
	if (!strcmp(key, "snapshot"))
		return tr_take_u32(&v, &s->number) || *v ? -1 : 0;
	if (!strcmp(key, "snapshot_reason"))
		return set_text(&s->reason, v);
	if (!strcmp(key, "snapshot_asked_by"))
		return tr_take_u32(&v, &s->asked_by) || *v ? -1 : 0;
	if (!strcmp(key, "snapshot_taken_by"))
		return tr_take_u32(&v, &s->taken_by) || *v ? -1 : 0;
	if (!strcmp(key, "snapshot_taken"))
		return numbers(v, &s->taken_ns, &s->realtime_ns);
	if (!strcmp(key, "snapshot_copy"))
		return parse_copy(s, v);
	if (!strcmp(key, "snapshot_chunk_size"))
		return tr_take_u32(&v, &s->chunk_size) || *v ? -1 : 0;
	if (!strcmp(key, "snapshot_lost"))
		return numbers(v, &s->lost, NULL);
	if (!strcmp(key, "snapshot_published"))
		return numbers(v, &s->published, NULL);
	if (!strcmp(key, "snapshot_overtaken"))
		return numbers(v, &s->overtaken, NULL);
	if (!strcmp(key, "snapshot_why"))
		return set_text(&s->why, v);
	if (!strcmp(key, "snapshot_kevents"))
		return parse_kevents(s, v);
	return 0;
}

/* The highest N of DIR/snapshot.N; 0 if none. */
static unsigned last_snapshot(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned last = 0;

	while (d && (e = readdir(d))) {
		char *end;
		unsigned long n;

		if (strncmp(e->d_name, "snapshot.", 9))
			continue;
		n = strtoul(e->d_name + 9, &end, 10);
		if (!*end && n > last && n <= UINT_MAX)
			last = (unsigned)n;
	}
	if (d)
		closedir(d);
	return last;
}

int tr_flight_dir_fail(struct trace_data *td)
{
	char *tag = tr_path_in(td, "flight");
	int flight = tag && access(tag, F_OK) == 0;
	unsigned last = flight ? last_snapshot(td->dir) : 0;

	free(tag);
	if (!flight)
		return 0;
	if (!last)
		return tr_fail(td, "%s is a flight recording with no snapshot yet", td->dir);
	return tr_fail(td, "%s is a flight recording: read one of its snapshots, "
		       "%s/snapshot.1 to %s/snapshot.%u", td->dir, td->dir, td->dir, last);
}

void tr_snapshot_free(struct tr_snapshot *s)
{
	free(s->reason);
	free(s->why);
	s->reason = s->why = NULL;
}
