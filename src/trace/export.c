// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace export: the table of formats, the threads chosen, and output
 * files that appear whole or not at all (export.h).
 */
#include "export.h"
#include "srcline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const struct export_format export_formats[] = {
	{ "folded", "stacks and self ns, as flamegraph.pl and speedscope read",
	  export_folded },
	{ "svg", "an interactive flame graph in one self-contained file", export_svg },
	{ 0 }
};

static const struct export_format *format_named(const char *name)
{
	for (const struct export_format *f = export_formats; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

int export_file_open(struct export_file *ef, const char *path)
{
	*ef = (struct export_file) { .f = stdout };
	if (!path || !strcmp(path, "-"))
		return 0;
	ef->path = strdup(path);
	if (!ef->path || asprintf(&ef->tmp, "%s.tmp-%d", path, (int)getpid()) < 0) {
		free(ef->path);
		tr_error("out of memory");
		return -1;
	}
	ef->f = fopen(ef->tmp, "w");
	if (!ef->f) {
		tr_error("cannot write %s: %s", ef->tmp, strerror(errno));
		export_file_abort(ef);
		return -1;
	}
	return 0;
}

void export_file_abort(struct export_file *ef)
{
	if (ef->path && ef->f)
		fclose(ef->f);
	if (ef->tmp)
		unlink(ef->tmp);
	free(ef->path);
	free(ef->tmp);
	*ef = (struct export_file) { 0 };
}

int export_file_commit(struct export_file *ef)
{
	const char *name = ef->path ? ef->path : "standard output";
	int failed = fflush(ef->f) != 0 || ferror(ef->f);

	if (ef->path) {
		failed |= fclose(ef->f) != 0;
		ef->f = NULL;
		if (!failed && rename(ef->tmp, ef->path) == 0) {
			free(ef->tmp);
			ef->tmp = NULL;
		} else {
			failed = 1;
		}
	}
	if (failed)
		tr_error("cannot write %s: %s", name, strerror(errno));
	export_file_abort(ef);
	return failed ? -1 : 0;
}

static int wanted(const struct export_options *o, uint32_t tid)
{
	if (o->nr_tids == 0)
		return 1;
	for (unsigned i = 0; i < o->nr_tids; i++)
		if (o->tids[i] == tid)
			return 1;
	return 0;
}

static int select_threads(struct export *ex)
{
	const struct trace_data *td = &ex->td;

	ex->threads = calloc(td->nr_threads ? td->nr_threads : 1, sizeof(*ex->threads));
	if (!ex->threads) {
		tr_error("out of memory");
		return -1;
	}
	for (unsigned i = 0; i < td->nr_threads; i++)
		if (wanted(ex->opt, td->threads[i].tid))
			ex->threads[ex->nr_threads++] = &td->threads[i];
	return 0;
}

static int export_open(struct export *ex, const struct export_options *o)
{
	*ex = (struct export) { .opt = o };
	if (tr_open(&ex->td, o->input)) {
		tr_error("%s", ex->td.err);
		return -1;
	}
	if (o->srcline && !(ex->srclines = tr_srclines_new()))
		tr_error("out of memory");
	if ((o->srcline && !ex->srclines) || select_threads(ex)) {
		tr_srclines_free(ex->srclines);
		tr_close(&ex->td);
		return -1;
	}
	return 0;
}

int export_run(const struct export_options *o)
{
	const struct export_format *fmt = format_named(o->format);
	struct export ex;
	int err;

	if (!fmt) {
		tr_error("unknown export format '%s' (see 'fntrace export --help')", o->format);
		return 1;
	}
	if (export_open(&ex, o))
		return 1;
	err = export_file_open(&ex.out, o->output);
	if (!err) {
		err = fmt->write(&ex);
		if (!err)
			err = export_file_commit(&ex.out);
		else
			export_file_abort(&ex.out);
	}
	if (!err && ex.td.read_error) {
		tr_error("%s/trace.dat: %s", ex.td.dir, strerror(ex.td.read_error));
		err = -1;
	}
	free(ex.threads);
	tr_srclines_free(ex.srclines);
	tr_close(&ex.td);
	return err ? 1 : 0;
}
