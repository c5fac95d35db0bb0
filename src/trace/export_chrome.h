/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Chrome JSON export's parts: export_chrome.c writes the events,
 * export_chrome_names.c quotes each function's name once, and
 * export_chrome_files.c writes each file's head and tail and cuts --split.
 */
#ifndef FNTRACE_EXPORT_CHROME_H
#define FNTRACE_EXPORT_CHROME_H

#include "export.h"
#include "json_out.h"
#include "symbols.h"

#include <stdint.h>

/* A string literal at p. */
#define PUT(p, lit)	json_put(p, lit, sizeof(lit) - 1)

/* A JSON string, quotes included, in whole NAME_BLOCKs of memory. */
struct quoted {
	char *s;		/* NULL: none */
	size_t len;
};

/* What the events of one function say of it, quoted once. */
struct func_text {
	struct quoted name;	/* s NULL until the function is first seen */
	struct quoted src;	/* --srcline: "file.c:42", if known */
};

struct chrome {
	struct export *ex;
	struct json_out out;
	uint64_t t0;			/* CLOCK_MONOTONIC ns at ts 0 */
	uint64_t file_start;		/* json_out_bytes() where this file began */
	unsigned file;			/* 0: OUTPUT, then OUTPUT.1 ... */
	int empty;			/* no event in this file's array yet */
	struct func_text **funcs;	/* per td process, per function id */
	const struct tr_thread *th;	/* the thread being written */
	char thread[64];		/* its events' head: {"pid":P,"tid":T,"ts": */
	size_t thread_len;
	struct func_text scratch;	/* an id out of the table's */
	struct sym_table syms;		/* names of callers, for the function */
	const struct tr_process *syms_proc;	/* tracer; syms is this one's */
	uint32_t *open;			/* the thread's open calls, outermost */
	size_t open_cap;		/* first: what --split closes and */
	unsigned nr_open;		/* opens again */
	uint64_t last_time;		/* of the thread's last event written */
	int fresh;			/* nothing written in this file but its
					 * head and the calls opened again */
	uint64_t ts_us;			/* the last ts's whole microseconds, */
	char ts_text[24];		/* in decimal (ts_len bytes) */
	size_t ts_len;
};

/* Names are copied in blocks of this many bytes, a size the compiler
 * copies inline: most are shorter than one block. */
#define NAME_BLOCK	32u
/* Longer names are written through json_out_raw(): an event's name and
 * source line inline, with their last blocks, and the rest of the event
 * stay within one json_out_room(). */
#define NAME_INLINE	(JSON_OUT_PIECE / 4)

/* ---- names (export_chrome_names.c) ---- */

const struct func_text *chrome_first_sight(struct chrome *c, uint32_t id);
void chrome_names_free(struct chrome *c);

/* What to say of function id, quoted once for every call of it; NULL if
 * out of memory (said). */
static inline const struct func_text *chrome_func_text(struct chrome *c, uint32_t id)
{
	const struct tr_process *proc = c->th->proc;
	const struct func_text *table = c->funcs[proc - c->ex->td.procs];

	if (table && id < proc->nr_funcs && table[id].name.s)
		return &table[id];
	return chrome_first_sight(c, id);
}

/* ---- events (export_chrome.c) ---- */

void chrome_set_thread(struct chrome *c, const struct tr_thread *th);
char *chrome_begin_event(struct chrome *c, uint64_t time);
/* Closes the event at p; 0, or -1 once a write has failed. */
int chrome_end_event(struct chrome *c, char *p);
int chrome_write_edge(struct chrome *c, uint64_t time, const char *ph_cat, size_t len,
		      const struct func_text *ft);

/* ph_cat and its length, for chrome_write_edge(). */
#define LIT(lit)	lit, sizeof(lit) - 1
#define PH_B		LIT(",\"ph\":\"B\"")
#define PH_E_CUT	LIT(",\"ph\":\"E\",\"cat\":\"split\"")
#define PH_B_CUT	LIT(",\"ph\":\"B\",\"cat\":\"split\"")

/* ---- the kernel's events (export_chrome_kev.c, record -e) ---- */

/* The thread's, after its calls: system calls and times off the CPU as
 * complete events, wake-ups it made and page faults as instants. */
int chrome_write_kevents(struct chrome *c, const struct tr_thread *th);
/* The earliest of them, or UINT64_MAX. */
uint64_t chrome_kevents_start(const struct trace_data *td);

/* ---- files (export_chrome_files.c) ---- */

void chrome_start_file(struct chrome *c);
void chrome_end_file(struct chrome *c);
int chrome_cut_file(struct chrome *c);
int chrome_check_split_size(struct chrome *c);

#endif
