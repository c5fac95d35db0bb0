// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat, or its segments: the index of their chunks, grouped by
 * thread, and reading one chunk's events.
 *
 * A recording made with --max-size has no trace.dat but numbered
 * segments, trace.dat.N, each a trace file of its own (a file header,
 * then whole chunks), the oldest of them removed by the recorder as it
 * went: they are read in the order of their numbers, as one file would
 * be.  Their headers are checked each, and a segment too short to hold
 * one holds nothing: the recorder had just made it when it was killed.
 * A segment listed but gone when it is opened was dropped by a recorder
 * still at work on the directory: it is left out, as it would have been
 * a moment later.
 */
#include "../common/array.h"
#include "../common/sort.h"
#include "trace_internal.h"
#include "../common/trace_format.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SEGMENT_PREFIX	"trace.dat."

/* 0: a sound header; 1: a segment too short for one (nothing in it);
 * -1: said in td->err. */
static int check_file_header(struct trace_data *td, const struct tr_trace_file *f,
			     const char *path)
{
	struct ft_file_header h;

	if (f->size < sizeof(h) && f->segment >= 0) {
		td->truncated |= f->size > 0;
		return 1;
	}
	if (pread(f->fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return tr_fail(td, "%s: too short for a trace file header", path);
	if (memcmp(h.magic, FT_FILE_MAGIC, sizeof(h.magic)))
		return tr_fail(td, "%s: not an fntrace trace file (bad magic)", path);
	if (h.word_order == __builtin_bswap32(FT_WORD_ORDER))
		return tr_fail(td, "%s: written on a host of the other byte order", path);
	if (h.word_order != FT_WORD_ORDER)
		return tr_fail(td, "%s: bad word order mark %#x", path, h.word_order);
	if (h.version != FT_VERSION)
		return tr_fail(td, "%s: trace format version %u; this fntrace reads version %d",
			    path, h.version, FT_VERSION);
	return 0;
}

static void fill_chunk_ref(struct tr_chunk_ref *r, const struct ft_chunk *c,
			   uint32_t file, uint64_t offset, uint64_t avail)
{
	memset(r, 0, sizeof(*r));
	r->pid = c->pid;
	r->image = c->image;
	r->tid = c->tid;
	r->context = c->context;
	r->seq = c->seq;
	r->piece = c->consumed;
	r->start_time = c->start_time;
	r->depth = c->depth;
	r->cpu = c->cpu;
	r->file = file;
	r->offset = offset;
	r->bytes = (c->used < avail ? c->used : avail) & ~3u;
	memcpy(r->comm, c->comm, sizeof(c->comm));
}

/* Reads the chunk headers of one file only, hopping over the events. */
static int index_chunks(struct trace_data *td, uint32_t file, size_t *cap)
{
	const struct tr_trace_file *f = &td->files[file];
	uint64_t off = sizeof(struct ft_file_header), size = f->size;
	struct ft_chunk c;

	while (off < size) {
		if (size - off < sizeof(c) ||
		    pread(f->fd, &c, sizeof(c), off) != (ssize_t)sizeof(c)) {
			td->truncated = 1;
			break;
		}
		off += sizeof(c);
		if (grow_array((void **)&td->chunks, cap, td->nr_chunks + 1, sizeof(*td->chunks)))
			return tr_fail(td, "out of memory");
		fill_chunk_ref(&td->chunks[td->nr_chunks++], &c, file, off, size - off);
		td->truncated |= c.used > size - off;
		off += c.used;
	}
	return 0;
}

/* Thread by thread, each context by context in seq order, a chunk's
 * pieces in theirs; the order of the files, then within them, breaks
 * ties. */
static int compare_chunks(const void *a, const void *b)
{
	const struct tr_chunk_ref *x = a, *y = b;
	struct ft_chunk_place px = tr_chunk_place(x), py = tr_chunk_place(y);
	int by_place = ft_chunk_place_cmp(&px, &py);

	if (by_place)
		return by_place;
	if (x->piece != y->piece)
		return x->piece < y->piece ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return (x->offset > y->offset) - (x->offset < y->offset);
}

static const struct tr_process *find_process(const struct trace_data *td,
					     uint32_t pid, uint32_t image)
{
	struct tr_process key = { .pid = pid, .image = image };

	if (!td->nr_procs)	/* no funcs file at all: bsearch takes no NULL */
		return NULL;
	return bsearch(&key, td->procs, td->nr_procs, sizeof(key), tr_compare_procs);
}

static int add_thread(struct trace_data *td, size_t *cap, struct tr_chunk_ref *first)
{
	struct tr_thread *t;

	if (grow_array((void **)&td->threads, cap, td->nr_threads + 1, sizeof(*t)))
		return tr_fail(td, "out of memory");
	t = &td->threads[td->nr_threads++];
	t->pid = first->pid;
	t->image = first->image;
	t->tid = first->tid;
	t->chunks = first;
	t->proc = find_process(td, first->pid, first->image);
	if (!t->proc)
		return tr_fail(td, "%s/trace.dat has events of pid %u (program %u) but no "
			    "funcs file for it", td->dir, first->pid, first->image);
	return 0;
}

static void note_cpu(struct trace_data *td, uint32_t cpu)
{
	if (cpu != TR_NO_CPU && (td->max_cpu == TR_NO_CPU || cpu > td->max_cpu))
		td->max_cpu = cpu;
}

static int group_threads(struct trace_data *td)
{
	struct tr_thread *t = NULL;
	size_t cap = 0;

	sort_array(td->chunks, td->nr_chunks, sizeof(*td->chunks), compare_chunks);
	for (size_t i = 0; i < td->nr_chunks; i++) {
		struct tr_chunk_ref *r = &td->chunks[i];

		if (!t || t->pid != r->pid || t->image != r->image || t->tid != r->tid) {
			if (add_thread(td, &cap, r))
				return -1;
			t = &td->threads[td->nr_threads - 1];
		}
		t->nr_chunks++;
		t->nr_own_chunks += r->context == 0;
		if (r->context == 0 || t->nr_own_chunks == 0)
			t->comm = r->comm;
		note_cpu(td, r->cpu);
	}
	return 0;
}

/* ---- the files ---- */

/* DIR/NAME opened and checked, into td->files; 1 if it is not there
 * (ENOENT), -1 if said in td->err. */
static int open_file(struct trace_data *td, const char *name, int segment, size_t *cap)
{
	char *path = tr_path_in(td, name);
	struct tr_trace_file f = { .fd = -1, .segment = segment };
	struct stat st;
	int ret;

	if (!path)
		return tr_fail(td, "out of memory");
	f.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f.fd < 0 && errno == ENOENT) {
		free(path);
		return 1;
	}
	if (f.fd < 0 || fstat(f.fd, &st) < 0) {
		ret = tr_fail(td, "%s: %s", path, strerror(errno));
	} else if (grow_array((void **)&td->files, cap, td->nr_files + 1, sizeof(f))) {
		ret = tr_fail(td, "out of memory");
	} else {
		f.size = st.st_size;
		td->files[td->nr_files++] = f;
		td->trace_bytes += f.size;
		f.fd = -1;
		ret = check_file_header(td, &td->files[td->nr_files - 1], path) < 0 ? -1 : 0;
	}
	if (f.fd >= 0)
		close(f.fd);
	free(path);
	return ret;
}

/* N of a name trace.dat.N (decimal digits only), or -1. */
static long segment_number(const char *name)
{
	const char *digits = name + strlen(SEGMENT_PREFIX);
	char *end;
	unsigned long n;

	if (strncmp(name, SEGMENT_PREFIX, strlen(SEGMENT_PREFIX)) ||
	    *digits < '0' || *digits > '9')
		return -1;
	errno = 0;
	n = strtoul(digits, &end, 10);
	return *end || errno || n > INT32_MAX ? -1 : (long)n;
}

static int compare_numbers(const void *a, const void *b)
{
	const long *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/* The numbers of the directory's segments, in order, into *numbers. */
static int list_segments(struct trace_data *td, long **numbers, size_t *nr)
{
	DIR *dh = opendir(td->dir);
	struct dirent *e;
	size_t cap = 0;
	long n;

	if (!dh)
		return tr_fail(td, "%s: %s", td->dir, strerror(errno));
	while ((e = readdir(dh)))
		if ((n = segment_number(e->d_name)) >= 0) {
			if (grow_array((void **)numbers, &cap, *nr + 1, sizeof(**numbers))) {
				closedir(dh);
				return tr_fail(td, "out of memory");
			}
			(*numbers)[(*nr)++] = n;
		}
	closedir(dh);
	if (*nr)
		sort_array(*numbers, *nr, sizeof(**numbers), compare_numbers);
	return 0;
}

/* The segments, oldest first; none at all is said as trace.dat missing. */
static int open_segments(struct trace_data *td, size_t *cap)
{
	long *numbers = NULL;
	size_t nr = 0;
	char name[32];
	int ret = list_segments(td, &numbers, &nr);

	for (size_t i = 0; !ret && i < nr; i++) {
		snprintf(name, sizeof(name), SEGMENT_PREFIX "%ld", numbers[i]);
		ret = open_file(td, name, numbers[i], cap) < 0 ? -1 : 0;
	}
	free(numbers);
	if (!ret && !td->nr_files)
		ret = tr_fail(td, "%s/trace.dat: %s", td->dir, strerror(ENOENT));
	return ret;
}

int tr_read_trace(struct trace_data *td)
{
	size_t cap = 0, chunks_cap = 0;
	int ret = open_file(td, "trace.dat", -1, &cap);

	if (ret > 0)
		ret = open_segments(td, &cap);
	for (uint32_t i = 0; !ret && i < td->nr_files; i++)
		ret = index_chunks(td, i, &chunks_cap);
	return ret ? -1 : group_threads(td);
}

void tr_close_trace(struct trace_data *td)
{
	for (unsigned i = 0; i < td->nr_files; i++)
		close(td->files[i].fd);
	free(td->files);
	td->files = NULL;
	td->nr_files = 0;
}

int tr_read_chunk(const struct trace_data *td, const struct tr_chunk_ref *r, void *words)
{
	errno = 0;
	if (pread(td->files[r->file].fd, words, r->bytes, r->offset) == (ssize_t)r->bytes)
		return 0;
	return errno ? errno : EIO;
}
