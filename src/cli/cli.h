/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fntrace command line: one program, one file per subcommand.
 */
#ifndef FNTRACE_CLI_H
#define FNTRACE_CLI_H

#include "exit_status.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

int cmd_list(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_live(int argc, char **argv);
int cmd_ctl(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_attach(int argc, char **argv);
int cmd_detach(int argc, char **argv);
int cmd_recordmcount(int argc, char **argv);	/* src/recordmcount/cmd.c */
int cmd_cc(int argc, char **argv);
int cmd_cxx(int argc, char **argv);

/* One error line through the printer of src/common/print.h: on stderr,
 * prefixed with "fntrace: ", unless it was replaced. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* usage.c: the command usage errors name (main sets it). */
void cli_set_command(const char *name);
/* A usage error: "fntrace CMD: " and the line, then the hint "Try
 * 'fntrace CMD --help'."; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* getopt_long() in order ("+"), with a missing value told from an unknown
 * option: the option, -1 at the end, or '?' after a usage error. */
struct option;
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *opts);
/* The exit status table, as 'fntrace --help' prints it. */
void cli_print_exit_table(FILE *out);
/* argv as one line a shell reads back into the same words (quote.c);
 * malloc'd, NULL if out of memory. */
char *cli_command_line(char *const *argv, size_t argc);
/* The value after "key:" in /proc/PID/status, or in a thread's
 * (/proc/PID/task/TID/status; tid 0: the process's), blanks skipped: 0,
 * or -1 if there is none. */
int cli_proc_status(pid_t pid, pid_t tid, const char *key, char *value, size_t len);
/* The path of an executable named as a shell would find it, or NULL. */
char *cli_find_program(const char *name);
/* The value parsers below say a bad value as a usage error. */
/* A process id (positive); -1 after one line if not. */
int cli_parse_pid(const char *text, pid_t *pid);
/* A --timeout's whole seconds, 1 to 3600; -1 after one line if not. */
int cli_parse_seconds(const char *text, unsigned *seconds);
/* A thread id (positive); -1 after one line if not. */
int cli_parse_tid(const char *text, uint32_t *tid);
/* A size in bytes, "100M" style (k, M, G: powers of 1024); -1 after one
 * line if not. */
int cli_parse_size(const char *text, uint64_t *bytes);
/* The directory fntrace itself was run from. */
const char *cli_self_dir(void);
/* A new private directory $TMPDIR/NAME.XXXXXX (else in /tmp), as a user
 * expects of temporary files, its path in dir; -1 after one line if
 * none could be made. */
int cli_make_temp_dir(char *dir, size_t size, const char *name);
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
/* The same for --auto-args, which knows the x86_64 rules only. */
const struct arch_desc *cli_target_auto_args_arch(const struct cli_target *t);
/* Stop a thread under ptrace: the signal it was taking (to pass on when
 * it is let go), 0, or -1 (cmd_attach.c). */
int cli_ptrace_stop(pid_t tid);
/* attach_traps.c: SIGTRAP out of the masks of the threads that block it
 * (their ids, space-separated, in list), and back in on detach. */
int attach_unblock_traps(pid_t pid, char *list, size_t len);
int detach_traps_list(pid_t pid, char *list, size_t len);
void detach_reblock_traps(pid_t pid, const char *list);
/* May fntrace attach to pid?  0, or -1 after one line that says why not
 * (attach_check.c). */
int attach_check(pid_t pid);
/* A process's root as we reach it: "" if it is ours, else /proc/PID/root. */
void attach_root(pid_t pid, char *buf, size_t len);
/* The runtime where the process can dlopen it (a copy in its root's /tmp
 * if that is not ours), and that copy removed once it is loaded; 0, or -1
 * after one line (attach_root.c). */
int attach_stage_runtime(pid_t pid, const char *lib, char *inside, size_t len);
void attach_unstage_runtime(pid_t pid);
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
 * cannot be set.  And TSAN_OPTIONS (tsan_env.c). */
int cli_target_env(const char *program, const char *lib);
/* TSAN_OPTIONS: ThreadSanitizer ignores what the runtime lib does; said
 * in a line if it cannot be done (tsan_env.c). */
void cli_tsan_env(const char *lib);
/* SIGINT and SIGTERM set a flag instead of ending fntrace. */
void cli_catch_interrupt(void);
int cli_interrupted(void);
/* After one: stdout's rest dropped if it cannot be written at once. */
void cli_drop_untaken_output(void);

#endif
