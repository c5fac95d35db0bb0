// SPDX-License-Identifier: GPL-2.0
/*
 * The function tracer: the function, its caller, the time and the thread,
 * one event per call.
 */
#include "events.h"
#include "tracers.h"
#include "tracing.h"

void function_trace_call(uintptr_t self_ret, uintptr_t parent_ip, uintptr_t *retp)
{
	struct ft_thread *t = ft_thread_get();
	uint32_t id;

	if (unlikely(!t) || t->busy || !ft_tracing_on)
		return;
	t->busy = 1;
	id = ftrace_rec_lookup(self_ret);
	if (likely(id))
		ev_func(t, id, parent_ip, arch_clock());
	t->busy = 0;
}
