/* SPDX-License-Identifier: GPL-2.0 */
/* Making a module's records (modload.c), for the module loader. */
#ifndef FNTRACE_MODLOAD_H
#define FNTRACE_MODLOAD_H

#include "ftrace.h"
#include "../sites/sites.h"

/* Make records for every site, the module's idx-th, and every site a
 * nop; a site whose bytes in memory are not the file's is left alone.
 * -1 on an internal error. */
int ftrace_load_sites(struct ft_module *mod, unsigned idx, const struct elf_file *f,
		      const struct image_sites *sites);
/* 1 if the module's __mcount_loc, as the loader relocated it, lists
 * nops already, in memory as in the file: its records can wait. */
int ftrace_nops_already(const struct ft_module *mod, const struct elf_file *f);

#endif
