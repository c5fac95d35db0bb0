# record -e across fork and exec: kev_fork makes 30 getppid calls, forks
# a child that makes 50, sleeps 10 ms and execs kev_exec (a program with
# call sites of its own), which makes 70 and sleeps 30 ms; the parent
# waits for it.  Each process's system calls and context switches are
# recorded under its own pid, each program's inside its own functions,
# once: an exec keeps the pid and the tid, and the kernel's events of the
# child before the exec are its first program's, after it the second's.

. "$top/tests/kev_lib.sh"
if ! kev_tracefs; then
	t_skip "kernel events" "no tracefs, and not root to mount it"
	return 0
fi
trap kev_untracefs EXIT

t_build gcc-pg -O2 kev_fork "$top/tests/progs/kev_fork.c"
t_build gcc-pg -O2 kev_exec "$top/tests/progs/kev_exec.c"

"$FNTRACE" record -e sched -e syscalls -o f.data -- ./kev_fork ./kev_exec >f.out 2>f.err
t_eq "exit status: the exec'd program's, through its parent's wait" 3 "$?"
parent=$(sed -n 's/^parent //p' f.out)
child=$(sed -n 's/^child //p' f.out)
"$FNTRACE" info -i f.data >info.txt
t_ok "info: three programs, the child's two" \
	grep -qE "^ +$child +[^ ]*/kev_exec \(after exec 1\)$" info.txt
t_ok "info: none lost" grep -qE '^kernel lost +0 events$' info.txt
"$FNTRACE" report -i f.data -O nocpu --tid "$parent" >parent.txt
"$FNTRACE" report -i f.data -O nocpu --tid "$child" >child.txt
kev_graph f.data >all.txt

# within FILE FUNC CALL: the CALL lines of a report inside FUNC's calls,
# then those outside them.
within() {
	awk -v f="$2" -v c=" $3(" '
	index($0, c) && /\|/ { if (inside) n++; else out++ }
	index($0, f "() {") { inside = 1 } index($0, "} /* " f " */") { inside = 0 }
	END { print n + 0, out + 0 }' "$1"
}
# task FILE CALL: the tasks ("kev_exe-PID", as the graph's column cuts
# the name) CALL's lines are in, a count each.
task() {
	grep -E "\| +$2\(" "$1" | awk '{ print $1 }' | sort | uniq -c | awk '{ print $2, $1 }' | xargs
}

# ---- each process's calls, under its pid, in its own functions ----
t_eq "parent: its 30 getppid, inside parent_calls()" "30 0" "$(within parent.txt parent_calls getppid)"
t_eq "child: its 50 before the exec, inside child_calls()" "50 70" "$(within child.txt child_calls getppid)"
t_eq "child: the exec'd program's 70, inside exec_calls()" "70 50" "$(within child.txt exec_calls getppid)"
t_eq "child: each program's getppid under its own name" \
	"kev_exe-$child 70 kev_for-$child 50" "$(task child.txt getppid)"
t_eq "all: each getppid once" 150 "$(kev_calls all.txt getppid)"
t_eq "the fork in the parent's spawn()" "1 0" "$(within parent.txt spawn clone)"
t_eq "the child's clone returns in the child, once" 1 "$(grep -c '} /\* clone = 0 \*/' child.txt)"
t_eq "the exec: its entry in the first program" "kev_for-$child 1" "$(task child.txt execve)"
t_eq "the exec: its return in the program it started" "kev_exe-$child" \
	"$(grep '} /\* execve = 0 \*/' child.txt | awk '{ print $1 }' | xargs)"

# ---- context switches: the sleeps, in the function that slept, each
# once, in its program; the parent's wait off the CPU in wait_child() ----
nap_off() {
	kev_in_call "$1" "$2" clock_nanosleep | awk -v min="$3" '{ print ($2 >= min && $1 >= $2) }'
}
t_eq "child_nap(): its sleep off the CPU, once" 1 "$(nap_off child.txt child_nap 10000)"
t_eq "exec_nap(): its sleep off the CPU, once" 1 "$(nap_off child.txt exec_nap 30000)"
t_eq "child: two sleeps, two switches away while sleeping" "2 2" \
	"$(grep -cE '\| +clock_nanosleep\(' child.txt) $(grep -cE "=> .* S \(sleeping\) [0-9.]+ [um]?s off CPU" child.txt)"
t_ok "the switch in exec_nap() named by the exec'd program" \
	grep -qE "^ [0-9]+\) +kev_exe-$child +=> .* S \(sleeping\) [0-9.]+ [um]?s off CPU" child.txt
kev_in_call parent.txt wait_child wait4 >wait.rec
read -r dur off pre <wait.rec
want=$(sed -n 's/^wait //p' f.out)
# Less the times the parent was preempted around it, on a busy machine.
kev_within "wait_child(): wait4 lasts the parent's wait" "$want" "$dur" "$pre"
kev_within "wait_child(): off the CPU all of it" "$(awk -v d="$dur" 'BEGIN { printf "%d", d * 1000 }')" "$off"
"$FNTRACE" report -i f.data --stat --csv >stat.csv
kev_within "--stat: wait_child()'s time off CPU, the parent's wait" "$want" \
	"$(awk -F, '$1 == "wait_child" { print $7 / 1000 }' stat.csv)"
# off_in FILE FUNC: the time off the CPU the graph shows inside FUNC's
# calls, microseconds.
off_in() {
	awk -v f="$2" 'index($0, f "() {") { inside = 1 } index($0, "} /* " f " */") { inside = 0 }
		inside && match($0, /[0-9.]+ us off CPU/) { t += substr($0, RSTART, RLENGTH - 11) }
		END { print t + 0 }' "$1"
}
# stat_off CSV FUNC: --stat's time off the CPU of FUNC, ns.
stat_off() {
	awk -F, -v f="$2" '$1 == f { print $7 }' "$1"
}
# Each nap's sleep once in the profile: as the graph shows it, at least
# the time asked.
for nap in exec_nap:30 child_nap:10; do
	kev_within "--stat: ${nap%:*}()'s time off CPU, as the graph's" \
		"$(stat_off stat.csv "${nap%:*}")" "$(off_in child.txt "${nap%:*}")"
	t_ok "--stat: ${nap%:*}() off CPU its ${nap#*:} ms at least" \
		test "$(stat_off stat.csv "${nap%:*}")" -ge $((${nap#*:} * 1000000))
done

# ---- the exports: each event once, in its process ----
"$FNTRACE" export -i f.data -f chrome -o f.json
t_eq "chrome: each getppid once, in its process" "$parent 30 $child 120" "$(python3 - f.json <<'PY'
import json, sys, collections
events = json.load(open(sys.argv[1]))["traceEvents"]
n = collections.Counter(e["pid"] for e in events if e.get("cat") == "syscall" and e["name"] == "getppid")
print(" ".join(f"{p} {n[p]}" for p in sorted(n)))
PY
)"
t_eq "folded: getppid frames under each program's caller" \
	"child_calls;getppid_calls;[syscall main;exec_calls;[syscall main;parent_calls;getppid_calls;[syscall" \
	"$("$FNTRACE" export -i f.data -f folded | grep -o '^.*\[syscall getppid' | sed 's/ getppid$//' | sort | xargs)"

# The counts strace -f -c gives for the same programs, where they do not
# depend on the timing nor on the runtime's own calls.
if command -v strace >/dev/null; then
	strace -f -c -o strace.txt ./kev_fork ./kev_exec >/dev/null
	for call in getppid clone wait4 clock_nanosleep; do
		t_eq "$call: as many as strace -f -c counts" \
			"$(awk -v c="$call" '$NF == c { print $4 }' strace.txt)" \
			"$(kev_calls all.txt "$call")"
	done
else
	t_fail "strace" "not installed (scripts/deps.sh)"
fi

# ---- the function tracer's view: each program's calls under its name ----
"$FNTRACE" record -t function -e syscalls -o tf.data -- ./kev_fork ./kev_exec >tf.out 2>/dev/null
child=$(sed -n 's/^child //p' tf.out)
"$FNTRACE" report -i tf.data >tf.txt
t_eq "function: each getppid once, under its program" \
	"kev_exec-$child 70 kev_fork-$child 50" \
	"$(grep ": sys_enter: getppid(" tf.txt | awk '{ print $1 }' | grep -- "-$child\$" | sort | uniq -c | awk '{ print $2, $1 }' | xargs)"
t_eq "function: the exec's entry in the first program, its return in the next" \
	"kev_fork-$child sys_enter kev_exec-$child sys_exit" \
	"$(grep -E ": sys_(enter: execve\(|exit: execve = 0)" tf.txt | grep -- "-$child " | awk '{ sub(":", "", $5); print $1, $5 }' | xargs)"

# ---- -e sched alone: no execve to split at, the exec'd program's first
# call does; each sleep's switch still once, in its own program ----
"$FNTRACE" record -e sched -o s.data -- ./kev_fork ./kev_exec >s.out 2>/dev/null
child=$(sed -n 's/^child //p' s.out)
"$FNTRACE" report -i s.data -O nocpu --tid "$child" >s.txt
t_eq "sched alone: the child's two sleeps, each in its program, once" \
	"kev_exe-$child kev_for-$child" \
	"$(grep -E "=> .* S \(sleeping\) [0-9.]+ [um]?s off CPU" s.txt | awk '{ print $2 }' | sort | xargs)"
"$FNTRACE" report -i s.data --stat --csv >s.csv
for nap in exec_nap:30 child_nap:10; do
	kev_within "sched alone: --stat: ${nap%:*}()'s time off CPU, as the graph's" \
		"$(stat_off s.csv "${nap%:*}")" "$(off_in s.txt "${nap%:*}")"
	t_ok "sched alone: --stat: ${nap%:*}() off CPU its ${nap#*:} ms at least" \
		test "$(stat_off s.csv "${nap%:*}")" -ge $((${nap#*:} * 1000000))
done

# ---- a flight recording of the same: each process's runtime has its
# control thread (its epoll_wait, accept4 ...), fntrace's, left out ----
"$FNTRACE" record --overwrite -e syscalls -o fo.data -- ./kev_fork ./kev_exec >/dev/null 2>&1
kev_graph fo.data/snapshot.1 >fo.txt
t_eq "flight: no control thread's system call, in any of the processes" 0 \
	"$(grep -cE '(epoll_wait|accept4)\(|/\* (epoll_wait|accept4) = ' fo.txt)"
t_eq "flight: the program's getppid calls, all of them" 150 "$(kev_calls fo.txt getppid)"

# ---- a waker named by the program it ran then: a child that execs
# wakes its parent from the new program (a pipe's write) ----
cat >pw_parent.c <<'C'
#include <unistd.h>
__attribute__((noinline)) void wait_pipe(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		_exit(1);
}
int main(int argc, char **argv)
{
	int fd[2];

	if (pipe(fd) || fork() == 0) {
		dup2(fd[1], 9);
		execv(argv[1], argv + 1);
		_exit(1);
	}
	wait_pipe(fd[0]);
	return 0;
}
C
cat >pw_writer.c <<'C'
#include <time.h>
#include <unistd.h>
__attribute__((noinline)) void late_write(void)
{
	struct timespec t = { 0, 30000000 };

	nanosleep(&t, NULL);
	if (write(9, "x", 1) != 1)
		_exit(1);
}
int main(void) { late_write(); return 0; }
C
t_build gcc-pg -O2 pw_parent pw_parent.c
t_build gcc-pg -O2 pw_writer pw_writer.c
"$FNTRACE" record -e sched -o pw.data -- ./pw_parent ./pw_writer 2>/dev/null
kev_graph pw.data >pw.txt
t_ok "the parent's read woken by the child under its new program's name" \
	grep -qE "S \(sleeping\) [0-9.]+ us off CPU, woken by pw_writer-[0-9]+$" pw.txt
t_eq "... and never by its old one" "" "$(grep -E "woken by pw_parent-" pw.txt)"
"$FNTRACE" export -i pw.data -f chrome -o pw.json
t_ok "chrome: the same name" grep -q '"woken_by":"pw_writer-[0-9]*"' pw.json

# ---- the Perfetto export: every slice nests and ends in each program ----
"$FNTRACE" export -i f.data -f perfetto -o f.pftrace
protoc -I"$top/tests/data" --decode=perfetto_min.Trace perfetto_min.proto <f.pftrace >f.ptxt &&
	python3 "$top/tests/data/perfetto_check.py" <f.ptxt >f.facts
t_eq "perfetto: TrackEvent's rules hold" 0 "$?"
grep ERROR f.facts | head -n 3

# ---- a recording made on another kernel: its calls by its names ----
# The same recording, its header saying mips (o32) and its calls given
# mips' numbers: the report and the exports name them by mips' table,
# Perfetto each number past 4095 by its own name.
python3 - f.data m.data <<'PY'
import shutil, struct, sys
shutil.copytree(sys.argv[1], sys.argv[2])
mips = {56: 4120, 59: 4011, 61: 4114, 110: 4064, 230: 4265}	# clone execve wait4 getppid clock_nanosleep
data = bytearray(open(sys.argv[2] + "/kevents", "rb").read())
struct.pack_into("<I", data, 28, 4)				# KEV_ARCH_MIPS
for at in range(32, len(data) - 79, 80):
    kind, nr = struct.unpack_from("<H", data, at + 16)[0], struct.unpack_from("<I", data, at + 20)[0]
    if kind in (1, 2):
        struct.pack_into("<I", data, at + 20, mips.get(nr, 4000))
open(sys.argv[2] + "/kevents", "wb").write(data)
PY
kev_graph m.data >m.txt
t_eq "mips recording: its calls by mips' names" "150 1 1 2" \
	"$(kev_calls m.txt getppid) $(kev_calls m.txt wait4) $(kev_calls m.txt clone) $(kev_calls m.txt clock_nanosleep)"
"$FNTRACE" export -i m.data -f perfetto -o m.pftrace
protoc -I"$top/tests/data" --decode=perfetto_min.Trace perfetto_min.proto <m.pftrace |
	python3 "$top/tests/data/perfetto_check.py" >m.facts
t_ok "mips recording: Perfetto names each call past 4095 its own" \
	grep -qE '^names .*clock_nanosleep,clone,.*wait4' m.facts
