/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shared-memory buffers a recorder drains (layout in
 * ../common/trace_format.h).
 */
#ifndef FNTRACE_BUFFER_H
#define FNTRACE_BUFFER_H

#include <stdint.h>

struct ft_context;
struct ft_thread;

/* Map the shared memory a recorder (or run --dump-on-oops) made, passed
 * as an inherited fd; exec_name tells an exec'd image its number. */
int ft_buffer_attach(int fd, const char *exec_name);
int ft_buffer_attached(void);
/* With no recorder: a buffer of our own, which overwrites when full,
 * made when the first tracer starts, of the size set before (in KiB;
 * -1 once it exists). */
int ft_buffer_create(void);
int ft_buffer_set_size(unsigned size_kb);
unsigned ft_buffer_size_kb(void);
/* The control thread's tid into the buffer, if there is one yet: at
 * the thread's start, and at the buffer's. */
void ft_buffer_note_control_tid(void);
/* The thread's name asked, for its chunks to carry: as its state is
 * made (and again every FT_CHUNK_MAX bytes of its events). */
void ft_buffer_name(struct ft_thread *t);
/* The buffer in use, and its fd (for a recorder attaching later). */
struct ft_shm *ft_buffer_shm(void);
int ft_buffer_fd(void);
/* The thread's chunk is full: the next one (the event writers' slow
 * path, events.h): 1, or 0 if there is none, the event counted lost. */
int ft_buffer_refill(struct ft_context *c);
/* Room for words more words in the thread's chunk; -1 if none. */
int ft_buffer_reserve(struct ft_context *c, unsigned words);
/* n more events c lost: said in its chunk now, or in its next chunk. */
void ft_buffer_add_lost(struct ft_context *c, uint64_t n);
/* Wake the recorder now, if it sleeps: a request for a file waits for
 * its answer (recorder_files.c).  (A chunk handed over wakes it only
 * once enough are: ft_shm_wake.) */
void ft_buffer_wake_recorder(void);
/* n events lost by threads with no context to say so in (shared_tls.c):
 * counted in the shared total only. */
void ft_buffer_count_lost(uint64_t n);
/* Hand the thread's chunks to the recorder (thread exit, flush). */
void ft_buffer_release(struct ft_thread *t);
/* A thread's chunks from now on are a stream of its own: numbered from
 * 0, after every stream begun before in the recording (ft_seq_first). */
void ft_buffer_thread_begins(struct ft_thread *t);
/* In a forked child: the parent's chunks are not ours to write, and the
 * thread begins again. */
void ft_buffer_forget(struct ft_thread *t);

#endif
