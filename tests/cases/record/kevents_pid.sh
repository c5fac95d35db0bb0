# record -p -e: the kernel's events of a running process, every thread it
# has when the recording starts and every one it makes meanwhile.

. "$top/tests/kev_lib.sh"
if ! kev_tracefs; then
	t_skip "kernel events" "no tracefs, and not root to mount it"
	return 0
fi

t_build gcc-pg -O2 kev_waits "$top/tests/progs/kev_waits.c"
"$FNTRACE" run -- ./kev_waits 60 >run.out 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; kev_untracefs' EXIT
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done

"$FNTRACE" record -p "$pid" -d 1 -e sched -e syscalls -o p.data 2>p.err
t_eq "exit status" 0 "$?"
t_ok "the recorder's line on them" grep -q '^fntrace: kernel events: [1-9][0-9]* system calls' p.err || cat p.err
kev_graph p.data >all.txt

# About ten rounds in a second: the threads each round makes and ends
# are covered (inherited), each with its getppid calls inside its
# many_getppid(), and none anywhere else.
calls=$(kev_calls all.txt getppid)
t_ok "getppid: recorded ($calls)" test "$calls" -ge 200
t_eq "getppid: every one inside many_getppid()" 0 "$(awk '
	/ getppid\(/ && !inside { out++ }
	/many_getppid\(\) \{/ { inside = 1 } /\} \/\* many_getppid \*\// { inside = 0 }
	END { print out + 0 }' all.txt)"
tids=$("$FNTRACE" report -i p.data | awk '/ getppid\(/ { split($2, a, "-"); print a[length(a)] }' | sort -u | wc -l)
t_ok "getppid: in the threads made while recorded too ($tids threads)" test "$tids" -ge 3
t_ok "the sleeps' switches" grep -qE "=> .* S \(sleeping\) [0-9.]+ [um]?s off CPU" all.txt
"$FNTRACE" info -i p.data >info.txt
t_ok "info counts them" grep -qE '^kernel events +[1-9][0-9]* system calls' info.txt
t_ok "the process runs on" kill -0 "$pid"
