// SPDX-License-Identifier: GPL-2.0
/*
 * Where a thread resumes once the program's signal handlers it is in
 * return.  A thread the sync signal finds inside a handler is at the
 * handler, but the signal that started it stopped the thread somewhere
 * else, maybe between two instructions of a detour's entry: when the
 * handler returns, the thread goes on there.  The kernel keeps that place
 * in the signal's frame on the thread's stack (or its sigaltstack),
 * above the handler's own frames, and on x86_64 the frame begins with the
 * handler's return address, libc's restorer, which a program does not
 * otherwise keep on its stack:
 *
 *   sp (the handler, interrupted by ours)  ...the handler's frames...
 *                                          restorer   <- the frame
 *                                          ucontext: the pc it resumes at
 *
 * So the stack above the interrupted stack pointer is read, 32 KB at
 * most, for that word, and each frame found (arch_signal_frame_pc()
 * checks it is one) gives its pc; nested handlers give one each.  The
 * reads cannot fault (process_vm_readv on ourselves, args.c), and stop
 * at the first unreadable page; under a seccomp filter there is no
 * reading, and no frame found.  A program that installs its handlers
 * with its own restorer (the raw system call) is not seen either.
 *
 * A frame of the runtime's own breakpoint handler would be no such place
 * (the thread trapped one byte into a site being patched, and the handler
 * sends it past the site or to its new target), but none is ever seen:
 * that handler runs with the sync signal blocked (breakpoint.c).
 */
#include "sigframes.h"
#include "args.h"
#include "../arch/arch.h"

#define SCAN_BYTES (32 * 1024)
#define CHUNK_WORDS 64		/* 512 bytes: a small sigaltstack has room */

static uintptr_t restorer;

void ft_sigframes_init(const void *sigaction)
{
	restorer = arch_signal_restorer(sigaction);
}

unsigned ft_sigframes_pcs(const void *ucontext, uintptr_t *pcs, unsigned max)
{
	uintptr_t sp = arch_context_sp(ucontext) & ~(uintptr_t)7, words[CHUNK_WORDS];
	unsigned n = 0;

	if (!restorer || !sp)
		return 0;
	for (uintptr_t off = 0; off < SCAN_BYTES && n < max; off += sizeof(words)) {
		long got = ft_args_read(sp + off, (char *)words, sizeof(words));

		for (long i = 0; i < got / (long)sizeof(*words) && n < max; i++) {
			uintptr_t at = sp + off + (uintptr_t)i * sizeof(*words), pc;

			if (words[i] == restorer &&
			    (pc = arch_signal_frame_pc(at, ft_args_read)))
				pcs[n++] = pc;
		}
		if (got != (long)sizeof(words))
			break;
	}
	return n;
}
