// SPDX-License-Identifier: GPL-2.0
/*
 * record -e's pieces that need no kernel: -e's syntax, a tracepoint's
 * fields read from a format file (a tracefs of our own making), the
 * system calls' names, the task states, a thread's time off the CPU
 * from its switches, and the flight recorder's bounded ring of them with
 * the window a snapshot gets.
 */
#include "unit.h"
#include "../../src/kevents/kevents.h"
#include "../../src/trace/kevents.h"
#include "../../src/trace/syscall_names.h"

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
	CHECK("-e syscalls:read,,write refused", request("syscalls:read,,write", &r) < 0);
	CHECK("-e syscalls:read, refused", request("syscalls:read,", &r) < 0);
}

/* The program's numbering: i386's on x86_64 (an IA-32 program), and a
 * name only i386 has taken, for it. */
static void test_request_arch(void)
{
	struct kev_request r = { 0 };
	char err[256];

	CHECK("-e syscalls:getppid,socketcall", request("syscalls:getppid,socketcall", &r) == 0);
	CHECK("for i386: its numbers", kev_request_for_arch(&r, KEV_ARCH_I386, err, sizeof(err)) == 0 &&
	      r.syscalls[0] == 64 && r.syscalls[1] == 102 && r.arch == KEV_ARCH_I386);
	CHECK("said back as named", (kev_request_text(&r, err, sizeof(err)),
				     !strcmp(err, "syscalls:getppid,socketcall")));
	CHECK("for x86_64: no socketcall",
	      kev_request_for_arch(&r, KEV_ARCH_X86_64, err, sizeof(err)) < 0 &&
	      !strcmp(err, "-e syscalls:socketcall: no such system call on x86_64"));
	CHECK("a name no architecture has", request("syscalls:nosuchcall", &r) < 0);
}

/* What a slip in a name list is told: the empty name, not the group's. */
static void test_request_errors(void)
{
	struct kev_request r = { 0 };
	char err[256];

	kev_request_add(&r, "syscalls:", err, sizeof(err));
	CHECK("syscalls: says the name is empty", strstr(err, "a system call name is empty"));
	kev_request_add(&r, "syscalls:read,,write", err, sizeof(err));
	CHECK("read,,write says the same, whole",
	      !strcmp(err, "-e syscalls:read,,write: a system call name is empty (syscalls:read,write)"));
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

/* A flight recording's ring of 10 records after 25 put, times 10, 20 ..
 * 250, a LOST of 7 at 50 (overwritten) and one of 3 at 220 (kept): the
 * window 205..240 is read back from the file the reader reads. */
static void test_keep(void)
{
	struct kevents k = { .out = -1 };
	struct kev_window w;
	struct tr_kevents got;
	char dir[] = "/tmp/fntrace-keep-XXXXXX", path[64];

	CHECK("keep: made",
	      mkdtemp(dir) && kev_keep_init(&k.keep, 10 * sizeof(struct kev_record), syscall_host_arch()) == 0);
	for (int i = 1; i <= 25; i++) {
		struct kev_record r = { .time = 10 * i, .tid = 7, .kind = KEV_SYS_ENTER, .nr = 110 };

		if (i == 5 || i == 22)
			r = (struct kev_record){ .time = 10 * i, .kind = KEV_LOST,
						 .value = i == 5 ? 7 : 3 };
		kev_put(&k, &r);
	}
	CHECK("keep: every one counted", k.counts.by_kind[KEV_SYS_ENTER] == 23 &&
	      k.counts.by_kind[KEV_LOST] == 10);
	CHECK("keep: the window written", kev_keep_write(&k.keep, dir, 205, 240, &w) == 0);
	CHECK("keep: 15 overwritten, whole after 150",
	      w.overwritten == 15 && w.whole_from == 150 && w.cap == 10);
	CHECK("keep: 210 to 240 kept of the window", w.written == 4);
	CHECK("keep: the LOST overwritten said apart", w.lost_before == 7);
	CHECK("keep: the file reads", tr_kevents_read(dir, &got) == 0 && !got.bad[0] &&
	      got.nr == 4 && got.recs[0].time == 210 && got.recs[3].time == 240);
	CHECK("keep: the LOST kept in the window counted", got.counts[KEV_LOST] == 3);
	CHECK("keep: the file says the recorder's system call numbering",
	      got.arch == syscall_host_arch());
	tr_kevents_free(&got);
	CHECK("keep: from 0, every kept one to 250",
	      kev_keep_write(&k.keep, dir, 0, 1000, &w) == 0 && w.written == 10);
	CHECK("keep: LOST records before the window said",
	      kev_keep_write(&k.keep, dir, 230, 250, &w) == 0 && w.lost_before == 10 &&
	      w.written == 3);
	kev_keep_free(&k.keep);
	snprintf(path, sizeof(path), "%s/kevents", dir);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	test_request();
	test_request_errors();
	test_request_arch();
	test_names();
	test_format();
	test_states();
	test_off_cpu();
	test_keep();
	return unit_done();
}
