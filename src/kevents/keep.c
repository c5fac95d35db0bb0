// SPDX-License-Identifier: GPL-2.0
/*
 * The flight recorder's kernel events (record --overwrite -e): read from
 * the perf rings as ever, but kept in memory, a ring of the newest
 * records, rather than written out; each snapshot gets the window of
 * them its calls cover, as a kevents file of its own.  The bound keeps
 * hours of recording in the same memory; what it overwrote is counted
 * apart from what the kernel lost, and how late the ring's records are
 * whole from, so that a snapshot says both.
 *
 *   put:   recs[put % cap], the oldest overwritten once put >= cap
 *   kept:  recs[(put - nr) % cap] .. recs[(put - 1) % cap], oldest first
 *
 * The records are in the order they were read, each CPU's in time order
 * and the CPUs interleaved by pass, so the window is chosen by each
 * record's time, not by where it lies.
 */
#include "kevents.h"
#include "../common/fileio.h"
#include "../common/print.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WRITE_RECORDS	820		/* about 64 KB a write */

int kev_keep_init(struct kev_keep *kp, size_t bytes, unsigned arch)
{
	*kp = (struct kev_keep){ .cap = bytes / sizeof(struct kev_record), .arch = arch };
	if (kp->cap < 2)
		kp->cap = 2;
	/* Untouched pages cost nothing until records fill them. */
	kp->recs = malloc(kp->cap * sizeof(*kp->recs));
	return kp->recs ? 0 : -1;
}

void kev_keep_free(struct kev_keep *kp)
{
	free(kp->recs);
	kp->recs = NULL;
}

void kev_keep_put(struct kev_keep *kp, const struct kev_record *rec)
{
	struct kev_record *slot = &kp->recs[kp->put % kp->cap];

	if (rec->kind == KEV_OWN_WORK) {
		kp->own[kp->own_put++ % KEV_KEEP_OWN] = *rec;
		return;
	}

	if (kp->put >= kp->cap) {
		if (slot->time > kp->overwritten_until)
			kp->overwritten_until = slot->time;
		if (slot->kind == KEV_LOST)
			kp->lost_overwritten += (uint64_t)slot->value;
	}
	*slot = *rec;
	kp->put++;
}

static uint64_t nr_kept(const struct kev_keep *kp)
{
	return kp->put < kp->cap ? kp->put : kp->cap;
}

static int write_header(int fd, unsigned arch)
{
	struct kev_header h;

	kev_header_init(&h, arch);
	return write_all(fd, &h, sizeof(h));
}

/* A record in [from, to]; the runtime's own work's, if it reaches into
 * it: the calls of it that the window holds are left out. */
static int in_window(const struct kev_record *r, uint64_t from, uint64_t to)
{
	uint64_t end = r->kind == KEV_OWN_WORK ? (uint64_t)r->value : r->time;

	return end >= from && r->time <= to;
}

/* The kept records of [from, to], oldest first, into fd; the kernel's
 * losses said before from added to w->lost_before. */
static int write_window(const struct kev_keep *kp, int fd, uint64_t from, uint64_t to,
			struct kev_window *w)
{
	struct kev_record *buf = malloc(WRITE_RECORDS * sizeof(*buf));
	uint64_t nr = nr_kept(kp);
	size_t n = 0;
	int ret = buf ? 0 : -1;

	for (uint64_t i = kp->put - nr; !ret && i < kp->put; i++) {
		const struct kev_record *r = &kp->recs[i % kp->cap];

		if (r->time < from && r->kind == KEV_LOST)
			w->lost_before += (uint64_t)r->value;
		if (!in_window(r, from, to))
			continue;
		buf[n++] = *r;
		w->written++;
		if (n == WRITE_RECORDS) {
			ret = write_all(fd, buf, n * sizeof(*buf));
			n = 0;
		}
	}
	if (!ret && n)
		ret = write_all(fd, buf, n * sizeof(*buf));
	free(buf);
	return ret;
}

/* The windows of the runtime's own work that reach into [from, to]. */
static int write_own_work(const struct kev_keep *kp, int fd, uint64_t from, uint64_t to)
{
	uint64_t nr = kp->own_put < KEV_KEEP_OWN ? kp->own_put : KEV_KEEP_OWN;

	for (uint64_t i = kp->own_put - nr; i < kp->own_put; i++) {
		const struct kev_record *r = &kp->own[i % KEV_KEEP_OWN];

		if (in_window(r, from, to) && write_all(fd, r, sizeof(*r)))
			return -1;
	}
	return 0;
}

int kev_keep_write(const struct kev_keep *kp, const char *dir, uint64_t from, uint64_t to,
		   struct kev_window *w)
{
	char path[4200];
	int fd, ret;

	*w = (struct kev_window){ .cap = kp->cap, .lost_before = kp->lost_overwritten,
				  .overwritten = kp->put - nr_kept(kp),
				  .whole_from = kp->overwritten_until };
	snprintf(path, sizeof(path), "%s/kevents", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ret = fd < 0 || write_header(fd, kp->arch) || write_window(kp, fd, from, to, w) ||
	      write_own_work(kp, fd, from, to) ? -1 : 0;
	if (ret)
		pr_warn("cannot write %s: %s", path, strerror(errno ? errno : EIO));
	if (fd >= 0 && close(fd) && !ret) {
		pr_warn("cannot write %s: %s", path, strerror(errno));
		ret = -1;
	}
	return ret;
}

void kev_keep_info(const struct kev_window *w, char *buf, size_t len)
{
	snprintf(buf, len, "snapshot_kevents: %llu %llu %llu %llu\n",
		 (unsigned long long)w->overwritten, (unsigned long long)w->whole_from,
		 (unsigned long long)w->lost_before, (unsigned long long)w->cap);
}
