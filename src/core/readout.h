/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the process's own buffer through the control endpoint.  The
 * runtime formats nothing: it sends a stream that `fntrace ctl` turns into
 * the kernel's text with the report's code.
 *
 *   fntrace-stream 1 ORDER\n    ORDER: le or be, the byte order of the chunks
 *   info LEN\n  <what fntrace.data/info holds>
 *   funcs PID LEN\n  <what funcs-PID holds>
 *   chunk LEN\n  <struct ft_chunk, `used` bytes of events>   (repeated)
 *   funcs PID[.IMAGE] LEN\n  <funcs-PID[.IMAGE]>   (each other process
 *                                                   whose chunks went out)
 *   end\n                                                  (trace only)
 *
 * Every chunk sent is self-contained: a piece of a chunk still being
 * filled goes with the time its first event is relative to.
 */
#ifndef FNTRACE_READOUT_H
#define FNTRACE_READOUT_H

#include <stddef.h>

struct ctl_out;
struct ft_shm;

/* trace: everything in the buffer not consumed yet; a write clears it. */
int ft_readout_trace(struct ctl_out *o, int arg);
/* The same of shm (the ring, or a snapshot's copy of it), its events
 * named as tracer's, with extra lines for the info section (or NULL). */
int ft_readout_stream(struct ctl_out *o, struct ft_shm *shm, const char *tracer,
		      const char *extra);
int ft_readout_clear(const char *value, int append, int arg, char *err, size_t errlen);
/* trace_pipe: consume events as they come, until the reader goes away. */
int ft_readout_pipe(struct ctl_out *o, int arg);
/* trace_stat/function: "NAME\tHITS\tTIME_NS\tSQ_US2" per function. */
int ft_readout_profile(struct ctl_out *o, int arg);
/* The funcs table alone. */
int ft_readout_funcs(struct ctl_out *o, int arg);
/* trace_marker: a marker event in the writing thread's stream. */
int ft_marker_write(const char *text, size_t len);
/* The first clock sample, taken at start-up, for info's clock_sync. */
void ft_readout_clock_start(void);

#endif
