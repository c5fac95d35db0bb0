// SPDX-License-Identifier: GPL-2.0
/*
 * RLIMIT_AS counts every mapping of the process, the runtime's too: its
 * records, tables and 16 MB trace buffer.  A program that sets a limit it
 * meets only barely (or runs under `ulimit -v`) would meet it earlier
 * under fntrace: pthread_create failing, with nothing to say why.
 *
 * So the runtime keeps count of its own footprint, and the program's
 * limit is kept as a limit on the program's memory: the soft limit is
 * raised by the footprint, at start-up (for a limit set before exec) and
 * through setrlimit() and prlimit() (wrapped: a limit the program sets
 * later gets the footprint added, its hard limit too as far as the
 * current hard limit allows).  The footprint is the runtime's image as
 * the loader mapped it, what start-up maps (VmSize before and after: the
 * records, tables, the recorder's buffer, the control thread's stack),
 * and each mapping made later (the trace buffer `ctl` asks for, thread
 * states prepared for a tracer).  Start-up lifts the soft limit to the
 * hard one while it maps, so that its own mappings do not fail first.  Where the hard
 * limit leaves no room, one line says how much of the program's limit
 * the runtime takes.  getrlimit() shows the raised value; an exec()ed
 * program inherits it.
 */
#include "limits.h"
#include "ftrace.h"
#include "messages.h"
#include "procstatus.h"

#include <link.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Kept in the kernel's 64-bit form (prlimit64), whatever the ABI's
 * struct rlimit is. */
static size_t footprint;		/* bytes the runtime mapped */
static long vm_before_kb = -1;
static int starting;			/* start-up measures what it maps */
static uint64_t startup_soft = RLIM64_INFINITY;	/* the program's, at start-up */

static int limit_call(pid_t pid, int resource, const struct rlimit64 *set,
		      struct rlimit64 *old)
{
	return (int)syscall(SYS_prlimit64, pid, resource, set, old);
}

static int get_as(struct rlimit64 *r)
{
	return limit_call(0, RLIMIT_AS, NULL, r);
}

static int set_as(const struct rlimit64 *r)
{
	return limit_call(0, RLIMIT_AS, r, NULL);
}

static unsigned long mb(uint64_t bytes)
{
	return (unsigned long)((bytes + (1 << 20) - 1) >> 20);
}

static void say_counted(uint64_t short_by)
{
	static int said;

	if (!said++)
		ft_warn("RLIMIT_AS: the hard limit leaves no room for the runtime's own "
			"memory: %lu MB of it count against the program's limit",
			mb(short_by));
}

/* want, or as near as the hard limit allows (said once if not). */
static uint64_t capped(uint64_t want, uint64_t hard)
{
	if (hard == RLIM64_INFINITY || want <= hard)
		return want;
	say_counted(want - hard);
	return hard;
}

/* The runtime's own image, which the loader mapped before start-up. */
static int add_own_image(struct dl_phdr_info *info, size_t size, void *arg)
{
	uintptr_t here = (uintptr_t)add_own_image, ps = (uintptr_t)sysconf(_SC_PAGESIZE);
	size_t bytes = 0;
	int ours = 0;

	for (unsigned i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		ours |= lo <= here && here < lo + ph->p_memsz;
		bytes += ((lo + ph->p_memsz + ps - 1) & ~(ps - 1)) - (lo & ~(ps - 1));
	}
	if (ours)
		*(size_t *)arg = bytes;
	return ours;
}

void ft_limits_startup_begin(void)
{
	struct rlimit64 r;

	dl_iterate_phdr(add_own_image, &footprint);
	vm_before_kb = ft_status_field("/proc/self/status", "VmSize");
	starting = 1;
	if (get_as(&r) || r.rlim_cur == RLIM64_INFINITY)
		return;
	startup_soft = r.rlim_cur;
	r.rlim_cur = r.rlim_max;
	set_as(&r);
}

void ft_limits_startup_end(void)
{
	long vm_kb = ft_status_field("/proc/self/status", "VmSize");
	struct rlimit64 r;

	starting = 0;
	if (vm_before_kb >= 0 && vm_kb > vm_before_kb)
		footprint += (size_t)(vm_kb - vm_before_kb) << 10;
	if (startup_soft == RLIM64_INFINITY || get_as(&r))
		return;
	r.rlim_cur = capped(startup_soft + footprint, r.rlim_max);
	set_as(&r);
	if (r.rlim_cur == startup_soft + footprint)
		ft_warn("RLIMIT_AS: the program's limit raised by %lu MB, the runtime's own memory",
			mb(footprint));
}

void ft_limits_grow(size_t bytes)
{
	struct rlimit64 r;

	if (starting)
		return;
	footprint += bytes;
	if (get_as(&r) || r.rlim_cur == RLIM64_INFINITY)
		return;
	r.rlim_cur = capped(r.rlim_cur + bytes, r.rlim_max);
	set_as(&r);
}

/* The program's limit on its address space, plus the runtime's share. */
static struct rlimit64 with_footprint(const struct rlimit64 *asked)
{
	static int said;
	struct rlimit64 now, r = *asked;

	if (get_as(&now))
		return r;
	if (r.rlim_cur != RLIM64_INFINITY && !said++)
		ft_warn("RLIMIT_AS: the program's limit raised by %lu MB, the runtime's own memory",
			mb(footprint));
	if (r.rlim_max != RLIM64_INFINITY)
		r.rlim_max = capped(r.rlim_max + footprint, now.rlim_max);
	if (r.rlim_cur != RLIM64_INFINITY)
		r.rlim_cur = capped(r.rlim_cur + footprint, r.rlim_max);
	return r;
}

/* prlimit64(2), but for RLIMIT_AS on the process itself: the footprint
 * added to what it sets. */
static int set_limit(pid_t pid, int resource, const struct rlimit64 *asked,
		     struct rlimit64 *old)
{
	struct rlimit64 r;

	if (!asked || resource != RLIMIT_AS || (pid != 0 && pid != getpid()))
		return limit_call(pid, resource, asked, old);
	r = with_footprint(asked);
	return limit_call(pid, resource, &r, old);
}

/*
 * The wrappers, by their symbols: the plain ones take a limit of machine
 * words (32 bits, with their own infinity, on i386; the 64-bit form
 * elsewhere), the *64 ones the kernel's.  Named by asm labels, since a
 * 32-bit build's headers turn setrlimit into setrlimit64.
 */
struct word_rlimit {
	unsigned long cur, max;
};

static uint64_t widen(unsigned long v)
{
	return v == ~0UL ? RLIM64_INFINITY : v;
}

static unsigned long narrow(uint64_t v)
{
	return v >= (uint64_t)~0UL ? ~0UL : (unsigned long)v;
}

static int set_word_limit(pid_t pid, int resource, const struct word_rlimit *asked,
			  struct word_rlimit *old)
{
	struct rlimit64 in, out;
	int ret;

	if (asked)
		in = (struct rlimit64){ widen(asked->cur), widen(asked->max) };
	ret = set_limit(pid, resource, asked ? &in : NULL, old ? &out : NULL);
	if (ret == 0 && old)
		*old = (struct word_rlimit){ narrow(out.rlim_cur), narrow(out.rlim_max) };
	return ret;
}

FT_EXPORT int ft_setrlimit(int resource, const struct word_rlimit *r) __asm__("setrlimit");
FT_EXPORT int ft_setrlimit64(int resource, const struct rlimit64 *r) __asm__("setrlimit64");
FT_EXPORT int ft_prlimit(pid_t pid, int resource, const struct word_rlimit *r,
			 struct word_rlimit *old) __asm__("prlimit");
FT_EXPORT int ft_prlimit64(pid_t pid, int resource, const struct rlimit64 *r,
			   struct rlimit64 *old) __asm__("prlimit64");

int ft_setrlimit(int resource, const struct word_rlimit *r)
{
	return set_word_limit(0, resource, r, NULL);
}

int ft_setrlimit64(int resource, const struct rlimit64 *r)
{
	return set_limit(0, resource, r, NULL);
}

int ft_prlimit(pid_t pid, int resource, const struct word_rlimit *r, struct word_rlimit *old)
{
	return set_word_limit(pid, resource, r, old);
}

int ft_prlimit64(pid_t pid, int resource, const struct rlimit64 *r, struct rlimit64 *old)
{
	return set_limit(pid, resource, r, old);
}
