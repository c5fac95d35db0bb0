# A process under a seccomp filter that kills on system calls the runtime
# makes is not killed by the runtime: strings are recorded as pointers
# where process_vm_readv may be forbidden (and one line says so); the
# control thread, under no filter, still switches tracers; a filter that
# covers it too leaves tracing as it is, refused in one line.

. "$top/tests/robust_lib.sh"

r_build seccomp_filter sf

./sf readv 3 >want.txt 2>want.err
t_eq "filter on process_vm_readv untraced: exit 0" 0 "$?"

"$FNTRACE" record -A 'greet@arg1/s' -o readv.data -- ./sf readv 3 >out.txt 2>err.txt
t_eq "filter on process_vm_readv, strings asked for: not killed" 0 "$?"
t_same "... its output" want.txt out.txt
t_ok "... one line says strings are not read" \
	grep -q 'seccomp filter is in place: string arguments are recorded as pointers, not read' err.txt
"$FNTRACE" report -i readv.data >readv.txt 2>&1
t_ok "... the string before the filter was read" grep -q 'greet("before")' readv.txt
t_eq "... every call after it traced, its string not read" 3 \
	"$(grep -c 'greet(0x[0-9a-f]* (unreadable))' readv.txt)"

# The same filter made with syscall(SYS_seccomp), as libseccomp makes it.
"$FNTRACE" record -A 'greet@arg1/s' -o sysreadv.data -- ./sf sysreadv 3 >out.txt 2>err.txt
t_eq "filter made with syscall(), strings asked for: not killed" 0 "$?"
t_same "... its output" want.txt out.txt
"$FNTRACE" report -i sysreadv.data >sysreadv.txt 2>&1
t_eq "... every call after it traced, its string not read" 3 \
	"$(grep -c 'greet(0x[0-9a-f]* (unreadable))' sysreadv.txt)"

# live MODE: run the program under fntrace run; once it is filtered,
# switch function_graph on, read the trace until it has a call (or the
# switch failed), switch it off, then let the program end.
live() {
	rm -f stop
	"$FNTRACE" run -- ./sf "$1" stop >"$1.out" 2>"$1.err" &
	pid=$!
	for i in $(seq 100); do grep -q filtered "$1.out" && break; sleep 0.1; done
	"$FNTRACE" ctl $pid current_tracer function_graph 2>"$1.ctl.err"
	echo $? >"$1.ctl.rc"
	for i in $(seq 50); do
		"$FNTRACE" ctl $pid trace >"$1.trace" 2>>"$1.ctl.err" || break
		grep -q 'greet();' "$1.trace" && break
		sleep 0.1
	done
	"$FNTRACE" ctl $pid current_tracer nop 2>>"$1.ctl.err"
	touch stop
	wait $pid
	echo $? >"$1.rc"
}

live thread
t_eq "filter on mprotect and membarrier, main thread only: not killed" 0 "$(cat thread.rc)"
t_eq "... the control thread, under none, switched the tracer on" 0 "$(cat thread.ctl.rc)"
t_ok "... and the calls after the filter were traced" grep -q 'greet();' thread.trace

live tsync
t_eq "the same filter on every thread: not killed" 0 "$(cat tsync.rc)"
t_ok "... the switch refused" test "$(cat tsync.ctl.rc)" -ne 0
t_ok "... one line says why" grep -q 'seccomp filter covers the control thread .*: control requests are refused' tsync.err
t_eq "... and only once" 1 "$(grep -c 'covers the control thread' tsync.err)"

# Strict mode: read, write and exit alone.  A hook handing a full chunk
# over (a futex) would be killed: tracing goes off before it is entered.
./sf strict 100000 >want.txt
"$FNTRACE" record -o strict.data -- ./sf strict 100000 >out.txt 2>err.txt
t_eq "strict mode, a chunk's worth of calls after it: not killed" 0 "$?"
t_same "... its output" want.txt out.txt
t_ok "... one line says tracing went off first" \
	grep -q 'tracing switched off: seccomp strict mode allows the runtime no system call' err.txt

# A filter put in place with the seccomp(2) instruction itself, which no
# wrapper sees, by the newest of 102 threads: each control request looks at a slice of the
# threads (a thousand at each, on a busy machine, took seconds), on from
# the last, and one of the first few comes to it.  Strings asked for
# after are then not read, and the process is not killed.
rm -f stop
"$FNTRACE" run -- ./sf crowd stop >crowd.out 2>crowd.err &
pid=$!
for i in $(seq 100); do grep -q filtered crowd.out && break; sleep 0.1; done
asked=0
while [ $asked -lt 10 ] && ! grep -q 'seccomp filter is in place' crowd.err; do
	"$FNTRACE" ctl $pid buffer_size_kb >/dev/null
	asked=$((asked + 1))
done
t_ok "a filter on the newest of 102 threads: seen within 4 requests ($asked)" \
	test "$asked" -ge 1 -a "$asked" -le 4
"$FNTRACE" ctl $pid set_ftrace_args 'greet@arg1/s'
"$FNTRACE" ctl $pid current_tracer function_graph
for i in $(seq 50); do
	"$FNTRACE" ctl $pid trace >crowd.trace || break
	grep -q 'greet(' crowd.trace && break
	sleep 0.1
done
"$FNTRACE" ctl $pid current_tracer nop
touch stop
wait $pid
t_eq "... strings asked for then: not killed" 0 "$?"
t_ok "... the string not read" grep -q 'greet(0x[0-9a-f]* (unreadable))' crowd.trace
