// SPDX-License-Identifier: GPL-2.0
/*
 * System call names: generated at build time from the system's headers
 * (scripts/syscall-table.sh), never copied by hand.  The numbers are
 * x86_64's, the only kernel whose calls record -e records for now.
 */
#include "syscall_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct { unsigned nr; const char *name; } calls[] = {
#define SYSCALL(nr, name) { nr, #name },
#include "syscall_table.h"
#undef SYSCALL
	{ ~0u, NULL }
};

#define NR_CALLS (sizeof(calls) / sizeof(calls[0]) - 1)

const char *syscall_name(unsigned nr, char *buf, size_t len)
{
	size_t lo = 0, hi = NR_CALLS;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (calls[mid].nr == nr)
			return calls[mid].name;
		if (calls[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	snprintf(buf, len, "syscall_%u", nr);
	return buf;
}

int syscall_number(const char *name)
{
	char *end;
	unsigned long nr;

	for (size_t i = 0; i < NR_CALLS; i++)
		if (!strcmp(calls[i].name, name))
			return (int)calls[i].nr;
	if (strncmp(name, "syscall_", 8) || !name[8])
		return -1;
	nr = strtoul(name + 8, &end, 10);
	return *end || nr > 4095 ? -1 : (int)nr;
}
