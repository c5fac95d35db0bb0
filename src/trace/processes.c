// SPDX-License-Identifier: GPL-2.0
/*
 * The processes of a recording, read from the function tables of its data
 * directory: one funcs-PID file per process, funcs-PID.N for the program
 * it exec'd N times later, each listing the modules it mapped and its
 * function ids (the runtime's funcs_file.c writes them).
 */
#include "trace_internal.h"
#include "../common/array.h"
#include "../common/sort.h"
#include "../common/trace_format.h"
#include "demangle.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Function ids are 18 bits in a short entry and 32 in a long one; a
 * file asking for more than this is damaged, not large. */
#define MAX_FUNC_ID	(1u << 26)

static int parse_module(struct tr_process *p, size_t *cap, char *s)
{
	struct tr_module m;

	if (tr_take_u32(&s, &m.idx) || tr_take_number(&s, &m.bias) ||
	    tr_take_number(&s, &m.start) || tr_take_number(&s, &m.end) || !*s)
		return -1;
	if (grow_array((void **)&p->modules, cap, p->nr_modules + 1, sizeof(m)))
		return -1;
	m.path = strdup(s);
	if (!m.path)
		return -1;
	p->modules[p->nr_modules++] = m;
	return 0;
}

static int parse_func(struct tr_process *p, size_t *cap, char *s)
{
	struct tr_func fn;
	uint32_t id;

	if (tr_take_u32(&s, &id) || tr_take_number(&s, &fn.addr) ||
	    tr_take_u32(&s, &fn.module) || !*s || id == 0 || id >= MAX_FUNC_ID)
		return -1;
	if (grow_array((void **)&p->funcs, cap, (size_t)id + 1, sizeof(fn)))
		return -1;
	fn.name = demangle(s);
	fn.symbol = fn.name && strcmp(fn.name, s) ? strdup(s) : NULL;
	if (!fn.name || (strcmp(fn.name, s) && !fn.symbol)) {
		free(fn.name);
		return -1;
	}
	free(p->funcs[id].name);
	free(p->funcs[id].symbol);
	p->funcs[id] = fn;
	if (id >= p->nr_funcs)
		p->nr_funcs = id + 1;
	return 0;
}

static int parse_funcs_line(struct tr_process *p, size_t caps[2], char *line)
{
	tr_strip_newline(line);
	if (!line[0] || line[0] == '#')
		return 0;
	if (!strncmp(line, "notraced ", 9)) {
		free(p->notraced);
		p->notraced = strdup(line + 9);
		return p->notraced ? 0 : -1;
	}
	if (!strncmp(line, "module ", 7))
		return parse_module(p, &caps[0], line + 7);
	if (!strncmp(line, "func ", 5))
		return parse_func(p, &caps[1], line + 5);
	return -1;
}

static int read_funcs(struct trace_data *td, struct tr_process *p)
{
	char name[32], *path, *line = NULL;
	size_t cap = 0, caps[2] = { 0, 0 };
	unsigned lineno = 0;
	int err = 0;
	ssize_t n;
	FILE *f;

	ft_funcs_path(name, sizeof(name), NULL, p->pid, p->image);
	path = tr_path_in(td, name);
	f = path ? fopen(path, "r") : NULL;
	if (!f) {
		tr_fail(td, "%s: %s", path ? path : name, strerror(errno));
		free(path);
		return -1;
	}
	while (!err && (n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		/* A last line without its newline is a write cut short (the
		 * disk was full): as if never written. */
		if (line[n - 1] != '\n')
			break;
		if (parse_funcs_line(p, caps, line))
			err = tr_fail(td, "%s:%u: expected 'module IDX BIAS START END PATH' "
				   "or 'func ID ADDR MODIDX NAME'", path, lineno);
	}
	free(line);
	fclose(f);
	free(path);
	return err;
}

/* The pid (0 if none) and image of a file named funcs-PID[.IMAGE]. */
static uint32_t funcs_file_pid(const char *name, uint32_t *image)
{
	const char *s = name + 6;
	char *end;
	unsigned long pid, n = 0;

	*image = 0;
	if (strncmp(name, "funcs-", 6) || *s < '0' || *s > '9')
		return 0;
	pid = strtoul(s, &end, 10);
	if (*end == '.' && end[1] >= '0' && end[1] <= '9')
		n = strtoul(end + 1, &end, 10);
	if (*end || pid == 0 || pid > UINT32_MAX || n > UINT32_MAX)
		return 0;
	*image = n;
	return pid;
}

int tr_compare_procs(const void *a, const void *b)
{
	const struct tr_process *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->image > y->image) - (x->image < y->image);
}

static int find_processes(struct trace_data *td)
{
	DIR *d = opendir(td->dir);
	struct dirent *e;
	size_t cap = 0;
	uint32_t pid, image;

	if (!d)
		return tr_fail(td, "%s: %s", td->dir, strerror(errno));
	while ((e = readdir(d)))
		if ((pid = funcs_file_pid(e->d_name, &image))) {
			if (grow_array((void **)&td->procs, &cap, td->nr_procs + 1,
				       sizeof(*td->procs)))
				break;
			memset(&td->procs[td->nr_procs], 0, sizeof(*td->procs));
			td->procs[td->nr_procs].pid = pid;
			td->procs[td->nr_procs++].image = image;
		}
	closedir(d);
	if (e)
		return tr_fail(td, "out of memory");
	sort_array(td->procs, td->nr_procs, sizeof(*td->procs), tr_compare_procs);
	return 0;
}

int tr_read_processes(struct trace_data *td)
{
	if (find_processes(td))
		return -1;
	for (unsigned i = 0; i < td->nr_procs; i++)
		if (read_funcs(td, &td->procs[i]))
			return -1;
	return 0;
}

void tr_free_process(struct tr_process *p)
{
	for (unsigned i = 0; i < p->nr_modules; i++)
		free(p->modules[i].path);
	for (unsigned i = 0; i < p->nr_funcs; i++) {
		free(p->funcs[i].name);
		free(p->funcs[i].symbol);
	}
	free(p->modules);
	free(p->funcs);
	free(p->notraced);
}
