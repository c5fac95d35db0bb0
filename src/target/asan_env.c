// SPDX-License-Identifier: GPL-2.0
/*
 * AddressSanitizer's and LeakSanitizer's allocation stacks kept the
 * program's where the graph tracer hijacks returns.
 *
 * ASan records the stack of every malloc() with its fast unwinder, which
 * follows the frame pointers and reads each return address from the
 * stack.  A return the graph tracer takes by its address (no return
 * sites: every architecture but x86_64 and clang's aarch64, or a program
 * built without fntrace cc) holds return_to_handler there, so each
 * caller in an "allocated by" or leak stack read `return_to_handler`
 * where the program's function was.  ASan's other unwinder, libgcc's
 * _Unwind_Backtrace, is wrapped by the runtime to give the real
 * addresses back (src/core/unwind.c); fast_unwind_on_malloc=0 makes
 * malloc() use it.  It costs ASan's malloc about ten times as much, so it
 * is asked for only where returns are hijacked, and never over the
 * user's own choice in the variable.
 *
 * The variables are read by sanitized programs alone; a program that is
 * neither ASan's nor LSan's gets none, so that its environment is the
 * one it has without fntrace.
 */
#include "target.h"
#include "../arch/arch.h"
#include "../cli/cli.h"
#include "../common/sanitizer.h"
#include "../elf/elf.h"
#include "../sites/xray_map.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPTION "fast_unwind_on_malloc"

/* Does the symbol table sec define name? */
static int defines(const struct elf_file *f, int sec, const char *name)
{
	struct elf_sym s;

	for (unsigned i = 0; sec > 0 && i < elf_sym_count(f, (unsigned)sec); i++)
		if (!elf_sym_get(f, (unsigned)sec, i, &s) && s.shndx && s.name &&
		    !strcmp(s.name, name))
			return 1;
	return 0;
}

/* The variable an ASan or LSan program reads its options from, or NULL
 * if the program is neither: gcc links the runtime as a library, clang
 * into the program (which then exports its interface). */
static const char *options_var(const struct elf_file *f, const char *path)
{
	char san[4096];
	int dynsym = elf_find_section_type(f, SHT_DYNSYM);

	if (san_runtime_needed(path, san, sizeof(san)) > 0) {
		const char *name = strrchr(san, '/') ? strrchr(san, '/') + 1 : san;

		if (!strncmp(name, "libasan.so", 10) || !strncmp(name, "libclang_rt.asan", 16))
			return "ASAN_OPTIONS";
		return strncmp(name, "liblsan.so", 10) ? NULL : "LSAN_OPTIONS";
	}
	if (defines(f, dynsym, "__asan_init"))
		return "ASAN_OPTIONS";
	return defines(f, dynsym, "__lsan_do_leak_check") ? "LSAN_OPTIONS" : NULL;
}

/* Does the runtime take the program's returns at return sites rather
 * than by their addresses (src/core/returns.c)? */
static int has_return_sites(const struct elf_file *f)
{
	const struct arch_desc *arch = arch_lookup(f->machine);

	return arch && arch->cc_return_sites &&
	       (elf_find_section(f, "__return_loc") > 0 || elf_find_section(f, XRAY_MAP_NAME) > 0);
}

/* Does the option list name the flag (as a whole flag name)? */
static int names_flag(const char *options)
{
	for (const char *p = options; p && (p = strstr(p, OPTION)); p++)
		if ((p == options || strchr(" ,:\t\n\r", p[-1])) && p[strlen(OPTION)] == '=')
			return 1;
	return 0;
}

/* options with the flag added, malloc()ed; NULL if it cannot be. */
static char *with_slow_unwind(const char *options)
{
	char *value;

	if (asprintf(&value, "%s%s" OPTION "=0", options ? options : "",
		     options && *options ? ":" : "") < 0)
		return NULL;
	return value;
}

void cli_asan_env(const char *program)
{
	struct elf_file f;
	const char *var;
	char *value;

	if (elf_open_path(&f, program))
		return;
	var = options_var(&f, program);
	if (var && !has_return_sites(&f) && !names_flag(getenv(var))) {
		value = with_slow_unwind(getenv(var));
		if (!value || setenv(var, value, 1))
			cli_error("cannot set %s: the allocation stacks of its reports will "
				  "name return_to_handler for traced callers", var);
		free(value);
	}
	elf_close(&f);
}
