// SPDX-License-Identifier: GPL-2.0
/*
 * The program to be traced and the runtime it needs: the libfntrace.so
 * built for its ELF machine.  A program of the host's architecture (or
 * i386 on x86_64, which a kernel with IA-32 emulation runs) runs as it is; one of
 * another architecture runs under qemu-user, which the kernel starts for
 * it (binfmt_misc), with the guest's own libraries under QEMU_LD_PREFIX
 * (Debian's cross packages install them in /usr/<triple>).
 *
 *   runtime of the host          BUILD/libfntrace.so,  PREFIX/lib/fntrace/
 *   runtime of another arch      BUILD/<arch>/,        PREFIX/lib/fntrace/<arch>/
 *
 * and beside each, libfntrace.a: the runtime fntrace cc -static links in.
 */
#include "target.h"
#include "../cli/cli.h"
#include "../arch/arch.h"
#include "../common/argspec.h"
#include "../common/sanitizer.h"
#include "../common/trace_format.h"
#include "../elf/elf.h"
#include "../trace/syscall_names.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The machine and byte order of an ELF file; 0 if it is not one. */
static unsigned elf_machine(const char *path, int *big_endian)
{
	struct elf_file f;
	unsigned machine;

	if (elf_open_path(&f, path))
		return 0;
	machine = f.machine;
	*big_endian = f.big_endian;
	elf_close(&f);
	return machine;
}

static unsigned host_machine(void)
{
	static unsigned machine;
	int big;

	if (!machine)
		machine = elf_machine("/proc/self/exe", &big);
	return machine;
}

/* Where binfmt_misc lists qemu-user for an architecture. */
static void binfmt_entry(const struct arch_desc *arch, char *path, size_t size)
{
	snprintf(path, size, "/proc/sys/fs/binfmt_misc/qemu-%s", arch->name);
}

/* Is the loader the program names (PT_INTERP) on this machine as it is?
 * Then its libraries are the host's own multiarch ones (i386's /lib32)
 * and qemu needs no prefix: the cross packages' copies would do, but
 * qemu 7.2 hangs i386 threads on theirs. */
static int loader_on_host(const char *program)
{
	struct elf_file f;
	char interp[256] = "";

	if (elf_open_path(&f, program))
		return 0;
	for (unsigned i = 0; i < f.phnum; i++) {
		const struct elf_segment *seg = &f.segments[i];

		if (seg->type == PT_INTERP && seg->offset < f.size &&
		    seg->filesz < sizeof(interp) && seg->filesz <= f.size - seg->offset)
			memcpy(interp, f.data + seg->offset, seg->filesz);
	}
	elf_close(&f);
	return interp[0] && access(interp, X_OK) == 0;
}

/* Does the kernel run this architecture's programs without help?  i386 on
 * x86_64 needs IA-32 emulation; a kernel without it (ia32_emulation=0)
 * runs them through qemu-i386 if scripts/binfmt.sh registered it, and
 * binfmt_misc comes before the kernel's own ELF loader. */
static int runs_natively(const struct arch_desc *arch)
{
	unsigned host = host_machine();
	char entry[256];

	if (arch->machine == host)
		return 1;
	if (host != EM_X86_64 || arch->machine != EM_386)
		return 0;
	binfmt_entry(arch, entry, sizeof(entry));
	return access(entry, F_OK) != 0;
}

unsigned cli_target_syscall_arch(const struct cli_target *t)
{
	if (t->host || !runs_natively(t->arch))
		return syscall_host_arch();
	return syscall_arch_of_machine(t->arch->machine);
}

int cli_target_of(const char *program, struct cli_target *t)
{
	unsigned machine = elf_machine(program, &t->big_endian);

	t->host = !machine || machine == host_machine();
	if (t->host) {		/* the host's, or a script run by one of its programs */
		t->big_endian = FT_BIG_ENDIAN;
		t->arch = NULL;
		return 0;
	}
	t->arch = arch_lookup(machine);
	if (!t->arch) {
		cli_error("%s: a program for ELF machine %u, which fntrace does not know",
			  program, machine);
		return -1;
	}
	return 0;
}

static char *first_readable(const char *const *paths, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (paths[i] && access(paths[i], R_OK) == 0)
			return realpath(paths[i], NULL);
	return NULL;
}

/* A file of the runtime for the target, next to fntrace in the build
 * tree, else where make install put it: its real path, or NULL. */
static char *find_runtime_file(const struct cli_target *t, const char *file)
{
	const char *dir = cli_self_dir();
	const char *sub = t->host ? "" : t->arch->name, *slash = t->host ? "" : "/";
	char built[4200], installed[4200];
	const char *paths[] = { built, installed };

	snprintf(built, sizeof(built), "%s/%s%s%s", dir, sub, slash, file);
	snprintf(installed, sizeof(installed), "%s/../lib/fntrace/%s%s%s", dir, sub, slash,
		 file);
	return first_readable(paths, 2);
}

/* libfntrace.so for the target: FNTRACE_LIB, else where
 * find_runtime_file looks. */
char *cli_find_runtime(const struct cli_target *t)
{
	const char *env = getenv("FNTRACE_LIB");
	char *lib;

	if (env) {
		if (access(env, R_OK) == 0)
			return realpath(env, NULL);
		cli_error("FNTRACE_LIB: %s: cannot read it", env);
		return NULL;
	}
	lib = find_runtime_file(t, "libfntrace.so");
	if (!lib && t->host)
		cli_error("cannot find libfntrace.so next to fntrace (set FNTRACE_LIB)");
	else if (!lib)
		cli_error("no %s runtime next to fntrace: build it with 'make runtimes' "
			  "(it needs %s-gcc)", t->arch->name, t->arch->triple);
	return lib;
}

/* libfntrace.a, the runtime fntrace cc -static links in, for the target. */
char *cli_find_static_runtime(const struct cli_target *t)
{
	char *lib = find_runtime_file(t, "libfntrace.a");

	if (!lib && t->host)
		cli_error("cannot find libfntrace.a next to fntrace: build it with 'make'");
	else if (!lib)
		cli_error("no %s libfntrace.a next to fntrace: build it with 'make runtimes' "
			  "(it needs %s-gcc)", t->arch->name, t->arch->triple);
	return lib;
}

/*
 * Make the program runnable: one of another architecture needs qemu-user
 * registered with binfmt_misc (so that its own children run too), and the
 * guest's libraries.  Its runtime is told it runs on an emulated CPU: it
 * must sync threads after a patch with signals (membarrier reaches the
 * host's cores, not qemu's translated code, while a signal makes a thread
 * leave the block it is running and look up the code again), and /proc
 * shows qemu's signal masks, not the program's.
 */
int cli_target_prepare(const struct cli_target *t, const char *program)
{
	char entry[256], prefix[256];

	if (t->host || runs_natively(t->arch))
		return 0;
	binfmt_entry(t->arch, entry, sizeof(entry));
	if (access(entry, F_OK)) {
		cli_error("%s is a program for %s, which this machine cannot run: install "
			  "qemu-user-static and register it with binfmt_misc (see README)",
			  program, t->arch->name);
		return -1;
	}
	snprintf(prefix, sizeof(prefix), "/usr/%s", t->arch->triple);
	if (!getenv("QEMU_LD_PREFIX") && !loader_on_host(program) && access(prefix, F_OK) == 0 &&
	    setenv("QEMU_LD_PREFIX", prefix, 1))
		return -1;
	return setenv("FNTRACE_EMULATED", "1", 1);
}

int cli_target_env(const char *program, const char *lib)
{
	const char *old = getenv("LD_PRELOAD");
	size_t len = strlen(lib) + (old ? strlen(old) : 0) + 4200;
	char san[4096], *preload = malloc(len);
	int added, ret;

	if (!preload)
		return -1;
	added = san_preload(preload, len, san_runtime_needed(program, san, sizeof(san)) > 0 ?
				 san : NULL, lib, old);
	ret = added < 0 || setenv("LD_PRELOAD", preload, 1) ||
	      (added ? setenv(SAN_ADDED_ENV, san, 1) : unsetenv(SAN_ADDED_ENV)) ? -1 : 0;
	free(preload);
	if (!ret) {
		cli_tsan_env(lib);
		cli_asan_env(program);
	}
	return ret;
}

/* Can the runtime for t take every value these specs (one per line) ask
 * for?  Only arguments in registers, on an architecture that says which. */
static int spec_fits(const struct arch_desc *arch, const char *text)
{
	struct arg_spec s;
	char err[256];
	int ret = argspec_parse(&s, text, err, sizeof(err));

	if (ret)
		cli_error("%s", err);
	for (unsigned i = 0; !ret && i < s.nr_items; i++) {
		const struct arg_item *it = &s.items[i];
		unsigned have = it->fp ? arch->fp_arg_regs : arch->int_arg_regs;

		if (it->pos > have) {
			cli_error("'%s': %s passes %u %s arguments in registers; only those "
				  "can be recorded", text, arch->name, have,
				  it->fp ? "floating-point" : "integer");
			ret = -1;
		}
	}
	argspec_free(&s);
	return ret;
}

const char *cli_target_no_libcalls(const struct cli_target *t)
{
	const struct arch_desc *arch = t->host ? arch_lookup(host_machine()) : t->arch;

	return !arch ? "this machine" : arch->libcalls ? NULL : arch->name;
}

/* The architecture whose registers t's arguments come in; NULL after one
 * line if its runtime cannot record them yet. */
static const struct arch_desc *cli_target_args_arch(const struct cli_target *t)
{
	const struct arch_desc *arch = t->host ? arch_lookup(host_machine()) : t->arch;

	if (arch && arch->int_arg_regs)
		return arch;
	cli_error("arguments cannot be recorded for %s programs yet",
		  arch ? arch->name : "this machine's");
	return NULL;
}

/* --auto-args places each parameter by the arch's calling convention
 * (arch_desc.place_aggregate): an arch that has none yet (every one but
 * x86_64) takes -A and -R only. */
const struct arch_desc *cli_target_auto_args_arch(const struct cli_target *t)
{
	const struct arch_desc *arch = cli_target_args_arch(t);

	if (arch && !arch->place_aggregate) {
		cli_error("--auto-args: x86_64 programs only yet; for %s programs, "
			  "name the values with -A and -R", arch->name);
		return NULL;
	}
	return arch;
}

int cli_target_check_args(const struct cli_target *t, const char *specs)
{
	const struct arch_desc *arch = specs ? cli_target_args_arch(t) : NULL;
	char *copy = arch ? strdup(specs) : NULL, *save = NULL;
	int ret = specs && !arch ? -1 : 0;

	for (char *line = copy ? strtok_r(copy, "\n", &save) : NULL; line && !ret;
	     line = strtok_r(NULL, "\n", &save))
		ret = spec_fits(arch, line);
	free(copy);
	return ret;
}
