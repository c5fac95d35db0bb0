# The control endpoint: tracefs files on a running process, switched on,
# changed and off without a restart; errors as the kernel gives them; no
# access for another user; no system call while nobody traces.

t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
./spin 6 >want.txt

# Held running (spin.c's HOLD) until the checks are done with it.
touch hold
"$FNTRACE" run -- ./spin 6 hold >out.txt 2>run.err &
pid=$!
for i in 1 2 3 4 5 6 7 8 9 10; do t_endpoint "$pid" && break; sleep 0.1; done
t_ok "run: says the pid" grep -q "runs as pid $pid" run.err
t_eq "ctl: available_tracers" "function_graph function nop" "$("$FNTRACE" ctl $pid available_tracers)"
t_eq "ctl: current_tracer starts as nop" "nop" "$("$FNTRACE" ctl $pid current_tracer)"
# (Its calls into libc are listed too, as functions of libc: libcalls.sh.)
t_eq "ctl: available_filter_functions" "leaf main mid" "$("$FNTRACE" ctl $pid available_filter_functions | grep -v ' \[libc' | sort | tr '\n' ' ' | sed 's/ $//')"
t_eq "ctl: set_ftrace_filter empty means all" "#### all functions enabled ####" "$("$FNTRACE" ctl $pid set_ftrace_filter)"

"$FNTRACE" ctl $pid set_ftrace_filter nosuch 2>err.txt
t_eq "ctl: unknown function refused" 1 "$?"
t_ok "ctl: ... with the kernel's reason" grep -q "set_ftrace_filter: no such function: 'nosuch'" err.txt
"$FNTRACE" ctl $pid current_tracer blk 2>err.txt
t_eq "ctl: unknown tracer refused" 1 "$?"
"$FNTRACE" ctl $pid max_graph_depth x 2>err.txt
t_eq "ctl: bad number refused" 1 "$?"
"$FNTRACE" ctl $pid no_such_file 2>err.txt
t_ok "ctl: unknown file refused" grep -q 'no_such_file: no such file' err.txt
t_eq "ctl: refused writes changed nothing" "nop" "$("$FNTRACE" ctl $pid current_tracer)"

"$FNTRACE" ctl $pid set_ftrace_filter 'mi*'
"$FNTRACE" ctl --append $pid set_ftrace_filter leaf
t_eq "ctl: filter with append" "leaf mid" "$("$FNTRACE" ctl $pid set_ftrace_filter | sort | tr '\n' ' ' | sed 's/ $//')"
"$FNTRACE" ctl $pid set_ftrace_filter mid
"$FNTRACE" ctl $pid current_tracer function
t_eq "ctl: enabled_functions" "mid (1)" "$("$FNTRACE" ctl $pid enabled_functions)"
sleep 0.3
"$FNTRACE" ctl $pid trace_marker "a marker"
"$FNTRACE" ctl $pid trace >trace.txt
t_ok "ctl: trace has the function tracer's events" grep -q 'mid <-main' trace.txt
t_ok "ctl: ... and the marker" grep -q 'tracing_mark_write: a marker' trace.txt
t_eq "ctl: no leaf while only mid was enabled" 0 "$(grep -c 'leaf <-' trace.txt)"
"$FNTRACE" ctl $pid current_tracer function_graph
"$FNTRACE" ctl $pid set_ftrace_filter ''
sleep 0.3
"$FNTRACE" ctl $pid tracing_on 0
"$FNTRACE" ctl $pid trace >trace.txt
t_ok "ctl: a new tracer starts with an empty buffer" sh -c "! grep -q 'mid <-main' trace.txt"
t_ok "ctl: the graph, once every function is on" grep -q 'leaf();' trace.txt
"$FNTRACE" ctl $pid trace ''
t_eq "ctl: writing trace clears it" 0 "$("$FNTRACE" ctl $pid trace | grep -c 'mid')"

"$FNTRACE" ctl $pid tracing_on 1
"$FNTRACE" ctl $pid function_profile_enabled 1
sleep 0.4
"$FNTRACE" ctl $pid trace_stat/function >stat.txt
t_ok "ctl: trace_stat/function counts mid" grep -Eq '^  mid +[1-9][0-9]* ' stat.txt
"$FNTRACE" ctl $pid function_profile_enabled 0
"$FNTRACE" ctl $pid current_tracer nop
t_eq "ctl: every site off again" "" "$("$FNTRACE" ctl $pid enabled_functions)"

# Another user may not connect: the directory and the socket are ours.
if setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$FNTRACE" ctl $pid current_tracer >/dev/null 2>err.txt
	t_eq "ctl: another user is refused" 1 "$?"
	t_ok "ctl: ... and told so" grep -q "not allowed to control process $pid" err.txt
else
	t_fail "ctl: another user is refused" "setpriv cannot switch to nobody"
fi
t_eq "ctl: socket directory is private" "700" "$(stat -c %a /tmp/fntrace-$(id -u))"

# The graph filters and the depth, with the kernel's meanings.
"$FNTRACE" ctl $pid current_tracer function_graph
"$FNTRACE" ctl $pid set_graph_function leaf
"$FNTRACE" ctl $pid trace ''
sleep 0.3
t_eq "ctl: set_graph_function leaf: only leaf" "leaf" "$("$FNTRACE" ctl $pid trace | cut -d'|' -f3 | grep -o '[a-z]*()' | sort -u | tr -d '()')"
"$FNTRACE" ctl $pid set_graph_function ''
"$FNTRACE" ctl $pid set_graph_notrace mid
"$FNTRACE" ctl $pid trace ''
sleep 0.3
t_eq "ctl: set_graph_notrace mid: nothing below it either" 0 "$("$FNTRACE" ctl $pid trace | grep -c 'leaf\|mid')"
"$FNTRACE" ctl $pid set_graph_notrace ''
"$FNTRACE" ctl $pid max_graph_depth 1
"$FNTRACE" ctl $pid trace ''
sleep 0.3
t_eq "ctl: max_graph_depth 1: mid as a leaf" "mid();" "$("$FNTRACE" ctl $pid trace | cut -d'|' -f3 | grep '()' | sort -u | tr -d ' ')"
"$FNTRACE" ctl $pid max_graph_depth 0
"$FNTRACE" ctl $pid buffer_size_kb 2048 2>err.txt
t_eq "ctl: buffer_size_kb once the buffer exists is refused" 1 "$?"

# trace_pipe streams, consumes what it shows, and ends with Ctrl-C.
"$FNTRACE" ctl $pid current_tracer function
# Its temporary directory in a TMPDIR of its own: other processes
# (tests run at the same time) do not count.
mkdir ctltmp
TMPDIR=$PWD/ctltmp timeout -s INT 1 "$FNTRACE" ctl $pid trace_pipe >pipe.txt 2>pipe.err
t_ok "ctl: trace_pipe streamed events" test "$(grep -c 'mid <-main' pipe.txt)" -ge 10
t_eq "ctl: trace_pipe said nothing on Ctrl-C" "" "$(cat pipe.err)"
t_eq "ctl: trace_pipe removed its temporary files" "" "$(ls ctltmp)"
first=$(grep -m1 'mid <-main' pipe.txt | awk '{ print $4 }')
t_eq "ctl: trace no longer has what the pipe consumed" 0 "$("$FNTRACE" ctl $pid trace | grep -c "$first")"
"$FNTRACE" ctl $pid current_tracer nop

rm hold
wait $pid
t_eq "run: exit status" 0 "$?"
t_same "run: output as untraced" want.txt out.txt
t_eq "run: socket removed at exit" "" "$(ls /tmp/fntrace-$(id -u)/$pid 2>/dev/null)"
"$FNTRACE" ctl $pid current_tracer 2>err.txt
t_eq "ctl: a process that is gone" 1 "$?"

# trace_pipe's graph keeps a frame open across the pauses in the stream:
# inner() one level below outer(), and outer() closed with its duration.
t_build gcc-pg -O2 pipe_wait "$top/tests/progs/pipe_wait.c"
"$FNTRACE" run -- ./pipe_wait 4 >/dev/null 2>&1 &
pid=$!
for i in $(seq 30); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" ctl $pid current_tracer function_graph
timeout -s INT 2.5 "$FNTRACE" ctl $pid trace_pipe >gpipe.txt
wait $pid
# (Its 300 ms sleep may show as 299.9 ms: the tick rate is measured over
# the process's short life so far.)
t_ok "trace_pipe: outer() closes with its name and a duration over 100 ms" \
	grep -Eq '@ [0-9]{6}\.[0-9] us +\|  \} /\* outer \*/' gpipe.txt
t_eq "trace_pipe: every inner() one level inside outer()" "" \
	"$(sed -n '/outer() {/,$p' gpipe.txt | grep -E 'inner\(\);' | grep -Ev '\|    inner\(\);' | head -n 2)"
t_eq "trace_pipe: no bare closing brace after the first outer()" "" \
	"$(sed -n '/outer() {/,$p' gpipe.txt | grep -E '\|  \}$')"

# A process killed by SIGKILL leaves its socket; the next one removes it.
sock_of() { for i in $(seq 30); do t_endpoint "$1" && break; sleep 0.1; done; }
"$FNTRACE" run -- ./spin 30 >/dev/null 2>&1 &
dead=$!
sock_of $dead
kill -KILL $dead; wait $dead 2>/dev/null
t_ok "ctl: a killed process leaves its socket" test -S /tmp/fntrace-$(id -u)/$dead
"$FNTRACE" run -- ./spin 1 >/dev/null 2>&1 &
pid=$!
sock_of $pid
t_ok "ctl: the next process removes it" test ! -e /tmp/fntrace-$(id -u)/$dead
t_ok "ctl: ... and keeps its own" test -S /tmp/fntrace-$(id -u)/$pid
wait $pid

# Nobody tracing: not one system call from the runtime over two seconds.
"$FNTRACE" run -- ./spin 3 >/dev/null 2>&1 &
pid=$!
sleep 0.5
timeout 2 strace -f -qq -p $pid -o strace.txt 2>strace.err
wait $pid
# An strace that saw nothing would pass the check below: it must have seen
# the program's own sleeps (one every 20 ms; clock_nanosleep_time64 on
# i386) first.
strace_saw() {
	if [ "$(grep -c clock_nanosleep "$2")" -ge 5 ]; then t_pass "$1"
	else t_fail "$1" "$(head -c 300 "$3")"; fi
}
strace_saw "idle: strace saw the program's sleeps" strace.txt strace.err
# A control thread that started late (a loaded machine) makes its first
# calls, up to its first sleep, while strace looks: not an idle one's.
t_eq "idle: only the program's own system calls" "" \
	"$(awk -v main=$pid '$1 == main || asleep[$1] { print; next } /epoll_wait/ { asleep[$1] = 1 }' \
		strace.txt | grep -v 'clock_nanosleep\|restart_syscall\|epoll_wait\|resumed\|exited\|+++' |
		head -n 3)"

# Switching a tracer on prepares every thread's state in the writing
# thread: the traced thread starts tracing without a system call to map
# memory (which costs tens of microseconds on a virtual machine; mmap2
# on i386, which /mmap matches).
"$FNTRACE" run -- ./spin 3 >/dev/null 2>&1 &
pid=$!
sock_of $pid
strace -qq -e trace=/mmap,munmap,/clock_nanosleep -p $pid -o mmap.txt 2>mmap.err &
tracer=$!
sleep 0.3
"$FNTRACE" ctl $pid current_tracer function
sleep 0.3
kill $tracer; wait $tracer 2>/dev/null
t_ok "tracer on: the traced thread is traced" sh -c "'$FNTRACE' ctl $pid trace | grep -q 'mid <-main'"
strace_saw "tracer on: strace saw the program's sleeps" mmap.txt mmap.err
t_eq "tracer on: ... and mapped nothing for it" "" "$(grep mmap mmap.txt | head -n 2)"
"$FNTRACE" ctl $pid current_tracer nop
wait $pid
