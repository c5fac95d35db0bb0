// SPDX-License-Identifier: GPL-2.0
/*
 * May fntrace attach to this process?  Each refusal is one line that says
 * why and what to do instead, said before the process is touched: it runs
 * on as it was.
 *
 *   another user's      only root may (the kernel would say EPERM later)
 *   under a debugger    ptrace allows one tracer: gdb's, not ours
 *   statically linked   no dynamic loader to dlopen the runtime with
 *   another arch        the injected call uses the host's registers
 *   under qemu-user     /proc/PID/exe is the emulator
 *   ThreadSanitizer     where the architecture has no hardware
 *                       breakpoints for attach_safe.c
 */
#include "attach.h"
#include "../cli/cli.h"
#include "../arch/arch.h"
#include "../elf/elf.h"
#include "../target/target.h"

#include <elf.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The number after "key:" in /proc/PID/status; -1 if none. */
static long status_field(pid_t pid, const char *key)
{
	char value[64];

	return cli_proc_status(pid, 0, key, value, sizeof(value)) ? -1 : strtol(value, NULL, 10);
}

static int exists(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (access(path, F_OK) == 0)
		return 1;
	cli_error("process %d: no such process", (int)pid);
	return 0;
}

/* Uid's first number is the real user: the one ptrace's check compares. */
static int same_user(pid_t pid)
{
	long uid = status_field(pid, "Uid");
	struct passwd *pw;

	if (geteuid() == 0 || uid == (long)geteuid())
		return 1;
	pw = getpwuid((uid_t)uid);
	cli_error("process %d belongs to user %s: only root may attach to another user's "
		  "process", (int)pid, pw ? pw->pw_name : "(unknown)");
	return 0;
}

static int not_traced(pid_t pid)
{
	long tracer = status_field(pid, "TracerPid");
	char path[64], comm[64] = "?";
	FILE *f;

	if (tracer <= 0)
		return 1;
	snprintf(path, sizeof(path), "/proc/%ld/comm", tracer);
	if ((f = fopen(path, "re"))) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	cli_error("process %d is being traced by process %ld (%s): only one tracer may "
		  "hold it; detach that one first", (int)pid, tracer, comm);
	return 0;
}

/* The injected call uses the host's registers and calling convention. */
static int of_the_host(pid_t pid)
{
	char exe[64], path[4096];
	struct cli_target t;
	ssize_t n;

	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)pid);
	n = readlink(exe, path, sizeof(path) - 1);
	if (n < 0) {
		cli_error("process %d: %s", (int)pid, strerror(errno));
		return 0;
	}
	path[n] = 0;
	if (!strncmp(strrchr(path, '/') ? strrchr(path, '/') + 1 : path, "qemu-", 5)) {
		cli_error("process %d runs under qemu-user: attach cannot reach into it; "
			  "start it with 'fntrace run' instead", (int)pid);
		return 0;
	}
	if (cli_target_of(exe, &t))
		return 0;
	if (!t.host)
		cli_error("process %d is a program for %s: attach works on programs of the "
			  "host only; start it with 'fntrace run' instead", (int)pid, t.arch->name);
	return t.host;
}

/* Does the file's dynamic symbol table define name? */
static int defines(const char *path, const char *name)
{
	struct elf_file f;
	struct elf_sym sym;
	int dynsym, found = 0;

	if (elf_open_path(&f, path))
		return 0;
	dynsym = elf_find_section_type(&f, SHT_DYNSYM);
	for (unsigned i = 0; dynsym > 0 && !found && i < elf_sym_count(&f, dynsym); i++)
		found = elf_sym_get(&f, dynsym, i, &sym) == 0 && sym.shndx != SHN_UNDEF &&
			sym.name && !strcmp(sym.name, name);
	elf_close(&f);
	return found;
}

/* Does a map of the process come from a file whose name starts so? */
static int maps_file(pid_t pid, const char *start)
{
	char path[64], line[4300];
	int found = 0;
	FILE *m;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	m = fopen(path, "re");
	while (m && !found && fgets(line, sizeof(line), m)) {
		const char *file = strrchr(line, '/');

		found = file && !strncmp(file + 1, start, strlen(start));
	}
	if (m)
		fclose(m);
	return found;
}

/* A dynamically linked process maps its loader, whose path ends in its
 * PT_INTERP name: ld-linux-x86-64.so.2 and the like. */
static int dynamically_linked(pid_t pid)
{
	if (maps_file(pid, "ld-"))
		return 1;
	cli_error("process %d is statically linked: the runtime can only be loaded "
		  "into a dynamically linked program", (int)pid);
	return 0;
}

int attach_is_tsan(pid_t pid)
{
	char exe[64];

	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)pid);
	return maps_file(pid, "libtsan.so") || defines(exe, "__tsan_init");
}

/*
 * ThreadSanitizer sees every libc call the runtime makes; the runtime
 * hides them with TSan's annotations (src/core/sanitized.c).  But its
 * interceptors and checks are not where a thread can be made to call
 * dlopen(): attach waits for one to come back to the program's code, and
 * needs a breakpoint of its own in that thread to know when
 * (attach_safe.c): the architecture's hardware breakpoints.
 */
static int not_tsan(pid_t pid)
{
	if (ARCH_HAVE_HW_BREAK || !attach_is_tsan(pid))
		return 1;
	cli_error("process %d is built with ThreadSanitizer, and fntrace attach cannot wait "
		  "for its threads to leave TSan's runtime on this architecture; start it with "
		  "'fntrace run' instead", (int)pid);
	return 0;
}

int attach_check(pid_t pid)
{
	return exists(pid) && same_user(pid) && not_traced(pid) && of_the_host(pid) &&
	       dynamically_linked(pid) && not_tsan(pid) ? 0 : -1;
}
