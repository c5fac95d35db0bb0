/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's events of the traced threads (record -e), as a data
 * directory's `kevents` file holds them: a header, then fixed-size
 * records in the order the recorder read them from the per-CPU rings
 * (each CPU's in time order, the CPUs interleaved by drain pass).  The
 * reader sorts them by thread and time.  Times are CLOCK_MONOTONIC ns,
 * the clock info's samples tie the calls' ticks to.  A data directory
 * without the file has no kernel events: it reads as it always did.
 */
#ifndef FNTRACE_KEVENT_FORMAT_H
#define FNTRACE_KEVENT_FORMAT_H

#include <stdint.h>

#define KEV_MAGIC	"fntrace kevents 1\n"
#define KEV_MAGIC_LEN	18

struct kev_header {
	char magic[24];			/* KEV_MAGIC, zero-padded */
	uint32_t record_size;		/* sizeof(struct kev_record) */
	uint32_t arch;			/* whose system call numbers: KEV_ARCH_* */
};

/* The recorder's kernel's: a program under qemu-user makes the host's
 * system calls. */
enum kev_arch {
	KEV_ARCH_X86_64,	/* 0: every recording before the field was set */
	KEV_ARCH_I386,
	KEV_ARCH_AARCH64,
	KEV_ARCH_RISCV64,
	KEV_ARCH_MIPS,		/* o32 */
	KEV_ARCHES
};

enum kev_kind {
	KEV_SYS_ENTER = 1,	/* nr: the call's number; args: its arguments */
	KEV_SYS_EXIT,		/* nr; value: what it returned */
	KEV_SWITCH_OUT,		/* nr: prev_state (the kernel's task state
				 * bits, KEV_STATE_PREEMPTED added if it was
				 * preempted); value: the next pid; args[0..1]:
				 * the next task's name */
	KEV_SWITCH_IN,		/* back on a CPU */
	KEV_WAKEUP,		/* tid: the waker; value: the woken tid; nr: the
				 * CPU it will run on; args[0..1]: its name */
	KEV_FAULT,		/* args[0]: the address, args[1]: the ip,
				 * args[2]: the error code */
	KEV_LOST,		/* value: events the CPU's ring had no room for */
	KEV_OWN_WORK,		/* time to value: the runtime worked on the
				 * thread (its start-up, a dlopen): its system
				 * calls and page faults then were fntrace's.
				 * Filed after them; older readers skip it */
	KEV_KINDS
};

#define KEV_STATE_PREEMPTED	(1u << 31)

struct kev_record {
	uint64_t time;		/* CLOCK_MONOTONIC, ns */
	uint32_t pid, tid;	/* the thread it happened in */
	uint16_t kind, cpu;
	uint32_t nr;
	int64_t value;
	uint64_t args[6];
};

#endif
