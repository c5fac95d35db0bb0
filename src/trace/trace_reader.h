/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading an fntrace data directory (fntrace.data/ by default):
 *
 *   info          key: value lines about the run (command, tracer, clock...)
 *   funcs-<pid>   the modules and traced functions of one process
 *   trace.dat     chunks of events, see src/common/trace_format.h; or
 *   trace.dat.N   its segments, the oldest removed (record --max-size)
 *
 * tr_open() reads the text files and builds an index of the chunks of
 * trace.dat, grouped by thread, then by context (the thread's own, and
 * its signal handlers'), and sorted by sequence number.  Events are
 * decoded lazily, one thread at a time, by a struct tr_cursor, which
 * merges the contexts' streams by time: memory grows with the number of
 * chunks, never with the number of events.
 *
 * The library prints nothing itself: its functions return errors, and
 * what the user should read goes to the printer of src/common/print.h,
 * which a caller whose stderr is not the user's replaces.
 */
#ifndef FNTRACE_TRACE_READER_H
#define FNTRACE_TRACE_READER_H

#include <stddef.h>
#include <stdint.h>

#include "../common/shm.h"
#include "../common/trace_format.h"
#include "counts.h"
#include "kevents.h"
#include "trace_snapshot.h"

#define TR_NO_CPU	0xffffffffu	/* a CPU nobody recorded */

/* The info file.  Strings are never NULL but for exit (absent: the
 * program was still running, or the recorder stopped first). */
struct tr_info {
	char *command;
	char *tracer;		/* "function_graph" (the default) or "function" */
	int nop;		/* a live process's trace under the nop tracer:
				 * read as "function" (it holds markers only) */
	uint32_t pid;		/* the traced process */
	char *options;		/* comma-separated, "" if none */
	char *filter;		/* filter expressions, one per line; "" if none */
	char *notrace;		/* notrace expressions, the same */
	unsigned depth;		/* max_graph_depth; 0: none */
	unsigned thresh;	/* tracing_thresh, microseconds; 0: none.  Its
				 * whole calls (TR_CALL) come at their exits */
	int64_t started;	/* wall clock, Unix seconds; 0: not recorded */
	char *exit;		/* "status N" or "signal N NAME [(core dumped)]" */
	unsigned nr_cpus;	/* 0: not recorded */
	int has_clock;		/* clock_sync was given; else ticks are ns */
	uint64_t clock_t0, clock_n0, clock_t1, clock_n1;
	uint64_t ns_per_tick_int;	/* (n1 - n0) / (t1 - t0), in 64.64 fixed */
	uint64_t ns_per_tick_frac;	/* point; 0 and 0 if not known */
	uint64_t ns_per_tick_rem;	/* (n1 - n0) % (t1 - t0) */
	int unsealed;		/* "state: recording": the recorder never
				 * finished; clock_n1 is when it was last
				 * heard of */
	char *ending;		/* how the recording ended early, or NULL */
	char *stream;		/* a remote recording cut short: how its
				 * stream ended, as the listener saw it
				 * ("connection lost after N bytes"), or NULL */
	uint64_t dropped;	/* events the recorder could not store */
	uint64_t unsaid;	/* events lost in threads that ended (or
				 * were traced no more) before
				 * their trace could say so */
	uint64_t max_size;	/* record --max-size, bytes; 0: none */
	char *kevents;		/* record -e as asked, or NULL */
	struct tr_cut cut;	/* what it dropped */
	struct tr_snapshot snapshot;	/* a snapshot's: when and why */
};

/* `module IDX BIAS START END PATH`: [start, end) mapped at bias. */
struct tr_module {
	unsigned idx;
	uint64_t bias, start, end;
	char *path;
};

/* `func ID ADDR MODIDX NAME`. */
struct tr_func {
	uint64_t addr;
	unsigned module;	/* a tr_module idx */
	char *name;		/* NULL: the file never defined this id */
	char *symbol;		/* a C++ function's symbol (name is it
				 * demangled); NULL for a C one */
};

struct tr_process {
	uint32_t pid;
	uint32_t image;		/* 0, then one more after each exec */
	char *notraced;		/* the program, if it had no call sites */
	struct tr_module *modules;
	unsigned nr_modules;
	struct tr_func *funcs;	/* indexed by function id; [0] is unused */
	unsigned nr_funcs;	/* highest id + 1 */
};

/* Where one chunk's events are in trace.dat (or its segments). */
struct tr_chunk_ref {
	uint32_t pid, image, tid;
	uint32_t context;	/* 0, or 1: a signal handler's (trace_format.h) */
	uint64_t seq;
	uint32_t piece;		/* where it begins in its chunk, plus one;
				 * 0: not said (ft_piece_mark) */
	uint64_t start_time;	/* ticks */
	uint32_t depth;		/* graph depth of its first event, plus one;
				 * 0: not said (ft_chunk.depth) */
	uint32_t file;		/* which of td->files */
	uint64_t offset;	/* of the first event word */
	uint32_t bytes;		/* whole event words present in the file */
	uint32_t cpu;		/* TR_NO_CPU if unknown */
	int bad;		/* the cursor met a word it could not decode */
	char comm[17];
};

/* Where it goes in its thread's stream of chunks, as in the ring. */
static inline struct ft_chunk_place tr_chunk_place(const struct tr_chunk_ref *r)
{
	return (struct ft_chunk_place){ .pid = r->pid, .image = r->image, .tid = r->tid,
					.context = r->context, .seq = r->seq };
}

/* trace.dat, or one of its numbered segments (record --max-size). */
struct tr_trace_file {
	int fd;
	int segment;		/* N of trace.dat.N; -1: trace.dat itself */
	uint64_t size;
};

struct tr_thread {
	uint32_t pid, image, tid;
	const struct tr_process *proc;
	struct tr_chunk_ref *chunks;	/* this thread's: context 0's in seq
					 * order, then context 1's */
	unsigned nr_chunks;
	unsigned nr_own_chunks;		/* context 0's */
	const char *comm;		/* its name in its last chunk */
	uint64_t missed[FT_MISSED_KINDS];	/* calls the graph tracer could
					 * not follow (the shadow stack full,
					 * swapcontext), by why, as far as a
					 * cursor has read */
};

struct trace_data {
	char *dir;
	struct tr_info info;
	struct tr_process *procs;	/* sorted by pid */
	unsigned nr_procs;
	struct tr_thread *threads;	/* sorted by pid, then tid */
	unsigned nr_threads;
	struct tr_chunk_ref *chunks;	/* all of them, grouped by thread */
	size_t nr_chunks;
	uint32_t max_cpu;		/* highest CPU of a chunk, TR_NO_CPU if none */
	int truncated;			/* trace.dat ends inside a chunk */
	int read_error;			/* errno of a failed read while decoding */
	struct tr_trace_file *files;	/* trace.dat, or its segments, oldest
					 * first */
	unsigned nr_files;
	uint64_t trace_bytes;		/* their sizes, added up */
	struct tr_kevents kev;		/* the kernel's events (record -e) */
	const struct tr_chunk_ref *before;	/* a stream read in parts (trace_pipe):
						 * each stream's last piece in the
						 * parts before, tr_stream_ends() */
	size_t nr_before;
	char err[320];
};

/* Opens dir; on failure returns -1 with a one-line message in td->err
 * (whatever was opened is released: no tr_close needed). */
int tr_open(struct trace_data *td, const char *dir);
void tr_close(struct trace_data *td);

/* Ticks of the recording clock to CLOCK_MONOTONIC nanoseconds. */
uint64_t tr_ticks_to_ns(const struct trace_data *td, uint64_t ticks);
/* The line through (t0, n0) and (t1, n1) at ticks, in ns (0 at least):
 * what tr_ticks_to_ns does with a recording's two clock samples. */
uint64_t tr_interpolate_ns(uint64_t t0, uint64_t n0, uint64_t t1, uint64_t n1, uint64_t ticks);
/* After record --max-size dropped the oldest chunks: the nanoseconds
 * from where the oldest chunk kept begins to the end of the recording;
 * 0 if not known. */
uint64_t tr_kept_ns(const struct trace_data *td);
/* The name of function id in proc, or NULL. */
const char *tr_func_name(const struct tr_process *proc, uint32_t id);
/* Thread th's kernel events, in time order: its tid's, less those of
 * the programs its process ran before or after th's own (an exec keeps
 * the tid; kevents_exec.c).  *nr of them; NULL if none. */
const struct tr_kev_ref *tr_thread_kevents(struct trace_data *td,
					   const struct tr_thread *th, size_t *nr);
/* The name of thread tid when its kernel event at time happened: the
 * program it ran then (an exec renames it), or NULL if no thread of
 * the recording has that tid. */
const char *tr_comm_at(struct trace_data *td, uint32_t tid, uint64_t time);
/* Is name among the comma-separated info options? */
int tr_has_option(const struct trace_data *td, const char *name);
/* Reads the events of chunk r into words (r->bytes of them): 0, or the
 * errno of the failed read. */
int tr_read_chunk(const struct trace_data *td, const struct tr_chunk_ref *r, void *words);
/* How many chunks ended early in a word the cursor could not decode. */
unsigned tr_bad_chunks(const struct trace_data *td);
/* Is tid among the nr chosen (--tid)?  With none chosen, every one is. */
int tr_tid_chosen(const uint32_t *tids, unsigned nr, uint32_t tid);

enum tr_event_type {
	TR_ENTRY,	/* func, args: the values it was given (-A) */
	TR_EXIT,	/* exit_kind, value (return value if TR_EXIT_RET),
			 * args: the value it gave back (-R) */
	TR_FUNC,	/* func, value = parent ip: the function tracer; args */
	TR_LOST,	/* value = events lost, depth = graph depth on resume;
			 * value 0: events of the thread before this point
			 * are not in the trace (its earlier chunks were
			 * dropped or overwritten), nothing to print unless
			 * gap says some were lost between */
	TR_MARKER,	/* text, text_len */
	TR_CALL,	/* a whole call, at its exit (tracing_thresh: no entry
			 * came): func, value = its duration in ns, depth =
			 * the graph frames around it, exit_kind PLAIN or
			 * UNWIND.  It changes no stream's depth */
	TR_STACK,	/* a stack trace (the stacktrace trigger): its
			 * frames in args, tr_stack_frame() */
};

enum tr_exit_kind {
	TR_EXIT_PLAIN,
	TR_EXIT_RET,	/* with a return value */
	TR_EXIT_UNWIND,	/* skipped by longjmp or an exception */
};

/* One event; TIME and CPU records are folded into time and cpu.  Its
 * 4-byte fields go in pairs: events are copied around at every step. */
struct tr_event {
	enum tr_event_type type;
	uint32_t cpu;		/* TR_NO_CPU if unknown */
	uint64_t time;		/* CLOCK_MONOTONIC ns */
	const char *comm;	/* the thread's name then */
	uint32_t func;
	enum tr_exit_kind exit_kind;
	uint64_t value;
	uint32_t depth;
	int gap;		/* TR_LOST: events lost, how many not known
				 * (a gap in the stream's chunks) */
	uint32_t args_words;
	const char *text;	/* not NUL-terminated; valid until the next
				 * call on the cursor that returned it */
	uint32_t text_len;
	const uint32_t *args;	/* the items of its FT_LONG_ARGS event
				 * (trace_args.h), args_words of them; NULL if
				 * none.  An exit's are valid as text is; an
				 * entry's, while its frame is open and until
				 * the cursor returns the exit after that: a
				 * view may hold a call's entry until it ends */
};

/* TR_STACK's frames, innermost first: value says how many of each
 * kind, function ids (its low half) then return addresses. */
static inline unsigned tr_stack_frames(const struct tr_event *ev)
{
	return (uint32_t)ev->value + (uint32_t)(ev->value >> 32);
}

/* Frame i: a function id, or 0 and a return address in *addr. */
static inline uint32_t tr_stack_frame(const struct tr_event *ev, unsigned i, uint64_t *addr)
{
	unsigned ids = (uint32_t)ev->value;
	const uint32_t *w;

	if (i < ids)
		return ev->args[i];
	w = ev->args + ids + 2 * (i - ids);
	*addr = w[0] | (uint64_t)w[1] << 32;
	return 0;
}

/* The depth a LOST event says its thread resumed at, as every view and
 * export trusts it: deeper than 1 << 16 is a damaged file, and following
 * it would only open walls of unnamed frames. */
static inline uint32_t tr_resume_depth(const struct tr_event *lost)
{
	return lost->depth < (1u << 16) ? lost->depth : 1u << 16;
}

/* A copy of the ARGS of the call entered at one depth of a stream. */
struct tr_args_copy {
	uint32_t *words;
	size_t cap;
};

/* What a gap in a stream's chunks is said with, or a thread's start
 * after another of its tid (trace_cursor.c). */
enum { TR_RESUME_CLOSE = 1, TR_RESUME_OPEN = 2, TR_RESUME_RESTART = 4 };

/* One context's events of a thread, one chunk in memory at a time. */
struct tr_stream {
	struct tr_chunk_ref *chunks;
	unsigned nr_chunks, next_chunk;
	struct tr_chunk_ref *chunk;	/* being decoded */
	uint32_t *words;
	size_t cap;			/* of words, in words */
	unsigned nr_words, pos;
	uint64_t ticks;			/* time of the last event */
	uint32_t cpu;
	uint32_t depth;			/* of its graph, at the events taken */
	const struct tr_chunk_ref *before;	/* its last piece in the parts
						 * before, or NULL */
	int resumes;			/* the chunk just loaded follows a gap:
					 * LOSTs of no events come first
					 * (TR_RESUME_*) */
	uint64_t missed[FT_MISSED_KINDS];	/* its MISSED notes added up */
	struct tr_args_copy *args;	/* per depth */
	size_t nr_args;
	const uint32_t *ret_args;	/* an ARGS of a return, in words: for */
	uint32_t ret_words;		/* the exit that follows */
	struct tr_event next;
	uint64_t next_ticks;
	int has_next;
};

/* Reads one thread's events in time order: its own context's stream and
 * its signal context's, merged, so that a handler's calls come where the
 * signal arrived. */
struct tr_cursor {
	struct trace_data *td;
	const struct tr_thread *th;
	struct tr_stream own, signal;
	struct tr_event peeked;
	int has_peeked;
};

void tr_cursor_init(struct tr_cursor *c, struct trace_data *td,
		    const struct tr_thread *th);
void tr_cursor_free(struct tr_cursor *c);
/* The next event without consuming it, or NULL at the end. */
const struct tr_event *tr_cursor_peek(struct tr_cursor *c);
/* 1 and the next event in *ev, or 0 at the end. */
int tr_cursor_next(struct tr_cursor *c, struct tr_event *ev);
/* Each stream's last piece in td, into *ends (*nr of them), which holds
 * those of the parts before: the next part's td->before.  -1 if out of
 * memory. */
int tr_stream_ends(const struct trace_data *td, struct tr_chunk_ref **ends, size_t *nr);

#endif
