// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace export: the table of formats, the threads chosen, and output
 * files that appear whole or not at all (export.h).
 */
#include "export.h"
#include "arg_names.h"
#include "../dwarf/srcline.h"
#include "../common/array.h"
#include "../common/print.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const struct export_format export_formats[] = {
	{ "chrome", "Trace Event JSON: Perfetto UI, chrome://tracing, speedscope",
	  export_chrome, 1 },
	{ "folded", "stacks and self ns, as flamegraph.pl and speedscope read",
	  export_folded, 0 },
	{ "svg", "an interactive flame graph in one self-contained file", export_svg, 0 },
	{ "perfetto", "Perfetto's protobuf trace (TrackEvent)", export_perfetto, 0 },
	{ 0 }
};

static const struct export_format *format_named(const char *name)
{
	for (const struct export_format *f = export_formats; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

/* A device or a pipe named by -o (/dev/null, a FIFO) is written in
 * place: a temporary file renamed over it would replace the device with
 * a regular file. */
static int is_special(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* Closes and removes what export_file_open() made. */
static void export_file_abort(struct export_file *ef)
{
	if (ef->path && ef->f)
		fclose(ef->f);
	if (ef->tmp)
		unlink(ef->tmp);
	free(ef->path);
	free(ef->tmp);
	*ef = (struct export_file) { 0 };
}

/* 0, or -1 after one line to the printer. */
static int export_file_open(struct export_file *ef, const char *path)
{
	int in_place;

	*ef = (struct export_file) { .f = stdout };
	if (!path || !strcmp(path, "-"))
		return 0;
	in_place = is_special(path);
	ef->f = NULL;
	ef->path = strdup(path);
	if (ef->path && !in_place && asprintf(&ef->tmp, "%s.tmp-%d", path, (int)getpid()) < 0)
		ef->tmp = NULL;		/* asprintf leaves it undefined */
	if (!ef->path || (!in_place && !ef->tmp)) {
		pr_error("out of memory");
		export_file_abort(ef);
		return -1;
	}
	ef->f = fopen(ef->tmp ? ef->tmp : ef->path, "w");
	if (!ef->f) {
		pr_error("cannot write %s: %s", ef->tmp ? ef->tmp : ef->path, strerror(errno));
		export_file_abort(ef);
		return -1;
	}
	return 0;
}

/* Flushes and closes the file, which keeps its temporary name until the
 * export renames it; 0, or -1 after one line to the printer. */
static int export_file_close(struct export_file *ef)
{
	const char *name = ef->path ? ef->path : "standard output";
	int failed;

	if (!ef->f)
		return 0;
	failed = fflush(ef->f) != 0 || ferror(ef->f);
	if (ef->path) {
		failed |= fclose(ef->f) != 0;
		ef->f = NULL;
	}
	if (failed)
		pr_error("cannot write %s: %s", name, strerror(errno));
	return failed ? -1 : 0;
}

int export_next_piece(struct export *ex)
{
	char *path;
	int err;

	if (export_file_close(&ex->out))
		return -1;
	if (grow_array((void **)&ex->pieces, &ex->cap_pieces, ex->nr_pieces + 1,
		       sizeof(*ex->pieces))) {
		pr_error("out of memory");
		return -1;
	}
	ex->pieces[ex->nr_pieces++] = ex->out;
	ex->out = (struct export_file) { 0 };
	if (asprintf(&path, "%s.%u", ex->opt->output, ex->nr_pieces) < 0) {
		pr_error("out of memory");
		return -1;
	}
	err = export_file_open(&ex->out, path);
	free(path);
	return err;
}

/* Every file of the export, in order: the pieces, then out. */
static struct export_file *file_at(struct export *ex, unsigned i)
{
	return i < ex->nr_pieces ? &ex->pieces[i] : &ex->out;
}

/* Renames every file into place, or leaves none behind: pieces renamed
 * before a later one failed are removed again, since the set is not
 * whole.  The caller releases the files with abort_all(). */
static int commit_all(struct export *ex)
{
	unsigned n = ex->nr_pieces + 1, done;

	if (export_file_close(&ex->out))
		return -1;
	if (!ex->out.path)
		return 0;		/* standard output */
	for (done = 0; done < n; done++) {
		struct export_file *ef = file_at(ex, done);

		if (ef->tmp && rename(ef->tmp, ef->path)) {
			pr_error("cannot write %s: %s", ef->path, strerror(errno));
			break;
		}
		free(ef->tmp);
		ef->tmp = NULL;
	}
	for (unsigned i = 0; done < n && i < done; i++)
		unlink(file_at(ex, i)->path);
	return done == n ? 0 : -1;
}

static void abort_all(struct export *ex)
{
	for (unsigned i = 0; i <= ex->nr_pieces; i++)
		export_file_abort(file_at(ex, i));
}

static int select_threads(struct export *ex)
{
	const struct trace_data *td = &ex->td;

	ex->threads = calloc(td->nr_threads ? td->nr_threads : 1, sizeof(*ex->threads));
	if (!ex->threads) {
		pr_error("out of memory");
		return -1;
	}
	for (unsigned i = 0; i < td->nr_threads; i++)
		if (tr_tid_chosen(ex->opt->tids, ex->opt->nr_tids, td->threads[i].tid))
			ex->threads[ex->nr_threads++] = &td->threads[i];
	return 0;
}

static int export_open(struct export *ex, const struct export_options *o)
{
	*ex = (struct export) { .opt = o };
	if (tr_open(&ex->td, o->input)) {
		pr_error("%s", ex->td.err);
		return -1;
	}
	if (o->srcline && !(ex->srclines = tr_srclines_new()))
		pr_error("out of memory");
	if ((o->srcline && !ex->srclines) || select_threads(ex)) {
		tr_srclines_free(ex->srclines);
		tr_close(&ex->td);
		return -1;
	}
	ex->arg_names = tr_arg_names_load(ex->td.dir);
	return 0;
}

int export_check_options(const struct export_options *o, char *why, size_t len)
{
	const struct export_format *fmt = format_named(o->format);

	if (!fmt)
		snprintf(why, len, "unknown export format '%s'", o->format);
	else if (o->split_bytes && !fmt->splits)
		snprintf(why, len, "--format %s writes one file: it takes no --split", fmt->name);
	else if (o->split_bytes && (!o->output || !strcmp(o->output, "-") ||
				    is_special(o->output)))
		snprintf(why, len, "--split wants -o FILE: the pieces are FILE, FILE.1, FILE.2 ...");
	else
		return 0;
	return -1;
}

int export_run(const struct export_options *o)
{
	const struct export_format *fmt = format_named(o->format);
	struct export ex;
	char why[256];
	int err;

	if (export_check_options(o, why, sizeof(why))) {
		pr_error("%s", why);
		return 1;
	}
	if (export_open(&ex, o))
		return 1;
	err = export_file_open(&ex.out, o->output);
	if (!err) {
		err = fmt->write(&ex);
		if (!err && ex.td.read_error) {
			pr_error("%s/trace.dat: %s", ex.td.dir, strerror(ex.td.read_error));
			err = -1;
		}
		if (!err)
			err = commit_all(&ex);
		abort_all(&ex);
	}
	free(ex.pieces);
	free(ex.threads);
	tr_srclines_free(ex.srclines);
	tr_arg_names_free(ex.arg_names);
	tr_close(&ex.td);
	return err ? 1 : 0;
}
