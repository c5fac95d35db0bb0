/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Naming arbitrary addresses of a traced process (the caller ips of the
 * function tracer) from the module list of its funcs-<pid> file and each
 * module's ELF symbol table.  A module's file is read the first time an
 * address falls inside it, so a report that never asks costs nothing.
 */
#ifndef FNTRACE_SYMBOLS_H
#define FNTRACE_SYMBOLS_H

#include "trace_reader.h"
#include "../elf/elf.h"

struct sym_entry {
	uint64_t value;		/* link-time address */
	uint64_t size;		/* 0: extends to the next symbol */
	const char *name;	/* inside the module's mapped file */
	unsigned rank;		/* among aliases, the highest wins */
};

struct sym_module {
	const struct tr_module *mod;
	int state;		/* 0: not read yet, 1: read, -1: unreadable */
	struct elf_file elf;
	struct sym_entry *syms;	/* sorted by value, then rank */
	unsigned nr_syms;
};

struct sym_table {
	struct sym_module *mods;
	unsigned nr_mods;
};

/* The table keeps pointers into proc, which must outlive it. */
int sym_table_init(struct sym_table *t, const struct tr_process *proc);
void sym_table_free(struct sym_table *t);
/* The same, or addr in hex (written to buf) when no symbol covers it. */
const char *sym_name(struct sym_table *t, uint64_t addr, char *buf, size_t len);
/* The same for the function a return address returns into. */
const char *sym_caller_name(struct sym_table *t, uint64_t ret, char *buf, size_t len);

#endif
