# ctl trace_pipe on a program making millions of calls a second: its
# lines come while the events flow, and SIGTERM or SIGINT end it at once.

t_build gcc-pg -O2 busy "$top/tests/progs/busy_calls.c"
"$FNTRACE" run -- ./busy >/dev/null 2>&1 &
pid=$!
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" ctl "$pid" current_tracer function

# stream SIG NAME: trace_pipe until its lines come (up to 20 s: a
# sanitizer build of fntrace takes long to start on a busy machine), then
# SIG; how long it took to end after the signal, in ms, into NAME.ms, its
# lines into NAME.out.
stream() {
	"$FNTRACE" ctl "$pid" trace_pipe >"$2.out" 2>"$2.err" &
	reader=$!
	for i in $(seq 200); do
		[ "$(grep -c ' f <-g$' "$2.out")" -gt 100 ] && break
		sleep 0.1
	done
	kill -"$1" "$reader"
	sent=$(date +%s%N)
	for i in $(seq 100); do kill -0 "$reader" 2>/dev/null || break; sleep 0.05; done
	echo $(( ($(date +%s%N) - sent) / 1000000 )) >"$2.ms"
	kill -9 "$reader" 2>/dev/null
	wait "$reader"
}

for sig in TERM INT; do
	stream "$sig" "$sig"
	t_ok "SIG$sig: trace_pipe ends at once ($(cat "$sig.ms") ms after it)" test "$(cat "$sig.ms")" -lt 5000
	t_ok "SIG$sig: lines came while the events flowed" test "$(grep -c ' f <-g$' "$sig.out")" -gt 100
	t_eq "SIG$sig: nothing said" "" "$(cat "$sig.err")"
done
"$FNTRACE" ctl "$pid" current_tracer nop
t_eq "the program is still there" 0 "$(kill -0 "$pid"; echo $?)"
kill "$pid"; wait
