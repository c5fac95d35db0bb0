# record -p -e: the kernel's events of a running process, every thread it
# has when the recording starts and every one it makes meanwhile, even
# while the recorder is opening its events.

. "$top/tests/kev_lib.sh"
if ! kev_tracefs; then
	t_skip "kernel events" "no tracefs, and not root to mount it"
	return 0
fi

t_build gcc-pg -O2 kev_waits "$top/tests/progs/kev_waits.c"
"$FNTRACE" run -- ./kev_waits 600 >run.out 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; kev_untracefs' EXIT
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done

"$FNTRACE" record -p "$pid" -d 2 -e sched -e syscalls -o p.data 2>p.err
t_eq "exit status" 0 "$?"
t_ok "the recorder's line on them" grep -q '^fntrace: kernel events: [1-9][0-9]* system calls' p.err || cat p.err
kev_graph p.data >all.txt
# The runtime's control thread (fntrace-ctl) serves the recorder: its
# epoll_wait, accept4, reads and writes are fntrace's, not the program's.
ctl=$(grep -l '^fntrace-ctl$' /proc/$pid/task/*/comm | cut -d/ -f5)
t_ok "the control thread found ($ctl)" test -n "$ctl"
t_eq "its system calls left out (a switch to it is the program's)" 0 \
	"$(awk -v t="-$ctl" 'substr($2, length($2) - length(t) + 1) == t || /epoll_wait/' all.txt |
		wc -l)"

# About ten rounds a second, for two (a loaded machine makes fewer): the
# threads each round makes and ends are covered (inherited), each with
# its getppid calls inside its many_getppid(), and none anywhere else.
calls=$(kev_calls all.txt getppid)
t_ok "getppid: recorded ($calls)" test "$calls" -ge 200
# (The kernel's events are open before tracing starts and after it
# stops: a call under way then has its system calls outside any call
# the recording holds, before its first many_getppid() and after its
# last.)
t_eq "getppid: every one inside many_getppid()" 0 "$(awk '
	/ getppid\(/ && !inside && seen { out++; pending++ }
	/many_getppid\(\) \{/ { inside = 1; seen = 1; pending = 0 }
	/\} \/\* many_getppid \*\// { inside = 0 }
	END { print out - pending }' all.txt)"
# The events are open before tracing starts and closed after it stops:
# in a process that calls one() without a pause, every one() the
# recording holds whole holds its 3 getppid calls, the first and the
# last too.
cat >loop.c <<'EOF2'
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
__attribute__((noinline)) void one(void)
{
	struct timespec ms = { 0, 200000 };

	for (int i = 0; i < 3; i++)
		syscall(SYS_getppid);
	nanosleep(&ms, NULL);
}
int main(void) { for (;;) one(); }
EOF2
t_build gcc-pg -O2 loop loop.c
"$FNTRACE" run -- ./loop >loop.out 2>&1 &
loop=$!
trap 'kill $pid $loop 2>/dev/null; wait $pid $loop 2>/dev/null; kev_untracefs' EXIT
for i in $(seq 50); do t_endpoint "$loop" && break; sleep 0.1; done
"$FNTRACE" record -p "$loop" -d 0.5 -e syscalls:getppid -o l.data 2>l.err
"$FNTRACE" info -i l.data >l_info.txt
# Each event is enabled only once it writes into its ring, filtered:
# enabled at its open, it counted hits without samples, said lost.
if grep -qE '^kernel lost +0 events$' l_info.txt; then
	t_pass "a filtered recording of a running process: none said lost"
else
	t_fail "a filtered recording of a running process: none said lost" "$(grep '^kernel lost' l_info.txt)"
fi
kill $loop; wait $loop 2>/dev/null
kev_graph l.data >loop.txt
t_eq "every whole call holds its system calls, the first and the last too" "0 ok" \
	"$(awk '/ one\(\);/ { bad++; calls++ }
		/ one\(\) \{/ { inside = 1; n = 0; calls++; next }
		inside && / getppid\(/ { n++ }
		/\} \/\* one \*\// { inside = 0; if (n != 3) bad++ }
		END { print bad + 0, (calls >= 100 ? "ok" : "only " calls + 0) }' loop.txt)"
tids=$("$FNTRACE" report -i p.data | awk '/ getppid\(/ { split($2, a, "-"); print a[length(a)] }' | sort -u | wc -l)
t_ok "getppid: in the threads made while recorded too ($tids threads)" test "$tids" -ge 3
t_ok "the sleeps' switches" grep -qE "=> .* S \(sleeping\) [0-9.]+ [um]?s off CPU" all.txt
"$FNTRACE" info -i p.data >info.txt
t_ok "info counts them" grep -qE '^kernel events +[1-9][0-9]* system calls' info.txt
t_ok "the process runs on" kill -0 "$pid"

# ---- threads made while the recorder opens its events ----
# kev_spawn's four chains each make a thread every 5 ms, which makes the
# next and ends: a thread made by one the recorder listed, before its
# turn came, would inherit no event, nor would any thread after it in
# its chain.  Every thread whose work() began 300 ms after the recording's
# first kernel event, and 50 ms before its last, has its 3 getppid calls
# there, once each, and its nap's switch.
t_build gcc-pg -O2 kev_spawn "$top/tests/progs/kev_spawn.c"
"$FNTRACE" run -- ./kev_spawn 4 30 5 >spawn.out 2>&1 &
spawn=$!
trap 'kill $pid $spawn 2>/dev/null; wait $pid $spawn 2>/dev/null; kev_untracefs' EXIT
for i in $(seq 50); do t_endpoint "$spawn" && break; sleep 0.1; done
"$FNTRACE" record -p "$spawn" -d 2 -e sched -e syscalls:getppid -o s.data 2>s.err
t_eq "threads made meanwhile: exit status" 0 "$?"
"$FNTRACE" export -i s.data -f chrome -o s.json
t_eq "threads made meanwhile: every one after the start has its events, once" "0 0 0" \
	"$(python3 - s.json <<'PY'
import collections, json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
kernel = [e["ts"] for e in events if e.get("cat") in ("syscall", "sched")]
low, high = min(kernel) + 300000, max(kernel) - 50000
work, calls, naps = {}, collections.Counter(), collections.Counter()
for e in events:
    if e.get("name") == "work" and e["ph"] == "B":
        work[e["tid"]] = min(work.get(e["tid"], e["ts"]), e["ts"])
    elif e.get("cat") == "syscall" and e["name"] == "getppid":
        calls[e["tid"]] += 1
    elif e.get("cat") == "sched" and e["name"] == "off CPU: S":
        naps[e["tid"]] += 1
late = [t for t, b in work.items() if low <= b <= high]
print(sum(calls[t] < 3 for t in late), sum(calls[t] > 3 for t in late),
      sum(naps[t] == 0 for t in late) if len(late) > 100 else "only %d threads" % len(late))
PY
)"
"$FNTRACE" info -i s.data >s_info.txt
if grep -qE '^kernel lost +0 events$' s_info.txt; then
	t_pass "threads made meanwhile: none lost"
else
	t_fail "threads made meanwhile: none lost" "$(grep '^kernel' s_info.txt | tr '\n' ' ')"
fi
