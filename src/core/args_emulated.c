// SPDX-License-Identifier: GPL-2.0
/*
 * A string argument read without faulting where process_vm_readv is
 * missing: qemu-user does not implement it (ENOSYS).  There, mincore
 * fails on a page the program could not read (the emulator checks its
 * own flags of the guest's page, PROT_NONE included, before it calls the
 * host), so a page it accepts is read with plain loads.  Natively mincore
 * would take a PROT_NONE page: only an emulated CPU comes here.  (A page
 * another thread unmaps between the check and the loads would fault:
 * the price of an emulator that lacks the atomic read.)
 */
#include "args.h"
#include "sync.h"

#include <sys/mman.h>
#include <unistd.h>

static int page_readable(uintptr_t page, size_t size)
{
	unsigned char resident;

	return mincore((void *)page, size, &resident) == 0;
}

/* Byte by byte: libc's memcpy may use the vector registers. */
static void copy_bytes(char *to, const volatile char *from, size_t n)
{
	for (size_t i = 0; i < n; i++)
		to[i] = from[i];
}

long ft_args_read_emulated(uintptr_t p, char *buf, size_t len)
{
	static size_t page;
	size_t done = 0;

	if (!ftrace_cpu_emulated())
		return -1;
	if (!page)
		page = sysconf(_SC_PAGESIZE);
	while (done < len) {
		uintptr_t at = p + done, start = at & ~(page - 1);
		size_t chunk = start + page - at;

		if (chunk > len - done)
			chunk = len - done;
		if (!page_readable(start, page))
			break;
		copy_bytes(buf + done, (const volatile char *)at, chunk);
		done += chunk;
	}
	return done ? (long)done : -1;
}
