// SPDX-License-Identifier: GPL-2.0
/*
 * System call names: generated at build time from each architecture's
 * headers (scripts/syscall-table.sh), never copied by hand.  A recording
 * says whose numbers it holds (kev_header.arch): the program's, as the
 * kernel it ran on took its calls.  That is the kernel's own numbering
 * whatever the program's architecture when qemu-user runs it (qemu makes
 * the host's calls), but i386's for an i386 program the x86_64 kernel
 * runs itself; so that one made on an aarch64 machine reads with
 * aarch64's names here.
 */
#include "syscall_names.h"
#include "../common/kevent_format.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct call {
	unsigned nr;
	const char *name;
};

#define SYSCALL(nr, name) { nr, #name },
static const struct call x86_64_calls[] = {
#include "syscall_table_x86_64.h"
	{ ~0u, NULL }
};
static const struct call i386_calls[] = {
#include "syscall_table_i386.h"
	{ ~0u, NULL }
};
static const struct call aarch64_calls[] = {
#include "syscall_table_aarch64.h"
	{ ~0u, NULL }
};
static const struct call riscv64_calls[] = {
#include "syscall_table_riscv64.h"
	{ ~0u, NULL }
};
static const struct call mips_calls[] = {
#include "syscall_table_mips.h"
	{ ~0u, NULL }
};
#undef SYSCALL

#define TABLE(calls, name, machine) { calls, sizeof(calls) / sizeof(calls[0]) - 1, name, machine }
static const struct {
	const struct call *calls;
	size_t nr;	/* in number order */
	const char *name;
	unsigned machine;	/* ELF e_machine */
} tables[KEV_ARCHES] = {
	[KEV_ARCH_X86_64] = TABLE(x86_64_calls, "x86_64", EM_X86_64),
	[KEV_ARCH_I386] = TABLE(i386_calls, "i386", EM_386),
	[KEV_ARCH_AARCH64] = TABLE(aarch64_calls, "aarch64", EM_AARCH64),
	[KEV_ARCH_RISCV64] = TABLE(riscv64_calls, "riscv64", EM_RISCV),
	[KEV_ARCH_MIPS] = TABLE(mips_calls, "mips", EM_MIPS),
};

unsigned syscall_host_arch(void)
{
#if defined(__x86_64__)
	return KEV_ARCH_X86_64;
#elif defined(__i386__)
	return KEV_ARCH_I386;
#elif defined(__aarch64__)
	return KEV_ARCH_AARCH64;
#elif defined(__riscv) && __riscv_xlen == 64
	return KEV_ARCH_RISCV64;
#elif defined(__mips__) && _MIPS_SIM == _ABIO32
	return KEV_ARCH_MIPS;
#else
	return KEV_ARCHES;	/* none of ours: numbers */
#endif
}

unsigned syscall_arch_of_machine(unsigned machine)
{
	for (unsigned a = 0; a < KEV_ARCHES; a++)
		if (tables[a].machine == machine)
			return a;
	return KEV_ARCHES;
}

const char *syscall_arch_name(unsigned arch)
{
	return arch < KEV_ARCHES ? tables[arch].name : "this architecture";
}

int syscall_known(const char *name)
{
	for (unsigned a = 0; a < KEV_ARCHES; a++)
		if (syscall_number_of(a, name) >= 0)
			return 1;
	return 0;
}

const char *syscall_name_of(unsigned arch, unsigned nr, char *buf, size_t len)
{
	const struct call *calls = arch < KEV_ARCHES ? tables[arch].calls : NULL;
	size_t lo = 0, hi = calls ? tables[arch].nr : 0;

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

int syscall_number_of(unsigned arch, const char *name)
{
	char *end;
	unsigned long nr;

	for (size_t i = 0; arch < KEV_ARCHES && i < tables[arch].nr; i++)
		if (!strcmp(tables[arch].calls[i].name, name))
			return (int)tables[arch].calls[i].nr;
	if (strncmp(name, "syscall_", 8) || !name[8])
		return -1;
	nr = strtoul(name + 8, &end, 10);
	return *end || nr > 65535 ? -1 : (int)nr;
}

const char *syscall_name(unsigned nr, char *buf, size_t len)
{
	return syscall_name_of(syscall_host_arch(), nr, buf, len);
}

int syscall_number(const char *name)
{
	return syscall_number_of(syscall_host_arch(), name);
}
