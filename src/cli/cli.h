/* SPDX-License-Identifier: GPL-2.0 */
/*
 * src/cli/: the fntrace command line, one program, one file per
 * subcommand (cmd_*.c, dispatched by main.c); and the helpers every
 * command and every room of the program shares: errors and usage errors
 * said alike (util.c, usage.c), the exit status table (exit_status.h), a
 * command line quoted for the shell (quote.c).
 */
#ifndef FNTRACE_CLI_H
#define FNTRACE_CLI_H

#include "../common/print.h"

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
int cmd_listen(int argc, char **argv);
int cmd_ctl(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_attach(int argc, char **argv);
int cmd_detach(int argc, char **argv);
int cmd_recordmcount(int argc, char **argv);	/* src/recordmcount/cmd.c */
/* A linked image's XRay sleds (clang's LTO code) made return sites, as
 * recordmcount --nop makes an object's: 0, or 1 after one line. */
int rmc_image_return_sites(const char *path);	/* src/recordmcount/cmd.c */
int cmd_cc(int argc, char **argv);
int cmd_cxx(int argc, char **argv);

/* One error line through the printer of src/common/print.h: on stderr,
 * prefixed with "fntrace: ", unless it was replaced.  The commands' name
 * for the shared code's pr_error. */
#define cli_error pr_error
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
/* Has process pid ended: no such process, a zombie nobody reaped, or
 * one being reaped? */
int cli_process_gone(pid_t pid);
/* Is it ending: gone within grace_ms?  A process that dies closes its
 * descriptors (its control endpoint with them) before the kernel makes
 * it a zombie, and under load that takes a while. */
int cli_process_ending(pid_t pid, unsigned grace_ms);
/* The path of an executable named as a shell would find it, or NULL. */
char *cli_find_program(const char *name);
/* The value parsers below say a bad value as a usage error. */
/* A process id (positive); -1 after one line if not. */
int cli_parse_pid(const char *text, pid_t *pid);
/* A --timeout's whole seconds, 1 to 3600; -1 after one line if not. */
int cli_parse_seconds(const char *text, unsigned *seconds);
/* A thread id (positive); -1 after one line if not. */
int cli_parse_tid(const char *text, uint32_t *tid);
/* --tracing-thresh's microseconds, 0 (none) to 4294967295, as the
 * tracing_thresh file takes them; -1 after one line if not. */
int cli_parse_thresh(const char *text, unsigned *us);
/* --snapshot-interval's milliseconds, 0 (none) to an hour, as the
 * snapshot_interval_ms file takes them; -1 after one line if not. */
#define CLI_MAX_INTERVAL_MS 3600000u
int cli_parse_interval(const char *text);
/* A size in bytes, "100M" style (k or K, M, G: powers of 1024); -1 after
 * one line if not. */
int cli_parse_size(const char *text, uint64_t *bytes);
/* The same, -1 without a word: the caller says what the size is for. */
int cli_size_value(const char *text, uint64_t *bytes);
/* A --trigger FUNC:COMMAND[:COUNT] (common/trigger.h), checked and added
 * to a list of them, a line each; after one line if not: CLI_EXIT_USAGE
 * for a bad one, CLI_EXIT_FAILED out of memory. */
int cli_add_trigger(char **list, const char *text);
/* The directory fntrace itself was run from. */
const char *cli_self_dir(void);
/* Set NAME to VALUE in the environment a program will get, or take it
 * away if VALUE is NULL or empty. */
int cli_set_env(const char *name, const char *value);
/* One more line on a list of them (NULL: none yet); -1 if out of memory. */
int cli_append_line(char **list, const char *line);
/* A new private directory $TMPDIR/NAME.XXXXXX (else in /tmp), as a user
 * expects of temporary files, its path in dir; -1 after one line if
 * none could be made. */
int cli_make_temp_dir(char *dir, size_t size, const char *name);
/* SIGINT and SIGTERM set a flag instead of ending fntrace. */
void cli_catch_interrupt(void);
int cli_interrupted(void);
/* Caught, and held back until released: a set-up that changes another
 * process runs to its end; an interrupt sent meanwhile then stops what
 * follows at once, and the set-up is undone as at any other end. */
void cli_hold_interrupts(void);
void cli_release_interrupts(void);
/* After one: stdout's rest dropped if it cannot be written at once. */
void cli_drop_untaken_output(void);

#endif
