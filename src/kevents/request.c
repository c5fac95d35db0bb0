// SPDX-License-Identifier: GPL-2.0
/*
 * record -e: which kernel events, in trace-cmd's spirit (`-e sched`,
 * repeatable), the groups named as the kernel's tracepoint systems are
 * (sched, syscalls, and faults for the exceptions' page faults), a group
 * narrowed after a colon as trace-cmd narrows a system to an event:
 * `-e syscalls:read,write,futex` records those calls only, filtered in
 * the kernel.
 */
#include "kevents.h"
#include "../trace/syscall_names.h"

#include <stdio.h>
#include <string.h>

static const struct { const char *name; unsigned group; } groups[] = {
	{ "sched", KEV_GROUP_SCHED },
	{ "faults", KEV_GROUP_FAULTS },
	{ "syscalls", KEV_GROUP_SYSCALLS },	/* last: its names follow it */
};

#define NR_GROUPS (sizeof(groups) / sizeof(groups[0]))

static unsigned group_of(const char *name, size_t len)
{
	for (size_t i = 0; i < NR_GROUPS; i++)
		if (strlen(groups[i].name) == len && !strncmp(groups[i].name, name, len))
			return groups[i].group;
	return 0;
}

/* A name any architecture has: its number for the host until the
 * program's architecture is known (kev_request_for_arch). */
static int add_syscall(struct kev_request *req, const char *name, char *err, size_t len)
{
	if (!syscall_known(name) || strlen(name) >= sizeof(req->names[0])) {
		snprintf(err, len, "-e syscalls:%s: no such system call", name);
		return -1;
	}
	if (req->nr_syscalls == KEV_MAX_SYSCALLS) {
		snprintf(err, len, "-e syscalls: more than %d calls named", KEV_MAX_SYSCALLS);
		return -1;
	}
	snprintf(req->names[req->nr_syscalls], sizeof(req->names[0]), "%s", name);
	req->arch = syscall_host_arch();
	req->syscalls[req->nr_syscalls++] = syscall_number_of(req->arch, name);
	return 0;
}

int kev_request_for_arch(struct kev_request *req, unsigned arch, char *err, size_t len)
{
	for (unsigned i = 0; i < req->nr_syscalls; i++) {
		req->syscalls[i] = syscall_number_of(arch, req->names[i]);
		if (req->syscalls[i] < 0) {
			snprintf(err, len, "-e syscalls:%s: no such system call on %s",
				 req->names[i], syscall_arch_name(arch));
			return -1;
		}
	}
	req->arch = arch;
	return 0;
}

/* "read,write,futex" after "syscalls:" in arg; an empty name anywhere
 * is a slip, not "none". */
static int add_syscalls(struct kev_request *req, const char *arg, const char *list, char *err,
			size_t len)
{
	char name[64];

	for (;;) {
		size_t n = strcspn(list, ",");

		if (!n) {
			snprintf(err, len, "-e %s: a system call name is empty (syscalls:read,write)",
				 arg);
			return -1;
		}
		snprintf(name, sizeof(name), "%.*s", (int)n, list);
		if (add_syscall(req, name, err, len))
			return -1;
		if (!list[n])
			return 0;
		list += n + 1;
	}
}

int kev_request_add(struct kev_request *req, const char *arg, char *err, size_t len)
{
	const char *colon = strchr(arg, ':');
	const char *p = arg, *end = colon ? colon : arg + strlen(arg);
	unsigned g = 0;

	if (p == end) {
		snprintf(err, len, "-e '%s': no event group (sched, syscalls, faults)", arg);
		return -1;
	}
	while (p < end) {
		size_t n = strcspn(p, ",:");

		g = group_of(p, n);

		if (!g) {
			snprintf(err, len, "-e %s: no such event group '%.*s' "
				 "(sched, syscalls, syscalls:NAME,..., faults)", arg, (int)n, p);
			return -1;
		}
		req->groups |= g;
		p += n + (p[n] == ',');
	}
	if (!colon)
		return 0;
	if (g != KEV_GROUP_SYSCALLS) {
		snprintf(err, len, "-e %s: only syscalls takes names (syscalls:read,write)", arg);
		return -1;
	}
	return add_syscalls(req, arg, colon + 1, err, len);
}

void kev_request_text(const struct kev_request *req, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t i = 0; i < NR_GROUPS && at < len; i++) {
		if (!(req->groups & groups[i].group))
			continue;
		at += snprintf(buf + at, len - at, "%s%s", at ? "," : "", groups[i].name);
		for (unsigned s = 0; groups[i].group == KEV_GROUP_SYSCALLS &&
				     s < req->nr_syscalls && at < len; s++)
			at += snprintf(buf + at, len - at, "%c%s", s ? ',' : ':', req->names[s]);
	}
}
