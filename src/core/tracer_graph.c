// SPDX-License-Identifier: GPL-2.0
/*
 * The function graph hooks.  On entry the real return address is swapped
 * for return_to_handler and kept, with the address of its slot and the
 * entry time, on a per-thread shadow stack.  On return the frame whose
 * slot the return came from is popped: frames above it were skipped
 * (longjmp, an exception) and are closed as unwound.
 *
 * A signal handler that runs while its thread is inside a hook has the
 * thread's signal context (events.h): its frames go on that context's own
 * stack, which a return looks at first while it has frames, since the
 * handler's frames are the newest the thread has.
 *
 * set_graph_function limits tracing to calls made inside the functions it
 * names; set_graph_notrace hides everything below the functions it names
 * (their frames are kept, untraced, to know when they end).
 *
 * They and max_graph_depth shape the graph only, as in the kernel: a call
 * the graph does not take gets, for the profiler, a frame of its own,
 * which the graph's depth and filters leave out.
 *
 * With tracing_thresh set, the kernel's rule: a call's entry writes
 * nothing, and its exit writes the call whole (FT_LONG_CALL: function,
 * depth, duration) if it lasted at least that long.  Its frame is kept
 * all the same, for the entry's time.
 */
#include "args.h"
#include "asm_offsets.h"
#include "events.h"
#include "messages.h"
#include "profile.h"
#include "readout.h"
#include "shared_tls.h"
#include "thread.h"
#include "thresh.h"
#include "tracers.h"
#include "tracing.h"
#include "triggers.h"

#include <stdlib.h>

/* A paired frame's real return address as ftrace_return_to_handler gives
 * it back: its top bit set (user addresses never have it), which the
 * arch's return_to_handler takes off to choose a ret over a jump. */
#define RET_PAIRED	((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))

/* Both read by the fast paths in assembly too (asm_offsets.h). */
struct ft_graph_config ft_graph;
int ft_graph_broken;

#if ARCH_GRAPH_FAST_PATHS
_Static_assert(offsetof(struct ft_context, pos) == FT_CTX_POS &&
	       offsetof(struct ft_context, end) == FT_CTX_END &&
	       offsetof(struct ft_context, last) == FT_CTX_LAST &&
	       offsetof(struct ft_context, busy) == FT_CTX_BUSY &&
	       offsetof(struct ft_context, depth) == FT_CTX_DEPTH &&
	       offsetof(struct ft_context, max_depth) == FT_CTX_MAX_DEPTH &&
	       offsetof(struct ft_context, cpu) == FT_CTX_CPU &&
	       offsetof(struct ft_context, busy_sp) == FT_CTX_BUSY_SP &&
	       offsetof(struct ft_context, overruns) == FT_CTX_OVERRUNS &&
	       offsetof(struct ft_context, overruns_written) == FT_CTX_OVERRUNS_WRITTEN &&
	       offsetof(struct ft_context, graph_off) == FT_CTX_GRAPH_OFF &&
	       sizeof(struct ft_context) == FT_CTX_SIZE &&
	       offsetof(struct ft_thread, own) == 0,
	       "asm_offsets.h describes a thread's own context");
_Static_assert(offsetof(struct shadow_frame, ret) == FT_FRAME_RET &&
	       offsetof(struct shadow_frame, retp) == FT_FRAME_RETP &&
	       offsetof(struct shadow_frame, id) == FT_FRAME_ID &&
	       offsetof(struct shadow_frame, flags) == FT_FRAME_FLAGS &&
	       offsetof(struct shadow_frame, time) == FT_FRAME_TIME &&
	       sizeof(struct shadow_frame) == 1u << FT_FRAME_SHIFT,
	       "asm_offsets.h describes a shadow frame");
_Static_assert(offsetof(struct ft_graph_config, trace) == FT_GRAPH_TRACE &&
	       offsetof(struct ft_graph_config, profile) == FT_GRAPH_SETTINGS &&
	       offsetof(struct ft_graph_config, args) + sizeof(int) == FT_GRAPH_PROBES &&
	       offsetof(struct ft_graph_config, probes) == FT_GRAPH_PROBES &&
	       offsetof(struct ft_graph_config, thresh) == FT_GRAPH_THRESH &&
	       sizeof(struct ft_graph_config) == FT_GRAPH_THRESH + 8,
	       "asm_offsets.h describes the graph settings");
#endif

/* With graph filters on: may this call be graph-traced, and how?  The
 * signal context's frames, when it has any, nest inside the thread's own,
 * so the counts of both apply. */
static int graph_filter(const struct ft_thread *t, uint32_t rec_flags, uint32_t *flags)
{
	if (t->own.notrace_frames + t->signal.notrace_frames)
		return 0;
	if (rec_flags & FTRACE_FL_GRAPH_NOTRACE) {
		*flags = FRAME_NOTRACE;
		return 1;
	}
	if (rec_flags & FTRACE_FL_GRAPH_FUNC)
		*flags = FRAME_FUNCTION;
	return !ft_graph.functions || t->own.graph_functions + t->signal.graph_functions ||
	       *flags;
}

/* Past max_graph_depth?  Counting, for the signal context, the frames it
 * nests inside. */
static int too_deep(const struct ft_thread *t, const struct ft_context *c)
{
	return ft_graph.max_depth &&
	       ft_graph_depth(c) + (c->number ? ft_graph_depth(&t->own) : 0) >= ft_graph.max_depth;
}

/* tracing_thresh's frames wrote no entry, and the profiler's alone are
 * not the graph's: counted here, when a chunk is taken or a loss noted,
 * rather than by every push and pop. */
uint32_t ft_trace_frames(const struct ft_context *c, uint32_t n)
{
	const struct shadow_frame *f = ft_stack(c);
	uint32_t frames = 0;

	for (uint32_t i = 0; i < n; i++)
		frames += !(f[i].flags & (FRAME_WHOLE | FRAME_PROFILE_ONLY));
	return frames;
}

static ft_inline void push_frame(struct ft_context *c, uintptr_t *retp, uint32_t id,
				  uint32_t flags, uint32_t rec_flags, uint64_t now)
{
	struct shadow_frame *frame = &ft_stack(c)[c->depth];

	frame->ret = *retp;
	frame->retp = retp;
	frame->id = id;
	frame->flags = flags;
	frame->time = now;
	c->graph_functions += !!(flags & FRAME_FUNCTION);
	c->notrace_frames += !!(flags & FRAME_NOTRACE);
	c->profile_frames += !!(flags & FRAME_PROFILE_ONLY);
	c->depth++;
	/* A function whose return sites are on returns through them. */
	if (!(rec_flags & FTRACE_FL_RETURNS))
		*retp = (uintptr_t)return_to_handler;
}

/* The entry event, with the call's values if set_ftrace_args names it. */
static ft_inline uint32_t write_entry(struct ft_context *c, uint32_t id, uint32_t rec_flags,
				      uint64_t now, const uintptr_t *regs)
{
	if (likely(!ft_graph.args) || !(rec_flags >> FTRACE_FL_ARGS_SHIFT)) {
		ev_entry(c, id, now);
		return FRAME_TRACED;
	}
	return FRAME_TRACED | (ft_args_entry(c, id, rec_flags, now, regs) ? FRAME_RETURN_ARGS : 0);
}

/*
 * Calls the graph cannot follow are counted, as the kernel counts its
 * overruns, and said in the trace (FT_LONG_MISSED): the first at once, so
 * that no trace with calls missing says none, then one note every
 * SAY_MISSED_EVERY calls, and the rest wherever the context can say it:
 * when a frame pops (room again), when the thread ends, execs or the
 * process exits (graph_say_missed).
 */
#define SAY_MISSED_EVERY 4096

static void say_missed(struct ft_context *c, enum ft_missed_why why, uint64_t total,
		       uint64_t *written)
{
	if (total != *written && ev_missed(c, why, total - *written))
		*written = total;
}

/* Why the calls of a thread whose graph is off are not followed. */
static enum ft_missed_why graph_off_why(const struct ft_thread *t)
{
	return t->own.graph_off ? FT_MISSED_SUSPENDED : FT_MISSED_STOPPED;
}

static void count_missed(struct ft_context *c, enum ft_missed_why why, uint64_t *total,
			 uint64_t *written)
{
	if ((++*total & (SAY_MISSED_EVERY - 1)) == 1)
		say_missed(c, why, *total, written);
}

/* A call that would have been traced, but the shadow stack is full or
 * the thread's graph is off.  (The profiler misses it too, unsaid, as the
 * kernel's does at an overrun.) */
static ft_cold void graph_missed(const struct ft_thread *t, struct ft_context *c,
				 uint32_t flags)
{
	if (!ft_graph.trace || !ft_tracing_on || (flags & (FRAME_NOTRACE | FRAME_PROFILE_ONLY)))
		return;
	if (ft_graph_broken | t->own.graph_off)
		count_missed(c, graph_off_why(t), &c->off_calls, &c->off_calls_written);
	else
		count_missed(c, FT_MISSED_OVERRUN, &c->overruns, &c->overruns_written);
}

static ft_inline void graph_entry(struct ft_thread *t, struct ft_context *c,
				   uintptr_t self_ret, uintptr_t *retp, const uintptr_t *regs)
{
	uint32_t id = ftrace_rec_lookup(self_ret), flags = 0, rec_flags;
	uint64_t now;

	if (unlikely(!id))
		return;
	/* Read once: an update may rewrite the word meanwhile. */
	rec_flags = ftrace_rec_get(id)->flags;
	/* Its site is on for a trigger alone, as the kernel's probe ops
	 * calls a function the graph's filter leaves out. */
	if (unlikely(rec_flags & FTRACE_FL_PROBE_ONLY))
		return;
	if (too_deep(t, c) || (unlikely(ft_graph.filters) && !graph_filter(t, rec_flags, &flags))) {
		if (!ft_graph.profile)
			return;
		flags = FRAME_PROFILE_ONLY;
	}
	if (unlikely(ft_graph_broken | t->own.graph_off | (c->depth >= c->max_depth))) {
		graph_missed(t, c, flags);
		return;
	}
	now = arch_clock();
	/* The event before the push: a LOST note it brings must carry the
	 * depth before this frame. */
	if (ft_graph.trace && ft_tracing_on && !(flags & (FRAME_NOTRACE | FRAME_PROFILE_ONLY)))
		flags |= unlikely(ft_graph.thresh) ? FRAME_WHOLE :
			 write_entry(c, id, rec_flags, now, regs);
	if (unlikely(rec_flags & FTRACE_FL_TIMED))
		flags |= FRAME_TIMED;
	if (ARCH_DETOUR_PAIRED && ftrace_rec_get(id)->kind == SITE_DETOUR)
		flags |= FRAME_PAIRED;
	push_frame(c, retp, id, flags, rec_flags, now);
}

/* A signal landed inside a hook, and its handler made this call. */
static ft_cold void nested_entry(struct ft_thread *t, uintptr_t self_ret, uintptr_t *retp,
				 const uintptr_t *regs)
{
	struct ft_context *c = ft_signal_enter(t, (uintptr_t)retp);

	if (!c)
		return;
	graph_entry(t, c, self_ret, retp, regs);
	ft_signal_leave(t);
}

/* The nested path is a branch on the busy test the hook always made.  A
 * signal landing between the test and the store runs its handler's hooks
 * in full, in this same context, and leaves it as it found it: nothing
 * read before the store can have gone stale. */
void prepare_ftrace_return(uintptr_t self_ret, uintptr_t *retp, const uintptr_t *regs)
{
	struct ft_thread *t = ft_thread_get();

	if (unlikely(!t)) {
		ft_tls_untraced(ft_graph.trace ? 2 : 0);
		return;
	}
	if (unlikely(t->own.busy)) {
		nested_entry(t, self_ret, retp, regs);
		return;
	}
	ft_busy_enter(t);
	t->own.busy_sp = (uintptr_t)retp;
	graph_entry(t, &t->own, self_ret, retp, regs);
	ft_busy_leave(t);
}

/*
 * Where slots float, an unwinder walks live frames from the newest: the
 * one at key is the oldest of those at or below it.  Frames an exception
 * has unwound stay on the shadow stack until a handler catches it
 * (__cxa_begin_catch, unwind.c): a cleanup's _Unwind_Resume, called from
 * a frame above them, is newer than they are but its slot lies above
 * theirs.  A live frame's slot is always above every newer one's, so a
 * frame whose slot lies below a newer live frame's is one of those, and
 * skipped (else the unwinder, sent back below the cleanup's frame, would
 * run that cleanup again, for ever).
 */
static unsigned find_frame_unwinding(const struct ft_context *c, uintptr_t *key)
{
	uintptr_t *floor = NULL;
	unsigned found = 0;

	for (unsigned i = c->depth; i > 0; i--) {
		uintptr_t *slot = ft_stack(c)[i - 1].retp;

		if (slot < floor)
			continue;
		if (slot > key)
			break;
		found = i;
		floor = slot;
	}
	return found;
}

/*
 * The frame a return (or an unwinder) at key belongs to: normally the top
 * one.  Found by its slot; or, where slots float, by the word below the
 * CFA the frame leaves (key), at or below which its slot lies.  A return
 * is then the newest frame's, as in the kernel's arm64 ftrace: frames a
 * jump skipped were closed by the jump's wrapper, and a frame no wrapper
 * saw go (glibc's cancellation) may lie below the CFA as well, older than
 * the one returning.
 */
static unsigned find_frame(const struct ft_context *c, uintptr_t *key, int unwinding)
{
	unsigned i = c->depth;

	if (ARCH_RETURN_SLOT_FLOATS && unwinding)
		return find_frame_unwinding(c, key);
	if (ARCH_RETURN_SLOT_FLOATS)
		return i > 0 && ft_stack(c)[i - 1].retp <= key ? i : 0;
	while (i > 0 && ft_stack(c)[i - 1].retp != key)
		i--;
	return i;
}

uintptr_t graph_real_return(const struct ft_thread *t, uintptr_t *slot)
{
	unsigned i = find_frame(&t->signal, slot, 1);

	if (i)
		return ft_stack(&t->signal)[i - 1].ret;
	i = find_frame(&t->own, slot, 1);
	return i ? ft_stack(&t->own)[i - 1].ret : 0;
}

/* Close the top frame: returned (unwound = 0) or skipped. */
static ft_inline void pop_frame(struct ft_context *c, uint64_t now, uintptr_t retval,
				 int unwound, int quiet)
{
	struct shadow_frame *f = &ft_stack(c)[c->depth - 1];

	if (!quiet && (f->flags & FRAME_TRACED)) {
		if (unwound)
			ev_unwind(c, now);
		else if (unlikely(f->flags & FRAME_RETURN_ARGS))
			ft_args_exit(c, f->id, now, retval);
		else if (ft_graph.retval)
			ev_exit_ret(c, now, retval);
		else
			ev_exit(c, now);
	} else if (!quiet && (f->flags & FRAME_WHOLE) && ft_thresh_long_enough(f, now)) {
		ft_thresh_write(c, f, now, unwound);
	}
	if (!quiet && !unwound && ft_graph.profile)
		ft_profile_add(f->id, now - f->time);
	if (unlikely(f->flags & FRAME_TIMED) && !quiet)
		ft_trigger_timed_exit(f->id, c->thread->tid, f->time, now);
	c->graph_functions -= !!(f->flags & FRAME_FUNCTION);
	c->notrace_frames -= !!(f->flags & FRAME_NOTRACE);
	c->profile_frames -= !!(f->flags & FRAME_PROFILE_ONLY);
	c->depth--;
	if (unlikely(c->overruns != c->overruns_written) && !quiet && ft_graph.trace)
		say_missed(c, FT_MISSED_OVERRUN, c->overruns, &c->overruns_written);
}

/* No frame for this slot: the shadow stack is not what the real stack
 * is.  Return where the newest frame says and trace no more graphs
 * rather than guess again. */
static unsigned out_of_step(const struct ft_context *c)
{
	if (c->depth == 0) {
		ft_warn("function_graph: a return with nothing on the shadow stack");
		abort();
	}
	if (!ft_graph_broken)
		ft_warn("function_graph: shadow stack out of step; graph tracing stopped");
	ft_graph_broken = 1;
	return c->depth;
}

/* Pop frame i of c, and those above it as unwound; quiet: without
 * events (c's writer is busy). */
static ft_inline void close_frame(struct ft_context *c, unsigned i, uintptr_t retval,
				  int quiet)
{
	uint64_t now = arch_clock();

	while (c->depth > i)
		pop_frame(c, now, 0, 1, quiet);
	pop_frame(c, now, retval, 0, quiet);
}

/* Pop the frame of slot from c, as close_frame does.  Its real return
 * address. */
static ft_inline uintptr_t graph_return(struct ft_context *c, uintptr_t retval,
					uintptr_t *slot, int quiet)
{
	unsigned i = find_frame(c, slot, 0);
	uintptr_t ret;

	if (unlikely(i == 0))
		i = out_of_step(c);
	ret = ft_stack(c)[i - 1].ret;
	if (ARCH_DETOUR_PAIRED && (ft_stack(c)[i - 1].flags & FRAME_PAIRED))
		ret |= RET_PAIRED;
	close_frame(c, i, retval, quiet);
	return ret;
}

/*
 * A return while the thread's own context is busy: a frame of a signal
 * handler that interrupted a hook, on the signal context's stack.  Any
 * other (the program's unwinding reaching a frame while a hook runs) is
 * popped quietly from the stack it is on, as is one whose context is
 * busy: its writer is halfway through an event.
 */
static ft_cold uintptr_t nested_return(struct ft_thread *t, uintptr_t retval, uintptr_t *slot)
{
	struct ft_context *c = &t->signal;
	uintptr_t ret;

	if (!c->depth || !find_frame(c, slot, 0))
		return graph_return(&t->own, retval, slot, 1);
	if (c->busy)
		return graph_return(c, retval, slot, 1);
	c->busy = 1;
	c->busy_sp = (uintptr_t)slot;
	ret = graph_return(c, retval, slot, 0);
	ft_signal_leave(t);
	return ret;
}

/* As on entry, the busy test comes first and the clock after the store:
 * a handler that ran in between would leave the time read before stale. */
uintptr_t ftrace_return_to_handler(uintptr_t retval, uintptr_t *slot)
{
	struct ft_thread *t = ft_current;
	uintptr_t ret;

	if (unlikely(t->own.busy))
		return nested_return(t, retval, slot);
	t->own.busy = 1;
	t->own.busy_sp = (uintptr_t)slot;
	ret = graph_return(&t->own, retval, slot, 0);
	t->own.busy = 0;
	return ret;
}

/*
 * The frame a return site closes: the newest with its slot, above which
 * lie only frames of deeper slots (functions a jump skipped, or whose
 * return site was off when they returned).  0 if the returning function
 * has no frame: it was not traced.
 */
static ft_inline unsigned find_site_frame(const struct ft_context *c, uintptr_t *slot)
{
	unsigned i = c->depth;

	while (i > 0 && ft_stack(c)[i - 1].retp < slot)
		i--;
	return i > 0 && ft_stack(c)[i - 1].retp == slot ? i : 0;
}

/*
 * Frame i of c returns through its return site; or, where the site comes
 * before a tail call's jump, hands its slot to the function it jumps to.
 * That one's return is the frame's end, traced or not: the slot takes
 * return_to_handler now, as a hijacked function's would, and a traced
 * callee stacks its frame on the same slot, as under the hijack.
 */
static ft_inline void site_return(struct ft_context *c, unsigned i, uintptr_t retval,
				   uintptr_t *slot, int tail)
{
	uint64_t now = 0;

	if (!tail) {
		close_frame(c, i, retval, 0);
		return;
	}
	if (c->depth > i)
		now = arch_clock();	/* only frames a jump skipped close here */
	while (c->depth > i)
		pop_frame(c, now, 0, 1, 0);
	*slot = (uintptr_t)return_to_handler;
}

/* A return site run by a signal handler that interrupted a hook: only
 * the signal context's frames can be its own. */
static ft_cold void nested_site_return(struct ft_thread *t, uintptr_t retval, uintptr_t *slot,
				       int tail)
{
	struct ft_context *c = &t->signal;
	unsigned i = c->busy ? 0 : find_site_frame(c, slot);

	if (!i)
		return;
	c->busy = 1;
	c->busy_sp = (uintptr_t)slot;
	site_return(c, i, retval, slot, tail);
	ft_signal_leave(t);
}

/* From ftrace_return_caller (or, tail set, ftrace_tail_caller): a
 * function whose return address was left alone (returns.c) is about to
 * return through slot, or to jump.  One whose slot holds
 * return_to_handler (pushed before its module's return sites were on, or
 * a tail call's callee) is left to it. */
void ftrace_return_site(uintptr_t retval, uintptr_t *slot, int tail)
{
	struct ft_thread *t = ft_current;
	unsigned i;

	if (unlikely(!t) || *slot == (uintptr_t)return_to_handler)
		return;
	if (unlikely(t->own.busy)) {
		nested_site_return(t, retval, slot, tail);
		return;
	}
	ft_busy_enter(t);
	t->own.busy_sp = (uintptr_t)slot;
	i = find_site_frame(&t->own, slot);
	if (i)
		site_return(&t->own, i, retval, slot, tail);
	ft_busy_leave(t);
}

/* c's frames whose return slot lies below sp, closed as unwound (quietly
 * if c's writer is busy: a jump out of a handler that interrupted it). */
static void unwind_context(struct ft_context *c, uintptr_t sp, uint64_t now)
{
	uint32_t busy = c->busy;

	c->busy = 1;
	while (c->depth > 0 && (uintptr_t)ft_stack(c)[c->depth - 1].retp < sp)
		pop_frame(c, now, 0, 1, busy);
	c->busy = busy;
}

/*
 * The program unwinds its own stack: longjmp, an exception, pthread_exit.
 * Frames whose return slot lies below sp are gone: closed as unwound,
 * without touching their (dead) slots.  The signal context's frames live
 * only while the hook their handler interrupted does: once the thread's
 * own context is no longer busy, all of them are gone (on a sigaltstack,
 * their slots need not even lie below sp).
 */
void graph_unwind_below(struct ft_thread *t, uintptr_t sp)
{
	uint64_t now = arch_clock();

	unwind_context(&t->signal, t->own.busy ? sp : UINTPTR_MAX, now);
	unwind_context(&t->own, sp, now);
}

void graph_close_signal(struct ft_thread *t)
{
	unwind_context(&t->signal, UINTPTR_MAX, arch_clock());
}

static void say_all_missed(const struct ft_thread *t, struct ft_context *c)
{
	say_missed(c, FT_MISSED_OVERRUN, c->overruns, &c->overruns_written);
	say_missed(c, graph_off_why(t), c->off_calls, &c->off_calls_written);
}

/* Not while a hook runs in the thread: its context is halfway through an
 * event.  Both guards go up meanwhile, so that a signal's hooks keep off
 * (counted lost, and said as the signal context's guard goes down). */
void graph_say_missed(struct ft_thread *t)
{
	if (t->own.busy || t->signal.busy)
		return;
	ft_busy_enter(t);
	t->signal.busy = 1;
	say_all_missed(t, &t->own);
	say_all_missed(t, &t->signal);
	ft_signal_leave(t);
	ft_busy_leave(t);
}

/* A forked child's copies of its parent's counts are the parent's to say. */
void graph_forget_missed(struct ft_thread *t)
{
	struct ft_context *c[] = { &t->own, &t->signal };

	for (unsigned i = 0; i < 2; i++) {
		c[i]->overruns_written = c[i]->overruns;
		c[i]->off_calls_written = c[i]->off_calls;
	}
}

/* The exiting thread says what it missed.  Other threads still running
 * have said the first of each kind, and a note every SAY_MISSED_EVERY. */
__attribute__((destructor)) static void say_missed_at_exit(void)
{
	struct ft_thread *t = ft_current;

	if (t)
		graph_say_missed(t);
}
