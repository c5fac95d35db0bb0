// SPDX-License-Identifier: GPL-2.0
/*
 * The function tracer: the function, its caller, the time and the thread,
 * one event per call.  A call made by a signal handler that interrupted
 * the tracer is written in the thread's signal context (events.h).
 */
#include "events.h"
#include "shared_tls.h"
#include "thread.h"
#include "tracers.h"
#include "tracing.h"

static ft_inline void trace_call(struct ft_context *c, uintptr_t self_ret, uintptr_t parent_ip)
{
	uint32_t id = ftrace_rec_lookup(self_ret);

	if (likely(id))
		ev_func(c, id, parent_ip, arch_clock());
}

/* A signal landed inside a hook, and its handler made this call. */
static ft_cold void nested_call(struct ft_thread *t, uintptr_t self_ret, uintptr_t parent_ip,
			uintptr_t *retp)
{
	struct ft_context *c = ft_signal_enter(t, (uintptr_t)retp);

	if (!c)
		return;
	trace_call(c, self_ret, parent_ip);
	ft_signal_leave(t);
}

/* The clock is read after the busy store: a handler that runs between
 * the test and the store completes here, in this context, first. */
void function_trace_call(uintptr_t self_ret, uintptr_t parent_ip, uintptr_t *retp)
{
	struct ft_thread *t = ft_thread_get();

	if (unlikely(!t)) {
		ft_tls_untraced(1);
		return;
	}
	if (!ft_tracing_on)
		return;
	if (unlikely(t->own.busy)) {
		nested_call(t, self_ret, parent_ip, retp);
		return;
	}
	ft_busy_enter(t);
	trace_call(&t->own, self_ret, parent_ip);
	ft_busy_leave(t);
}
