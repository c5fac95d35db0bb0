/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace format, shared by the runtime (writer), the recorder (which
 * drains shared memory into fntrace.data/) and the report (reader).
 *
 * Shared memory: a struct ft_shm header, then nr_chunks chunks of
 * chunk_size bytes, each starting at a page boundary.  A thread owns one
 * chunk at a time: it takes a FREE chunk, fills it with events, marks it
 * FULL and wakes the recorder if it sleeps; the recorder writes it out,
 * zeroes it and frees it.  With no recorder (FT_SHM_OVERWRITE) a full
 * chunk is taken again for new events, its old ones lost, as the kernel's
 * ring buffer overwrites: first the chunks a newer one of their thread
 * has superseded (FT_CHUNK_OLD).  Many small chunks rather than a few
 * large ones (chunk_size from the buffer's size, shm.h): each thread
 * holds one while it writes, so their number bounds how many threads may
 * write at once.
 * A chunk's events end at `used` bytes or where the next event would start
 * with a zero word: chunks are zeroed before reuse, and no event starts
 * with a zero word, so the recorder can still read the chunks of a process
 * that died mid-write.  (comm is NUL-terminated only if shorter than 16.)
 *
 * fntrace.data/trace.dat: a struct ft_file_header, then chunks as written:
 * a struct ft_chunk (with `used` set) followed by `used` bytes of events.
 *
 * Events are 32-bit words.  Shared memory is in the byte order of the
 * traced program, whose runtime writes it natively: ft_shm.word_order
 * says which, and a recorder of the other order (x86_64 tracing a mips
 * program under qemu) swaps what it reads.  trace.dat is in the order its
 * file header says, the recorder's own.  Times are clock ticks
 * (arch_clock()), each event's time a delta from the previous event of the
 * same thread and context; a chunk's first delta is from
 * ft_chunk.start_time.
 *
 * A chunk also says the graph depth its first event comes at
 * (ft_chunk.depth), so that a reader that does not have the chunks
 * before it (dropped by record --max-size, overwritten in the ring, read
 * from a running process) still nests what follows: it resumes there as
 * after a LOST.  Only the depth: which calls were open before the gap
 * and still are is not known, so a reader closes them all first.
 *
 * A LOST says where the nesting goes on after the events it counts:
 * frames deeper than its depth returned unseen, those up to it are the
 * calls open before.  Where calls were entered unseen too, a second
 * LOST, of no events, follows at the depth they reached.
 *
 * A thread writes in one of two contexts, as the kernel's tracer has one
 * per interrupt level: 0, its own, and 1, a signal handler that ran while
 * the thread was inside the tracer.  Each context takes chunks of its
 * own, with its own seq numbering and delta chain, and keeps its own graph
 * depth (a LOST's payload); a reader merges the two streams of a thread by
 * time, context 1's nesting inside context 0's.  Events of a handler that
 * interrupted context 1 inside the tracer are counted lost, and the count
 * is written as a LOST event in context 1.
 *
 *   ENTRY  ....................................0   function entry (graph)
 *          [31:19] delta (13 bits)  [18:1] function id (18 bits)
 *   EXIT   ...................................01   function exit (graph)
 *          [31:2]  delta (30 bits)
 *   LONG   ...................................11   anything else:
 *          [31:8]  payload (24 bits)  [7:2] type, followed by the type's
 *          extra words (FT_LONG_WORDS).
 *
 * Function ids start at 1 and index the process's funcs-<pid> file.
 */
#ifndef FNTRACE_TRACE_FORMAT_H
#define FNTRACE_TRACE_FORMAT_H

/*
 * The numbers the runtime's assembly writes events with too (the fast
 * paths of src/arch/x86_64/entry.S), which includes this file: for the
 * assembler, FT_U() drops the C suffix, as the kernel's _AC() does.
 */
#ifdef __ASSEMBLER__
#define FT_U(x)		x
#else
#define FT_U(x)		x##u
#endif

/* The three short forms. */
#define FT_ENTRY_ID_BITS	18
#define FT_ENTRY_DELTA_BITS	13
#define FT_EXIT_DELTA_BITS	30
#define FT_ENTRY_MAX_ID		((FT_U(1) << FT_ENTRY_ID_BITS) - 1)
#define FT_ENTRY_MAX_DELTA	((FT_U(1) << FT_ENTRY_DELTA_BITS) - 1)
#define FT_EXIT_MAX_DELTA	((FT_U(1) << FT_EXIT_DELTA_BITS) - 1)

/* Most words a writer may emit for one event: a CPU change, a TIME, and
 * the longest fixed event (FT_LONG_CALL). */
#define FT_MAX_EVENT_WORDS	(1 + 3 + 5)
/* Bytes of a trace_marker write kept: the longest event of all, which a
 * chunk must hold (shm.h's FT_CHUNK_MIN). */
#define FT_MARKER_MAX		4096

#ifndef __ASSEMBLER__

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "crash.h"

#define FT_SHM_MAGIC	"FNTRACE\x01"
#define FT_FILE_MAGIC	"FNTRDAT\x01"
#define FT_VERSION	2	/* 2: ft_chunk.context */
#define FT_SHM_VERSION	7	/* 4: chunk_size varies, ft_shm.waiters,
				 * the state word's generation; 5: the
				 * crash stamp and the tracer's name;
				 * 6: the control threads' ring; 7: the
				 * runtime's own work's windows */
#define FT_WORD_ORDER	0x01020304u
#define FT_CONTROL_TIDS	64
#define FT_OWN_WINDOWS	32
#define FT_THREAD_WINDOWS	1024
/* This side's byte order (runtime or recorder). */
#define FT_BIG_ENDIAN	(__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

/*
 * A chunk's state word: [1:0] enum ft_chunk_state, [2] FT_CHUNK_OLD,
 * [31:3] a generation, one more each time a thread takes the chunk, so
 * that a compare-and-swap on the word never mistakes one use of the chunk
 * for another (a thread marking its previous chunk superseded while a
 * steal and a publish have made it another thread's newest).  Whoever
 * changes the state keeps the generation; only taking moves it on.
 */
enum ft_chunk_state {
	FT_CHUNK_FREE,
	FT_CHUNK_FILLING,
	FT_CHUNK_FULL,
	FT_CHUNK_READING,	/* full, being copied: not to be reused */
};

#define FT_CHUNK_STATE		0x3u	/* the enum ft_chunk_state bits */
#define FT_CHUNK_OLD		0x4u	/* full, and its thread's context has
					 * published a newer chunk since: the
					 * first to overwrite */
#define FT_CHUNK_GEN_ONE	0x8u	/* one generation */

static inline unsigned ft_chunk_state(uint32_t word)
{
	return word & FT_CHUNK_STATE;
}

/* The word with its state replaced, generation (and age) kept. */
static inline uint32_t ft_chunk_with_state(uint32_t word, enum ft_chunk_state state)
{
	return (word & ~FT_CHUNK_STATE) | state;
}

/* Shared-memory flags. */
#define FT_SHM_OVERWRITE	0x1	/* no recorder: when no chunk is free, a
					 * full one is reused, superseded ones
					 * first (the kernel's overwrite mode) */
#define FT_SHM_KILLED		0x2	/* a runtime switched its tracing off
					 * (ftrace_kill): said to the user */
#define FT_SHM_OWN_WORK		0x4	/* a recorder of the kernel's system
					 * calls or faults wants the runtime's
					 * own work's windows (own_windows) */

/*
 * The runtime's own clock samples, (ticks of the clock its events carry,
 * CLOCK_MONOTONIC ns): its first, and its latest, taken whenever a chunk
 * is handed over.  The recorder's clock is not the program's under
 * qemu-user (aarch64's counter runs at its own rate there).  A writer
 * makes seq odd (a failed compare-and-swap: someone else samples) for the
 * time it writes the latest pair; a reader retries while seq is odd or
 * changed.
 */
struct ft_shm_clock {
	_Atomic uint32_t seq;
	uint32_t pad;
	uint64_t ticks[2];
	uint64_t ns[2];
};

/*
 * A stretch of time in which the runtime worked on a program's thread
 * (its start-up, a dlopen()ed module read and patched): the system calls
 * the thread made in it are fntrace's, not the program's.  Words only, so
 * that 32- and 64-bit sides lay it out alike.  `seq` is the window's
 * number + 1 once its words are whole, 0 while a writer fills the slot
 * (a seqlock: a reader takes the words only if seq read before and after
 * them is the number it expects).
 */
struct ft_own_window {
	_Atomic uint32_t seq;
	_Atomic uint32_t pid, tid;
	_Atomic uint32_t from[2], to[2];	/* CLOCK_MONOTONIC ns (lo, hi) */
	uint32_t pad;
};

/*
 * The header keeps apart, a cache line each, what is read at every step
 * but never changes, what the program's threads change as they take and
 * publish chunks, what a reader changes, and the clock: with chunks
 * handed over thousands of times a second, a line both sides write to
 * would go back and forth between their CPUs at every step.
 */
struct ft_shm {
	char magic[8];
	uint32_t version;
	uint32_t nr_chunks;
	uint32_t chunk_size;		/* bytes, header included */
	uint32_t chunks_offset;		/* from the start of the region */
	_Atomic uint32_t flags;		/* FT_SHM_* (seldom changed) */
	uint32_t word_order;		/* FT_WORD_ORDER in the memory's order */

	/* The writers': */
	_Alignas(64) _Atomic uint32_t published;	/* +1 on every FULL chunk,
							 * and every request for
							 * a file */
	_Atomic uint32_t hand;		/* where a search for a chunk to take
					 * starts: after the last one taken */
	_Atomic uint64_t order;		/* publish counter, for ft_chunk.order */
	_Atomic uint64_t lost;		/* events dropped, process-wide: a thread
					 * that ends with no chunk to say its
					 * losses in is counted here too */

	/* A reader's, waiting for chunks (shm.c), and freeing them: */
	_Alignas(64) _Atomic uint32_t waiters;	/* readers about to sleep, or
						 * asleep */
	_Atomic uint32_t wake_at;	/* `published` that wakes them */
	_Atomic uint32_t wakes;		/* futex word: +1 on every wake */
	_Atomic uint32_t freed;		/* +1 whenever a reader frees chunks */

	_Alignas(64) struct ft_shm_clock clock;

	/* For a reader that copies the ring after the process has ended: who
	 * crashed (crash.h), and the tracer whose events it holds, kept by
	 * the runtime as it switches. */
	_Alignas(64) struct ft_crash crash;
	char tracer[24];
	/* The runtimes' control threads (fntrace-ctl), the last
	 * FT_CONTROL_TIDS to start, 0 in a slot none took: their system
	 * calls are fntrace's, not the program's, and a recorder of the
	 * kernel's events (record -e) leaves them out.  The processes of a
	 * recording (forks, execs) share the buffer, and a thread's events
	 * may be filed after others have started: one word would be lost. */
	_Atomic uint32_t control_tids[FT_CONTROL_TIDS];
	_Atomic uint32_t control_next;	/* the slot the next one takes */
	_Atomic uint32_t control_noted;	/* +1 once its tid is in the slot */
	/* Threads begun, in every process of the recording: each thread's
	 * chunks carry its number (ft_seq_first). */
	_Atomic uint32_t threads_begun;
	/* The runtimes' own work on program threads, the last
	 * FT_OWN_WINDOWS of every process of the recording (a start-up, a
	 * dlopen), and apart, not to push those out, the last
	 * FT_THREAD_WINDOWS of the threads' own shares (a thread's state
	 * made, its name asked, the recorder woken): a recorder of the
	 * kernel's events (record -e) files them with the events, for a
	 * reader to tell those calls apart. */
	_Alignas(64) struct ft_own_window own_windows[FT_OWN_WINDOWS];
	_Atomic uint32_t own_next;	/* the number the next window takes */
	_Alignas(64) struct ft_own_window thread_windows[FT_THREAD_WINDOWS];
	_Atomic uint32_t thread_next;

	_Alignas(64) _Atomic uint32_t state[];	/* one word per chunk: its
						 * state, age and generation
						 * (above) */
};

struct ft_chunk {
	uint32_t pid;
	uint32_t tid;
	uint64_t seq;			/* per thread: ft_seq_first(), then
					 * one more each chunk */
	uint64_t start_time;		/* the first delta is from here */
	uint32_t used;			/* bytes of events; 0 while filling */
	uint32_t cpu;			/* CPU when the chunk was taken, or ~0 */
	char comm[16];			/* thread name when the chunk was taken */
	uint64_t order;			/* when it was published, process-wide */
	uint32_t consumed;		/* bytes a consuming reader has taken; in
					 * a trace file, where the piece begins in
					 * its chunk (ft_piece_mark) */
	uint32_t image;			/* which program the pid runs: 0, then +1
					 * after each exec (funcs-PID.IMAGE) */
	uint32_t context;		/* 0, or 1: events of signal handlers that
					 * ran while the thread was in the tracer */
	uint32_t depth;			/* the context's graph depth where its
					 * events start, as a LOST says it, plus
					 * one; 0: not said (an older runtime) */
};

struct ft_file_header {
	char magic[8];
	uint32_t version;
	uint32_t word_order;		/* FT_WORD_ORDER as written by the host */
};

#define FT_LONG_MAX_PAYLOAD	((1u << 24) - 1)

/*
 * A chunk's seq: in its high word, which thread of the recording took it
 * (one more for each thread begun, in any process that shares the
 * buffer); in its low word, its number among that thread's chunks, from
 * 0.  The kernel gives a thread's tid (or a process's pid) again once it
 * has ended, and a long recording outlives the kernel's turn of them
 * (pid_max, 32768 here): the later thread's chunks then sort after the
 * earlier's, not between them, and begin a stream of their own (number
 * 0).  An older runtime's high word is 0.
 */
static inline uint64_t ft_seq_first(uint32_t thread)
{
	return (uint64_t)thread << 32;
}

static inline uint32_t ft_seq_number(uint64_t seq)
{
	return (uint32_t)seq;
}

/* A chunk is written in pieces as its thread fills it.  Each piece's
 * `consumed` says where in the chunk it begins, plus one (0: not said,
 * an older recorder), so that a reader knows a piece missing between
 * two it has: pieces are not written in their thread's order (a chunk
 * still being filled may go out before the rest of the one before it),
 * and record --max-size may drop the one between. */
static inline uint32_t ft_piece_mark(uint32_t from)
{
	return from + 1;
}

static inline uint32_t ft_entry_word(uint32_t id, uint32_t delta)
{
	return delta << (FT_ENTRY_ID_BITS + 1) | id << 1;
}

static inline uint32_t ft_exit_word(uint32_t delta)
{
	return delta << 2 | 1;
}

static inline uint32_t ft_long_word(unsigned type, uint32_t payload)
{
	return payload << 8 | type << 2 | 3;
}

/*
 * Long events.  "delta" in the payload is the time delta, as in the short
 * forms; a writer whose delta does not fit writes FT_LONG_TIME first.
 */
enum ft_long_type {
	FT_LONG_TIME = 1,	/* +2: absolute time (lo, hi); payload 0 */
	FT_LONG_ENTRY = 2,	/* +1: function id; payload delta */
	FT_LONG_FUNC = 3,	/* +3: id, parent ip (lo, hi); payload delta.
				 * An event of the function tracer. */
	FT_LONG_EXIT_RET = 4,	/* +2: return value (lo, hi); payload delta */
	FT_LONG_LOST = 5,	/* +2: events lost (lo, hi); payload = the
				 * graph depth the trace goes on at (above) */
	FT_LONG_CPU = 6,	/* +0: payload = the CPU the thread now runs on */
	FT_LONG_UNWIND = 7,	/* +0: exit of a frame skipped by longjmp or
				 * an exception; payload delta */
	FT_LONG_MARKER = 8,	/* +n: payload = text length in bytes; the text
				 * follows, NUL-padded to whole words */
	FT_LONG_OVERRUN = 9,	/* +2: calls so far (lo, hi) that the shadow
				 * stack had no room for; payload 0.  No
				 * longer written (FT_LONG_MISSED says it),
				 * still read */
	FT_LONG_ARGS = 10,	/* +n: values of a call (below); payload
				 * [15:0] n, [16] FT_ARGS_OF_RETURN */
	FT_LONG_MISSED = 11,	/* +2: that many more calls (lo, hi) the
				 * graph tracer saw but could not follow;
				 * payload: why (enum ft_missed_why).  A
				 * reader adds them up, as it does LOST's */
	FT_LONG_CALL = 12,	/* +4: a whole call, written at its exit
				 * (tracing_thresh: no entry was written):
				 * function id, depth (below), duration in
				 * ticks (lo, hi); payload delta */
	FT_LONG_STACK = 13,	/* +n: a stack trace (the stacktrace trigger),
				 * its frames innermost first: payload [11:0]
				 * function ids, a word each, then [23:12]
				 * return addresses (lo, hi), for the frames
				 * beyond the last id.  It takes no time: a
				 * TIME comes before it */
	FT_LONG_TYPES
};

/* Why FT_LONG_MISSED's calls are not in the graph. */
enum ft_missed_why {
	FT_MISSED_OVERRUN,	/* the shadow stack had no room for their
				 * frames: the kernel's overrun */
	FT_MISSED_SUSPENDED,	/* the thread switched stacks (swapcontext):
				 * graph tracing suspended for it */
	FT_MISSED_STOPPED,	/* the shadow stack fell out of step: graph
				 * tracing stopped */
	FT_MISSED_KINDS
};

/* Extra words after a long event's first word; -1: see the payload. */
static const int8_t FT_LONG_WORDS[FT_LONG_TYPES] = {
	[FT_LONG_TIME] = 2,
	[FT_LONG_ENTRY] = 1,
	[FT_LONG_FUNC] = 3,
	[FT_LONG_EXIT_RET] = 2,
	[FT_LONG_LOST] = 2,
	[FT_LONG_CPU] = 0,
	[FT_LONG_UNWIND] = 0,
	[FT_LONG_MARKER] = -1,
	[FT_LONG_OVERRUN] = 2,
	[FT_LONG_ARGS] = -1,
	[FT_LONG_MISSED] = 2,
	[FT_LONG_CALL] = 4,
	[FT_LONG_STACK] = -1,
};

/* FT_LONG_STACK's frames, and the most one holds. */
#define FT_STACK_MAX_FRAMES	128
static inline unsigned ft_stack_ids(uint32_t head)
{
	return (head >> 8) & 0xfff;
}

static inline unsigned ft_stack_addrs(uint32_t head)
{
	return (head >> 20) & 0xfff;
}

static inline uint32_t ft_stack_word(unsigned ids, unsigned addrs)
{
	return ft_long_word(FT_LONG_STACK, (addrs & 0xfff) << 12 | (ids & 0xfff));
}

/*
 * FT_LONG_CALL's depth word: the graph frames open around the call, as
 * the kernel's return event carries its depth, so that a reader that saw
 * none of their entries still indents it; and whether the call was left
 * by a jump (longjmp, an exception) rather than returned.
 */
#define FT_CALL_DEPTH_MASK	0xffffu
#define FT_CALL_UNWOUND		(1u << 31)

/*
 * FT_LONG_ARGS: what a call was given (-A), or gave back (-R).  It comes
 * right after the ENTRY (or FUNC) event of the call it describes or, with
 * FT_ARGS_OF_RETURN, right before the EXIT it describes; it takes no time.
 * Its n words are items, each a head word and its value:
 *
 *   head   [7:0] type (FT_ARG_*)  [15:8] position (1.. the argument,
 *          0 the return value)  [23:16] size: an integer's bytes (1, 2, 4,
 *          8: the value is truncated, then sign- or zero-extended), a
 *          string's bytes  [24] FT_ARG_TRUNCATED: a longer string was cut
 *          [27:25] offset: the value began this many bytes into its
 *          register, counted from the least significant (a field of a
 *          struct passed in registers)  [28] FT_ARG_FP_IN_INT: a float
 *          or double taken from an integer register (such a field)
 *   value  two words (lo, hi), or a string's bytes NUL-padded to whole
 *          words (bytes, not swapped with the word order)
 */
#define FT_ARGS_OF_RETURN	(1u << 16)
#define FT_ARGS_WORDS_MASK	0xffffu
#define FT_ARG_TRUNCATED	(1u << 24)
#define FT_ARG_OFFSET_SHIFT	25
#define FT_ARG_OFFSET_MASK	7u
#define FT_ARG_FP_IN_INT	(1u << 28)
#define FT_ARG_STRING_MAX	64	/* bytes kept of a string */

enum ft_arg_type {
	FT_ARG_SIGNED = 1,	/* decimal: arg1, /i8../i64 */
	FT_ARG_UNSIGNED = 2,	/* decimal: /u8../u64 */
	FT_ARG_HEX = 3,		/* /x */
	FT_ARG_CHAR = 4,	/* /c: a character, quoted */
	FT_ARG_POINTER = 5,	/* /p */
	FT_ARG_DOUBLE = 6,	/* farg, /f64: the value's bits */
	FT_ARG_FLOAT = 7,	/* /f32: the low word's bits */
	FT_ARG_STRING = 8,	/* /s: the bytes read, quoted */
	FT_ARG_BAD_STRING = 9,	/* /s that could not be read: the pointer */
	FT_ARG_BOOL = 10,	/* /b: false, or true */
	FT_ARG_TYPES
};

static inline uint32_t ft_arg_head(unsigned type, unsigned pos, unsigned size)
{
	return (size & 0xff) << 16 | (pos & 0xff) << 8 | type;
}

/* Words of the item whose head is head (its value included). */
static inline unsigned ft_arg_words(uint32_t head)
{
	if ((head & 0xff) == FT_ARG_STRING)
		return 1 + (((head >> 16) & 0xff) + 3) / 4;
	return 3;
}

/* Words the event starting with head occupies, or -1 if head is not the
 * start of an event.  Readers walk a chunk with it: payload words may be
 * zero, so only a zero where an event should start marks the end. */
static inline int ft_event_words(uint32_t head)
{
	unsigned type = (head >> 2) & 0x3f;

	if (head == 0)
		return -1;
	if ((head & 3) != 3)
		return 1;
	if (type == 0 || type >= FT_LONG_TYPES)
		return -1;
	if (type == FT_LONG_MARKER)
		return 1 + (int)(((head >> 8) + 3) / 4);
	if (type == FT_LONG_ARGS)
		return 1 + (int)((head >> 8) & FT_ARGS_WORDS_MASK);
	if (type == FT_LONG_STACK)
		return 1 + (int)(ft_stack_ids(head) + 2 * ft_stack_addrs(head));
	return 1 + FT_LONG_WORDS[type];
}

/* The time after the event at w (whose length ft_event_words() gave),
 * the time before it being now. */
static inline uint64_t ft_event_time(const uint32_t *w, uint64_t now)
{
	uint32_t head = w[0];
	unsigned type = (head >> 2) & 0x3f;

	if ((head & 1) == 0)
		return now + (head >> (FT_ENTRY_ID_BITS + 1));
	if ((head & 3) == 1)
		return now + (head >> 2);
	switch (type) {
	case FT_LONG_TIME:
		return (uint64_t)w[2] << 32 | w[1];
	case FT_LONG_ENTRY:
	case FT_LONG_FUNC:
	case FT_LONG_EXIT_RET:
	case FT_LONG_UNWIND:
	case FT_LONG_CALL:
		return now + (head >> 8);
	default:
		return now;
	}
}

/*
 * A process image's function table in a data directory: DIR/funcs-PID,
 * or DIR/funcs-PID.IMAGE for the IMAGE-th program the pid has exec'd
 * (the chunk's image field). DIR NULL gives the bare name.
 */
static inline int ft_funcs_path(char *buf, size_t size, const char *dir,
				uint32_t pid, uint32_t image)
{
	const char *sep = dir ? "/" : "";

	if (!dir)
		dir = "";
	if (image)
		return snprintf(buf, size, "%s%sfuncs-%u.%u", dir, sep, pid, image);
	return snprintf(buf, size, "%s%sfuncs-%u", dir, sep, pid);
}

#endif /* __ASSEMBLER__ */
#endif
