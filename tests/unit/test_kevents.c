// SPDX-License-Identifier: GPL-2.0
/*
 * record -e's pieces that need no kernel: -e's syntax, a tracepoint's
 * fields read from a format file (a tracefs of our own making), the
 * system calls' names, the task states, a thread's time off the CPU
 * from its switches, a ring's records read once each, and each
 * architecture's system calls by name.
 */
#include "unit.h"
#include "../../src/kevents/kevents.h"
#include "../../src/trace/kevents.h"
#include "../../src/trace/syscall_names.h"

#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int request(const char *arg, struct kev_request *req)
{
	char err[256];

	return kev_request_add(req, arg, err, sizeof(err));
}

static void test_request(void)
{
	struct kev_request r = { 0 };
	char text[256];

	CHECK("-e sched", request("sched", &r) == 0 && r.groups == KEV_GROUP_SCHED);
	CHECK("-e syscalls:read,write", request("syscalls:read,write", &r) == 0 &&
	      r.nr_syscalls == 2 && r.syscalls[0] == 0 && r.syscalls[1] == 1);
	CHECK("-e faults,sched", request("faults,sched", &r) == 0 &&
	      r.groups == (KEV_GROUP_SCHED | KEV_GROUP_SYSCALLS | KEV_GROUP_FAULTS));
	kev_request_text(&r, text, sizeof(text));
	CHECK("the request said back, syscalls last", !strcmp(text, "sched,faults,syscalls:read,write"));
	r = (struct kev_request){ 0 };
	CHECK("-e sched,syscalls:futex", request("sched,syscalls:futex", &r) == 0 &&
	      r.nr_syscalls == 1 && r.syscalls[0] == 202);
	CHECK("-e syscalls:syscall_1000", request("syscalls:syscall_1000", &r) == 0 &&
	      r.syscalls[1] == 1000);
	CHECK("-e bogus refused", request("bogus", &r) < 0);
	CHECK("-e '' refused", request("", &r) < 0);
	CHECK("-e sched:x refused", request("sched:x", &r) < 0);
	CHECK("-e syscalls: refused", request("syscalls:", &r) < 0);
	CHECK("-e syscalls:nosuch refused", request("syscalls:nosuch", &r) < 0);
}

static void test_names(void)
{
	char buf[32];

	CHECK("syscall 0 is read", !strcmp(syscall_name(0, buf, sizeof(buf)), "read"));
	CHECK("syscall 202 is futex", !strcmp(syscall_name(202, buf, sizeof(buf)), "futex"));
	CHECK("an unknown number", !strcmp(syscall_name(4000, buf, sizeof(buf)), "syscall_4000"));
	CHECK("getppid's number", syscall_number("getppid") == 110);
	CHECK("no such name", syscall_number("nosuch") == -1 && syscall_number("syscall_") == -1);
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

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* A tracefs of our own, with sched_switch's format as 6.x has it, but
 * its fields moved: they are read from the file, not assumed. */
static void test_format(void)
{
	char dir[] = "/tmp/fntrace-kev-XXXXXX", path[256];
	struct kev_tracepoint tp = { .fields = { { "prev_state" }, { "next_pid" }, { "next_comm" } },
				     .nr_fields = 3 };
	struct kev_tracepoint missing = { .fields = { { "nosuch" } }, .nr_fields = 1 };

	if (!mkdtemp(dir)) {
		CHECK("a directory for the fake tracefs", 0);
		return;
	}
	snprintf(path, sizeof(path), "%s/events", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/events/sched", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/id", dir);
	write_file(path, "372\n");
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/format", dir);
	write_file(path,
		   "name: sched_switch\nID: 372\nformat:\n"
		   "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		   "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
		   "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
		   "\tfield:int prev_state;\toffset:28;\tsize:4;\tsigned:1;\n"
		   "\tfield:char next_comm[16];\toffset:36;\tsize:16;\tsigned:0;\n"
		   "\tfield:pid_t next_pid;\toffset:52;\tsize:4;\tsigned:1;\n\n"
		   "print fmt: \"...\"\n");
	CHECK("format: read", kev_tracepoint(dir, "sched/sched_switch", &tp) == 0);
	CHECK("format: the id", tp.id == 372);
	CHECK("format: prev_state where the file says", tp.fields[0].offset == 28 &&
	      tp.fields[0].size == 4);
	CHECK("format: next_pid", tp.fields[1].offset == 52 && tp.fields[1].size == 4);
	CHECK("format: an array's name", tp.fields[2].offset == 36 && tp.fields[2].size == 16);
	CHECK("format: a field it lacks", kev_tracepoint(dir, "sched/sched_switch", &missing) < 0);
	CHECK("format: a tracepoint it lacks", kev_tracepoint(dir, "sched/nosuch", &tp) < 0);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	CHECK("fake tracefs removed", system(path) == 0);
}

static void test_states(void)
{
	CHECK("state 0: R", !strcmp(tr_kev_state(0), "R"));
	CHECK("state 1: S", !strcmp(tr_kev_state(1), "S") &&
	      !strcmp(tr_kev_state_name(1), "sleeping"));
	CHECK("state 2: D", !strcmp(tr_kev_state(2), "D") &&
	      !strcmp(tr_kev_state_name(2), "disk sleep"));
	CHECK("TASK_REPORT_MAX: R+", !strcmp(tr_kev_state(0x100), "R+") &&
	      !strcmp(tr_kev_state_name(0x100), "preempted"));
}

/* Switches of thread 7: off 100..150 and 300..400; a wake-up between. */
static void test_off_cpu(void)
{
	struct kev_record recs[] = {
		{ .time = 100, .tid = 7, .kind = KEV_SWITCH_OUT },
		{ .time = 150, .tid = 7, .kind = KEV_SWITCH_IN },
		{ .time = 200, .tid = 8, .kind = KEV_WAKEUP, .value = 7 },
		{ .time = 300, .tid = 7, .kind = KEV_SWITCH_OUT },
		{ .time = 400, .tid = 7, .kind = KEV_SWITCH_IN },
	};
	struct tr_kev_ref refs[] = { { 7, 0 }, { 7, 1 }, { 7, 3 }, { 7, 4 } };
	struct tr_kevents k = { .present = 1, .recs = recs, .nr = 5, .refs = refs, .nr_refs = 4 };
	struct tr_off_cpu o;
	const struct tr_kev_ref *of;
	size_t nr;

	of = tr_kevents_of(&k, 7, &nr);
	CHECK("off CPU: found", tr_off_cpu_init(&k, of, nr, &o) == 0 && o.nr == 2);
	CHECK("off CPU: all of it", tr_off_cpu_between(&o, 0, 1000) == 150);
	CHECK("off CPU: a span cut at both ends", tr_off_cpu_between(&o, 120, 350) == 30 + 50);
	CHECK("off CPU: between spans", tr_off_cpu_between(&o, 150, 300) == 0);
	CHECK("off CPU: inside one", tr_off_cpu_between(&o, 310, 320) == 10);
	CHECK("off CPU: another thread has none", (tr_off_cpu_free(&o),
	      of = tr_kevents_of(&k, 8, &nr), tr_off_cpu_init(&k, of, nr, &o) == 0 && o.nr == 0));
	tr_off_cpu_free(&o);
}

/* ---- a ring of our own making, read as the kernel's ---- */

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

int main(void)
{
	test_request();
	test_names();
	test_format();
	test_states();
	test_off_cpu();
	test_repeated();
	test_arches();
	return unit_done();
}
