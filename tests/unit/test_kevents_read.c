// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the kernel's events: a perf ring of our own making read as the
 * kernel's, each hit once however many of our events saw it; and each
 * architecture's system calls by name, a recording read by the names of
 * the kernel it was made on.
 */
#include "unit.h"
#include "../../src/kevents/kevents.h"
#include "../../src/trace/kevents.h"
#include "../../src/trace/syscall_names.h"
#include "../../src/common/shm.h"

#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct fake_ring {
	struct kev_ring r;
	uint8_t *data;
	uint64_t head;
};

/* A raw_syscalls sample of thread tid: id at 8, then args (enter) or
 * ret (exit), as their formats put them. */
static void put_sample(struct fake_ring *f, int enter, uint32_t tid, uint64_t time, int64_t v,
		       uint64_t id)
{
	struct { struct perf_event_header h; uint32_t pid, tid; uint64_t time, id;
		 uint32_t cpu, res, raw_len; uint8_t raw[68]; } s = {
		.h = { PERF_RECORD_SAMPLE, 0, sizeof(s) }, .pid = 1, .tid = tid, .time = time,
		.id = id, .raw_len = sizeof(s.raw),
	};
	uint16_t type = enter ? 1 : 2;
	int64_t nr = 39;

	memcpy(s.raw, &type, 2);
	memcpy(s.raw + 8, &nr, 8);
	memcpy(s.raw + 16, &v, 8);
	memcpy(f->data + f->head, &s, sizeof(s));
	f->head += sizeof(s);
}

static void put_switch_in(struct fake_ring *f, uint32_t tid, uint64_t time, uint64_t id)
{
	struct { struct perf_event_header h; uint32_t pid, tid; uint64_t time, id;
		 uint32_t cpu, res; } s = {
		.h = { PERF_RECORD_SWITCH, 0, sizeof(s) }, .pid = 1, .tid = tid, .time = time, .id = id,
	};

	memcpy(f->data + f->head, &s, sizeof(s));
	f->head += sizeof(s);
}

/* PERF_RECORD_LOST: id, how many, then the sample_id. */
static void put_lost(struct fake_ring *f, uint64_t lost, uint64_t time)
{
	struct { struct perf_event_header h; uint64_t id, lost; uint32_t pid, tid; uint64_t time, sid;
		 uint32_t cpu, res; } s = {
		.h = { PERF_RECORD_LOST, 0, sizeof(s) }, .lost = lost, .time = time,
	};

	memcpy(f->data + f->head, &s, sizeof(s));
	f->head += sizeof(s);
}

/* A thread whose events were opened twice (record -p: inherited, then
 * its own) has each hit twice in a row, from two events (ids 7 and 8),
 * each with its time: read once.  The same call made again is one
 * event's twice: two. */
static void test_repeated(void)
{
	size_t page = sysconf(_SC_PAGESIZE);
	struct kevents k = { .used = 1u << TP_SYS_ENTER | 1u << TP_SYS_EXIT,
			     .buf = malloc(1 << 16), .out = open("/dev/null", O_WRONLY) };
	struct fake_ring f = { .r = { .fd = -1, .data_size = 4 * page } };

	k.tps[TP_SYS_ENTER] = (struct kev_tracepoint){ 1, { { "id", 8, 8 }, { "args", 16, 48 } }, 2 };
	k.tps[TP_SYS_EXIT] = (struct kev_tracepoint){ 2, { { "id", 8, 8 }, { "ret", 16, 8 } }, 2 };
	f.r.base = calloc(1, page + f.r.data_size);
	f.data = (uint8_t *)f.r.base + page;
	put_sample(&f, 1, 5, 100, 3, 7);
	put_sample(&f, 1, 5, 600, 3, 8);	/* the same entry, another event's */
	put_sample(&f, 0, 5, 700, 0, 7);
	put_sample(&f, 0, 5, 750, 0, 8);
	put_switch_in(&f, 5, 800, 9);
	put_switch_in(&f, 5, 820, 10);
	put_sample(&f, 1, 5, 900, 3, 7);	/* the same call made again */
	put_sample(&f, 1, 5, 950, 3, 7);	/* and again, its return elsewhere */
	put_sample(&f, 1, 6, 960, 3, 11);	/* and by another thread */
	put_lost(&f, 2, 970);			/* its return and next entry lost */
	put_sample(&f, 1, 6, 990, 3, 12);	/* the one after them */
	((struct perf_event_mmap_page *)f.r.base)->data_head = f.head;
	kev_ring_read(&k, &f.r);
	kev_flush(&k);
	CHECK("repeated: each entry, return and switch back once, the call after a loss too",
	      k.counts.by_kind[KEV_SYS_ENTER] == 5 && k.counts.by_kind[KEV_LOST] == 2 && k.counts.by_kind[KEV_SYS_EXIT] == 1 &&
	      k.counts.by_kind[KEV_SWITCH_IN] == 1);
	CHECK("repeated: counted as such", k.counts.repeated[KEV_SYS_ENTER] == 1 &&
	      k.counts.repeated[KEV_SYS_EXIT] == 1 && k.counts.repeated[KEV_SWITCH_IN] == 1);
	CHECK("repeated: the ring given back",
	      ((struct perf_event_mmap_page *)f.r.base)->data_tail == f.head);
	close(k.out);
	free(k.buf);
	free(k.wrap);
	free(f.r.base);
}

/* Each architecture's names, from its own headers (the cross compilers
 * scripts/deps.sh installs), and a recording read by the names of the
 * kernel it says it was made on. */
static void test_arches(void)
{
	char buf[32], dir[] = "/tmp/fntrace-kev-XXXXXX", path[256], text[128];
	struct kev_header h = { .magic = KEV_MAGIC, .record_size = sizeof(struct kev_record),
				.arch = KEV_ARCH_AARCH64 };
	struct kev_record read_call = { .time = 1, .tid = 5, .kind = KEV_SYS_ENTER, .nr = 63,
					.args = { 3, 0, 1 } };
	struct tr_kevents k;
	FILE *f;

	CHECK("x86_64: 59 is execve", !strcmp(syscall_name_of(KEV_ARCH_X86_64, 59, buf, 32), "execve"));
	CHECK("i386: 3 is read", !strcmp(syscall_name_of(KEV_ARCH_I386, 3, buf, 32), "read"));
	CHECK("aarch64: 63 is read", !strcmp(syscall_name_of(KEV_ARCH_AARCH64, 63, buf, 32), "read"));
	CHECK("riscv64: its own, past the generic ones",
	      !strcmp(syscall_name_of(KEV_ARCH_RISCV64, 259, buf, 32), "riscv_flush_icache"));
	CHECK("mips (o32): 4003 is read", !strcmp(syscall_name_of(KEV_ARCH_MIPS, 4003, buf, 32), "read"));
	CHECK("an architecture of no table: the number",
	      !strcmp(syscall_name_of(KEV_ARCHES, 63, buf, 32), "syscall_63"));
	CHECK("aarch64: execve's number", syscall_number_of(KEV_ARCH_AARCH64, "execve") == 221);
	CHECK("mips: a number past 4095 named", syscall_number_of(KEV_ARCH_MIPS, "syscall_4356") == 4356);
	CHECK("the host's own", syscall_number("getppid") ==
	      syscall_number_of(syscall_host_arch(), "getppid"));
	if (!mkdtemp(dir)) {
		CHECK("a directory for the kevents file", 0);
		return;
	}
	snprintf(path, sizeof(path), "%s/kevents", dir);
	f = fopen(path, "w");
	CHECK("an aarch64 recording written", f && fwrite(&h, sizeof(h), 1, f) == 1 &&
	      fwrite(&read_call, sizeof(read_call), 1, f) == 1 && fclose(f) == 0);
	CHECK("aarch64 recording: read", tr_kevents_read(dir, &k) == 0 && k.nr == 1 &&
	      k.arch == KEV_ARCH_AARCH64);
	CHECK("aarch64 recording: its calls by aarch64's names",
	      !strcmp(tr_kev_call_text(&k, &k.recs[0], text, sizeof(text)), "read(3, 0, 1)"));
	tr_kevents_free(&k);
	unlink(path);
	rmdir(dir);
}

/* The runtime's own work (KEV_OWN_WORK), filed after the calls it holds:
 * thread 5's system calls and page faults inside its window are left
 * out and counted apart, its calls outside it kept, and thread 6's,
 * at the same time, kept. */
static void test_own_work(void)
{
	char dir[] = "/tmp/fntrace-kev-XXXXXX", path[256];
	struct kev_header h;
	struct kev_record r[] = {
		{ .time = 10, .tid = 5, .kind = KEV_SYS_ENTER }, { .time = 11, .tid = 5, .kind = KEV_SYS_EXIT },
		{ .time = 20, .tid = 5, .kind = KEV_SYS_ENTER }, { .time = 21, .tid = 5, .kind = KEV_SYS_EXIT },
		{ .time = 20, .tid = 6, .kind = KEV_SYS_ENTER }, { .time = 21, .tid = 6, .kind = KEV_SYS_EXIT },
		{ .time = 25, .tid = 5, .kind = KEV_FAULT }, { .time = 26, .tid = 5, .kind = KEV_SWITCH_OUT },
		{ .time = 30, .tid = 5, .kind = KEV_SYS_ENTER }, { .time = 31, .tid = 5, .kind = KEV_SYS_EXIT },
		{ .time = 18, .tid = 5, .kind = KEV_OWN_WORK, .value = 26 },
		{ .time = 40, .tid = 5, .kind = KEV_OWN_WORK, .value = 50 },
	};
	struct tr_kevents k;
	size_t n5 = 0, n6 = 0;
	FILE *f;

	kev_header_init(&h, KEV_ARCH_X86_64);
	if (!mkdtemp(dir)) {
		CHECK("a directory for the kevents file", 0);
		return;
	}
	snprintf(path, sizeof(path), "%s/kevents", dir);
	f = fopen(path, "w");
	CHECK("own work: written", f && fwrite(&h, sizeof(h), 1, f) == 1 &&
	      fwrite(r, sizeof(r), 1, f) == 1 && fclose(f) == 0);
	CHECK("own work: read", tr_kevents_read(dir, &k) == 0);
	tr_kevents_of(&k, 5, &n5);
	tr_kevents_of(&k, 6, &n6);
	CHECK("own work: thread 5's calls outside it and its switch kept, thread 6's all",
	      n5 == 5 && n6 == 2 && k.counts[KEV_SYS_ENTER] == 3 && k.counts[KEV_FAULT] == 0);
	CHECK("own work: what it left out, counted apart", k.own_work[KEV_SYS_ENTER] == 1 &&
	      k.own_work[KEV_SYS_EXIT] == 1 && k.own_work[KEV_FAULT] == 1 &&
	      k.own_work[KEV_SWITCH_OUT] == 0);
	tr_kevents_free(&k);
	unlink(path);
	rmdir(dir);
}

static void put_window(struct ft_shm *shm, uint32_t n, uint32_t seq, uint64_t from)
{
	struct ft_own_window *w = &shm->own_windows[n % FT_OWN_WINDOWS];

	atomic_store(&w->seq, seq);
	atomic_store(&w->tid, 5);
	atomic_store(&w->from[0], (uint32_t)from);
	atomic_store(&w->to[0], (uint32_t)from + 1);
}

/* The recorder files the header's windows in their order: one still being
 * written stops a pass, unless it is the last; a ring gone round is
 * taken from its oldest slot. */
static void test_own_work_filed(void)
{
	struct ft_shm *shm = calloc(1, sizeof(*shm));
	struct kev_keep keep;
	struct kevents k = { .shm = shm };

	kev_keep_init(&keep, 64 * sizeof(struct kev_record), KEV_ARCH_X86_64);
	k.keep = keep;
	shm->word_order = FT_WORD_ORDER;
	put_window(shm, 0, 1, 100);
	put_window(shm, 1, 0, 200);		/* its writer halfway */
	put_window(shm, 2, 3, 300);
	atomic_store(&shm->own_next, 3);
	kev_file_own_work(&k, 0);
	CHECK("filed: the whole one before the torn one", k.keep.own_put == 1 && k.own_seen == 1 &&
	      k.keep.own[0].time == 100 && k.keep.own[0].value == 101 && k.keep.own[0].tid == 5);
	kev_file_own_work(&k, 1);
	CHECK("filed: the last pass past the torn one", k.keep.own_put == 2 && k.own_seen == 3 &&
	      k.keep.own[1].time == 300);
	for (uint32_t n = 3; n < 3 + FT_OWN_WINDOWS + 5; n++)
		put_window(shm, n, n + 1, 1000 + n);
	atomic_store(&shm->own_next, 3 + FT_OWN_WINDOWS + 5);
	kev_file_own_work(&k, 0);
	CHECK("filed: a ring gone round, from its oldest", k.keep.own_put == 2 + FT_OWN_WINDOWS &&
	      k.keep.own[2].time == 1000 + 8);
	atomic_store(&shm->thread_windows[0].seq, 1);
	atomic_store(&shm->thread_windows[0].from[0], 7);
	atomic_store(&shm->thread_next, 1);
	kev_file_own_work(&k, 0);
	CHECK("filed: a thread's share, from its own ring", k.keep.own_put == 3 + FT_OWN_WINDOWS &&
	      k.keep.own[(2 + FT_OWN_WINDOWS) % KEV_KEEP_OWN].time == 7);
	kev_keep_free(&k.keep);
	free(shm);
}

int main(void)
{
	test_repeated();
	test_arches();
	test_own_work();
	test_own_work_filed();
	return unit_done();
}
