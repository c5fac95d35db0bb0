# While ctl trace_pipe streams a program making millions of calls a
# second, to a fast reader or to one that takes nothing for a while, the
# endpoint still answers everyone else: reads, tracing_on 0 (the stream
# goes quiet), current_tracer nop; a second consuming reader (trace_pipe,
# record -p) is refused in one line; SIGINT and SIGTERM still end the
# stream at once.  Each request must be answered within ctl's own limit
# of 5 s: a streaming reader used to keep the endpoint to itself.

t_build gcc-pg -O2 busy "$top/tests/progs/busy_calls.c"
"$FNTRACE" run -- ./busy >/dev/null 2>&1 &
pid=$!
for i in $(seq 300); do t_endpoint "$pid" && break; sleep 0.1; done
t_ok "the program's endpoint is open" test -S "/tmp/fntrace-$(id -u)/$pid"
# A small buffer: what it holds when tracing stops is soon streamed out.
# The smallest there is: a size under it is taken as it, and read so.
"$FNTRACE" ctl "$pid" buffer_size_kb 256
t_eq "buffer_size_kb under 1024 is taken as 1024" 1024 "$("$FNTRACE" ctl "$pid" buffer_size_kb)"
"$FNTRACE" ctl "$pid" current_tracer function

# ask NAME ARGS...: fntrace ctl PID ARGS, its output into NAME.out, its
# messages into NAME.err, its status into NAME.rc (124: it did not end,
# a trace_pipe let through).
ask() {
	local name=$1; shift
	timeout 20 "$FNTRACE" ctl "$pid" "$@" >"$name.out" 2>"$name.err"
	echo $? >"$name.rc"
}

# answered NAME WHAT ARGS...: ARGS asked while the stream flows, answered.
answered() {
	local name=$1 what=$2; shift 2
	ask "$name" "$@"
	t_eq "$MODE: $what: answered" "0 " "$(cat "$name.rc") $(cat "$name.err")"
}

size() { stat -c %s "$1"; }

# quiet FILE: FILE stops growing (the same size a second apart) within
# 30 s.
quiet() {
	local before after i
	before=$(size "$1")
	for i in $(seq 30); do
		sleep 1
		after=$(size "$1")
		[ "$after" = "$before" ] && return 0
		before=$after
	done
	return 1
}

# appears FILE: FILE is there, not empty, within 15 s.
appears() {
	local i
	for i in $(seq 150); do [ -s "$1" ] && return 0; sleep 0.1; done
	return 1
}

# grows FILE: FILE grows within 10 s.
grows() {
	local before i
	before=$(size "$1")
	for i in $(seq 100); do
		[ "$(size "$1")" -gt "$before" ] && return 0
		sleep 0.1
	done
	return 1
}

# stops SIG READER NAME: READER ends at once on SIG; how long it took
# to, in ms, into NAME.ms (a zombie has ended: nobody may reap it yet).
stops() {
	local sent i
	kill -"$1" "$2"
	sent=$(date +%s%N)
	for i in $(seq 100); do
		case $(cut -d' ' -f3 "/proc/$2/stat" 2>/dev/null) in ''|Z) break ;; esac
		sleep 0.05
	done
	echo $(( ($(date +%s%N) - sent) / 1000000 )) >"$3.ms"
	kill -9 "$2" 2>/dev/null
}

# refused_second WHEN: a second consumer, while the first streams, is
# refused in one line.
refused_second() {
	ask second trace_pipe
	t_eq "$MODE: a second trace_pipe $1 is refused" 1 "$(cat second.rc)"
	t_eq "$MODE: ... in one line" 1 "$(grep -c 'read by trace_pipe (pid [0-9]*): one reader at a time' second.err)"
	t_eq "$MODE: ... that line alone" 1 "$(wc -l <second.err)"
}

# Fast: every line written to a file as it comes.
MODE=fast
# Made here: the reader's redirection is its own process's, which a
# loaded machine may not have run yet when grows looks at its size.
: >fast.out
"$FNTRACE" ctl "$pid" trace_pipe >fast.out 2>fast.err &
reader=$!
t_ok "$MODE: the stream flows" grows fast.out
answered tracer "current_tracer is read" current_tracer
t_eq "$MODE: current_tracer reads function" function "$(cat tracer.out)"
answered stat "trace_stat/function is read" trace_stat/function
refused_second "while it streams"
timeout 20 "$FNTRACE" record -p "$pid" -o rec >record.out 2>&1
t_eq "$MODE: record -p is refused" "1 1" "$? $(grep -c 'read by trace_pipe' record.out)"
t_ok "$MODE: and leaves no recording" test ! -e rec
answered off "tracing_on 0 is written" tracing_on 0
answered on "tracing_on is read" tracing_on
t_eq "$MODE: tracing_on reads 0" 0 "$(cat on.out)"
t_ok "$MODE: the stream goes quiet" quiet fast.out
answered on "tracing_on 1 is written" tracing_on 1
t_ok "$MODE: the same stream flows again" grows fast.out
stops INT "$reader" fast
t_ok "$MODE: SIGINT ends the stream at once ($(cat fast.ms) ms)" test "$(cat fast.ms)" -lt 5000
wait "$reader"
t_ok "$MODE: lines came" test "$(grep -c ' f <-g$' fast.out)" -gt 100
t_eq "$MODE: nothing said" "" "$(cat fast.err)"

# Stalled: the reader's output is not taken for six seconds, then slowly:
# meanwhile the stream waits for it, and others are served.  However long
# it takes nothing, the reader keeps the stream.
MODE=stalled
sh -c 'echo $$ >reader.pid; exec "$0" ctl "$1" trace_pipe 2>stalled.err' "$FNTRACE" "$pid" | {
	sleep 6
	while n=$(dd bs=4096 count=1 status=none | wc -c) && [ "$n" -gt 0 ]; do
		echo "$n" >>stalled.out
		sleep 0.05
	done
} &
slow=$!
t_ok "$MODE: the reader started" appears reader.pid
reader=$(cat reader.pid)
sleep 1
answered tracer "current_tracer is read" current_tracer
refused_second "while its reader takes nothing"
answered off "tracing_on 0 is written" tracing_on 0
answered on "tracing_on is read" tracing_on
t_eq "$MODE: tracing_on reads 0" 0 "$(cat on.out)"
answered nop "current_tracer nop is written" current_tracer nop
answered tracer "current_tracer is read" current_tracer
t_eq "$MODE: current_tracer reads nop" nop "$(cat tracer.out)"
t_ok "$MODE: the reader took something" appears stalled.out
refused_second "after its reader took nothing for six seconds"
stops TERM "$reader" stalled
t_ok "$MODE: SIGTERM ends the stream at once ($(cat stalled.ms) ms)" test "$(cat stalled.ms)" -lt 5000
wait "$slow"
t_eq "$MODE: nothing said" "" "$(cat stalled.err)"

t_eq "the program is still there" 0 "$(kill -0 "$pid"; echo $?)"
kill "$pid"; wait
