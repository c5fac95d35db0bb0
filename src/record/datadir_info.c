// SPDX-License-Identifier: GPL-2.0
/*
 * The text of a data directory's info file: `key: value` lines.  Besides
 * the run (command, tracer, clock samples, exit), it says whether the
 * directory was sealed (`state: sealed`) or is still being recorded
 * (`state: recording`: a reader of a directory left so knows the recorder
 * died), how the recording ended if it ended early (`recording: disk
 * full after N bytes`), and how many events the recorder could not store
 * (`dropped: N`), and how many events the runtime dropped in threads
 * that ended before they could say so (`lost_unsaid: N`).  What was
 * asked for is there too: `filter: EXPR` and `notrace: EXPR`, one line
 * per expression, `depth: N`, and `tracing_thresh: USEC` if one was set
 * (its calls come whole, at their exits); and when (`started:`, Unix
 * seconds).  With --max-size, the cap (`max_size: BYTES`) and what it
 * dropped (`max_size_dropped: N chunks N bytes N events`, then `N lost`
 * if their LOSTs counted events lost in the span they covered, and
 * `max_size_kept_from: TICKS`, where the oldest chunk kept begins).
 */
#include "datadir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *datadir_ending(const struct datadir *d, char *buf, size_t len)
{
	unsigned long long bytes = d->size;

	if (d->stream && d->error) {
		snprintf(buf, len, "the stream to %s was lost (%s) after %llu bytes",
			 datadir_stream_where(d), strerror(d->error),
			 (unsigned long long)datadir_stream_bytes(d));
		return buf;
	}
	switch (d->error) {
	case 0:
		snprintf(buf, len, "%s", "");
		break;
	case ENOENT:
	case ESTALE:
		snprintf(buf, len, "trace.dat was removed after %llu bytes", bytes);
		break;
	case ENOSPC:
	case EDQUOT:
		snprintf(buf, len, "disk full after %llu bytes", bytes);
		break;
	case EFBIG:
		snprintf(buf, len, "file size limit reached after %llu bytes", bytes);
		break;
	default:
		snprintf(buf, len, "cannot write (%s) after %llu bytes", strerror(d->error),
			 bytes);
	}
	return buf;
}

/* The lines only a recording that went wrong has. */
static void trouble_lines(const struct datadir *d, const struct datadir_info *i,
			  char *buf, size_t len)
{
	char ending[256];
	int n = 0;

	if (d->error)
		n = snprintf(buf, len, "recording: %s\n", datadir_ending(d, ending, sizeof(ending)));
	if (i->dropped)
		n += snprintf(buf + n, len - n, "dropped: %llu\n", (unsigned long long)i->dropped);
	snprintf(buf + n, len - n, i->unsaid ? "lost_unsaid: %llu\n" : "",
		 (unsigned long long)i->unsaid);
}

/* With --max-size: the cap, and what it dropped. */
static void cap_lines(const struct datadir_info *i, char *buf, size_t len)
{
	const struct tr_cut *c = &i->cut;
	int n = 0;

	buf[0] = '\0';
	if (i->max_size)
		n = snprintf(buf, len, "max_size: %llu\n", (unsigned long long)i->max_size);
	if (!c->chunks)
		return;
	n += snprintf(buf + n, len - n, "max_size_dropped: %llu chunks %llu bytes %llu events",
		      (unsigned long long)c->chunks, (unsigned long long)c->bytes,
		      (unsigned long long)c->events);
	if (c->lost)
		n += snprintf(buf + n, len - n, " %llu lost", (unsigned long long)c->lost);
	snprintf(buf + n, len - n, "\nmax_size_kept_from: %llu\n", (unsigned long long)c->kept_from);
}

/* One `key: EXPR` line per line of list (NULL: none); NULL if out of
 * memory. */
static char *list_lines(const char *key, const char *list)
{
	size_t len = 1;
	char *text, *p;

	for (const char *s = list; s && *s; s += strcspn(s, "\n"), s += *s == '\n')
		len += strlen(key) + 3 + strcspn(s, "\n");
	text = p = malloc(len);
	if (!text)
		return NULL;
	*p = '\0';
	for (const char *s = list; s && *s; s += strcspn(s, "\n"), s += *s == '\n')
		p += sprintf(p, "%s: %.*s\n", key, (int)strcspn(s, "\n"), s);
	return text;
}

/* What the recording was asked to trace. */
static char *request_lines(const struct datadir_info *i)
{
	char *filter = list_lines("filter", i->filter);
	char *notrace = list_lines("notrace", i->notrace);
	char *text = NULL, thresh[40] = "", kevents[300] = "";

	if (i->thresh)
		snprintf(thresh, sizeof(thresh), "tracing_thresh: %u\n", i->thresh);
	if (i->kevents[0])
		snprintf(kevents, sizeof(kevents), "kevents: %s\n", i->kevents);
	if (filter && notrace &&
	    asprintf(&text, "%s%sdepth: %u\n%s%sstarted: %lld\n", filter, notrace, i->depth,
		     thresh, kevents, (long long)i->started) < 0)
		text = NULL;
	free(filter);
	free(notrace);
	return text;
}

char *datadir_info_text(const struct datadir *d, const struct datadir_info *i, int sealed)
{
	const struct clock_sync *c = i->program_clock.ns[1] ? &i->program_clock : &i->clock;
	char exit[80] = "", trouble[512], cap[256];
	char *text, *request = request_lines(i);
	int n;

	if (i->exit[0])
		snprintf(exit, sizeof(exit), "exit: %s\n", i->exit);
	if (!request)
		return NULL;
	trouble_lines(d, i, trouble, sizeof(trouble));
	cap_lines(i, cap, sizeof(cap));
	n = asprintf(&text, "fntrace-data: 1\ncommand: %s\ntracer: %s\npid: %d\n"
			    "clock_sync: %llu %llu %llu %llu\noptions: %s\n%snr_cpus: %ld\n"
			    "%sstate: %s\n%s%s%s",
		     i->command, i->tracer, i->pid,
		     (unsigned long long)c->ticks[0], (unsigned long long)c->ns[0],
		     (unsigned long long)c->ticks[1], (unsigned long long)c->ns[1],
		     i->retval ? "retval" : "", request, sysconf(_SC_NPROCESSORS_ONLN), exit,
		     sealed ? "sealed" : "recording", trouble, cap, i->extra ? i->extra : "");
	free(request);
	return n < 0 ? NULL : text;
}
