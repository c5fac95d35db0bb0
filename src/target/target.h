/* SPDX-License-Identifier: GPL-2.0 */
/*
 * src/target/: the program to trace and what it needs to run traced: the
 * runtime built for its ELF machine, qemu-user for another architecture,
 * its environment (target.c, tsan_env.c, asan_env.c), and whether it
 * can be traced at all (probe.h).
 */
#ifndef FNTRACE_TARGET_H
#define FNTRACE_TARGET_H

/* The program to trace, as target.c sees it. */
struct arch_desc;
struct cli_target {
	int host;			/* of the host's architecture (or a script) */
	int big_endian;			/* its byte order */
	const struct arch_desc *arch;	/* the other architecture, if not host */
};

/* What the program at path is for; -1 after one line if fntrace cannot
 * trace it. */
int cli_target_of(const char *program, struct cli_target *t);
/* Can the runtime for t record the values record -A/-R specs (one per
 * line, or NULL) ask for?  -1 after one line if not. */
int cli_target_check_args(const struct cli_target *t, const char *specs);
/* The architecture's name if its runtime does not trace calls into
 * shared libraries (arch_desc.libcalls), NULL if it does. */
const char *cli_target_no_libcalls(const struct cli_target *t);
/* Whose system call numbers the kernel takes the program's calls by
 * (KEV_ARCH_*): its own where the kernel runs it itself (an i386
 * program on x86_64), the host's under qemu-user, which makes them. */
unsigned cli_target_syscall_arch(const struct cli_target *t);
/* The same for --auto-args, which knows the x86_64 rules only. */
const struct arch_desc *cli_target_auto_args_arch(const struct cli_target *t);
/* The libfntrace.so built for the target, found next to fntrace or where
 * make install put it: a malloc()ed absolute path, or NULL after one line. */
char *cli_find_runtime(const struct cli_target *t);
/* libfntrace.a for t (malloc'd); NULL after one line if there is none. */
char *cli_find_static_runtime(const struct cli_target *t);
/* Set up what running a program of another architecture needs (qemu's
 * library prefix); -1 after one line if this machine cannot run it. */
int cli_target_prepare(const struct cli_target *t, const char *program);
/* The environment for running program with the runtime lib: LD_PRELOAD
 * with the sanitizer runtime the program needs first
 * (src/common/sanitizer.h), lib, then what LD_PRELOAD named; -1 if it
 * cannot be set.  And TSAN_OPTIONS (tsan_env.c), ASAN_OPTIONS or
 * LSAN_OPTIONS (asan_env.c). */
int cli_target_env(const char *program, const char *lib);
/* TSAN_OPTIONS: ThreadSanitizer ignores what the runtime lib does; said
 * in a line if it cannot be done (tsan_env.c). */
void cli_tsan_env(const char *lib);
/* ASAN_OPTIONS (LSAN_OPTIONS) of an ASan (LSan) program whose returns the
 * graph tracer hijacks: its allocation stacks walked by the unwinder the
 * runtime wraps; said in a line if it cannot be set (asan_env.c). */
void cli_asan_env(const char *program);

#endif
