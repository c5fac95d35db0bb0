// SPDX-License-Identifier: GPL-2.0
/*
 * A C++ function is known to the filters by two names: its symbol
 * (_ZN3Gen4nextEv), which records carry, and the name people write
 * (Gen::next), which `-F`, set_ftrace_filter and the other filter files
 * take as well.  The second is demangled by the program's own libstdc++
 * (a C++ program has it loaded; a C program needs neither), once per
 * name, when a filter that says something first meets it, and kept: a
 * name's memory lives as long as its record.
 *
 * __cxa_demangle is looked up outside the pinned update (no first dlsym
 * under the loader's lock: see modules.c), whenever a filter is written.
 */
#include "ftrace.h"
#include "linkage.h"
#include "plain_names.h"
#include "../common/cxx_name.h"
#include "../common/filter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct plain_entry {
	const char *name;	/* a record's name: the key, by address */
	const char *plain;	/* its demangled name, or `none` */
};

static const char none[] = "";
static struct plain_entry *table;
static size_t table_size;	/* a power of two, or 0 */
static size_t nr_entries;
static cxx_demangler demangler;

void ft_plain_names_prepare(void)
{
	if (!demangler)
		demangler = (cxx_demangler)ft_program_symbol("__cxa_demangle");
}

static size_t slot_of(const char *name, size_t size)
{
	uintptr_t h = (uintptr_t)name;

	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ull;
	return (h >> 11) & (size - 1);
}

static struct plain_entry *find(struct plain_entry *t, size_t size, const char *name)
{
	size_t i = slot_of(name, size);

	while (t[i].name && t[i].name != name)
		i = (i + 1) & (size - 1);
	return &t[i];
}

/* Half full at most, so that a search ends soon. */
static int make_room(void)
{
	size_t size = table_size ? table_size * 2 : 1024;
	struct plain_entry *t;

	if ((nr_entries + 1) * 2 <= table_size)
		return 0;
	t = calloc(size, sizeof(*t));
	if (!t)
		return -1;
	for (size_t i = 0; i < table_size; i++)
		if (table[i].name)
			*find(t, size, table[i].name) = table[i];
	free(table);
	table = t;
	table_size = size;
	return 0;
}

static const char *plain_of(const char *name)
{
	struct plain_entry *e;
	char *plain;

	if (table_size && (e = find(table, table_size, name))->name)
		return e->plain == none ? NULL : e->plain;
	if (make_room())
		return NULL;
	plain = cxx_plain_name(demangler, name);
	e = find(table, table_size, name);
	e->name = name;
	e->plain = plain ? plain : none;
	nr_entries++;
	return plain;
}

const char *ft_plain_name(const struct filter *f, const struct ftrace_rec *rec)
{
	if (!f || !f->nr || !demangler || strncmp(rec->name, "_Z", 2))
		return NULL;
	return plain_of(rec->name);
}
