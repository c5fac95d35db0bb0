# At the control endpoint: two writers at once, clients that die
# or say nothing, a process stopped during a request (and during a sync
# by signals), a process that is gone.  No client waits for ever, every
# failure is one line, the state read back is what the last write made
# it, and the program gives its untraced output.

# The trace_pipe clients killed below cannot remove their temporary
# directories: they go into this case's own, removed with it.
mkdir tmp
export TMPDIR=$PWD/tmp

t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
t_build plain -O2 hold_thread "$top/tests/progs/hold_thread.c"
./spin 4 >want.txt

# many.c: N functions, each called every 20 ms for SECONDS, and a sum;
# then it waits for the file DONE, so that a loaded machine, which makes
# the requests and stops below take longer, does not see it end first.
awk -v n=5000 'BEGIN {
	print "#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>"
	for (i = 0; i < n; i++)
		printf "__attribute__((noipa)) unsigned f%d(unsigned x) { return x * %d + 1; }\n", i, i
	print "static unsigned (*const table[])(unsigned) = {"
	for (i = 0; i < n; i++)
		printf "f%d,", i
	print "};\nint main(int argc, char **argv)\n{\n\tunsigned sum = 0;"
	print "\tfor (int r = 0; r < atoi(argv[1]) * 50; r++, usleep(20000))"
	printf "\t\tfor (int i = 0; i < %d; i++)\n\t\t\tsum = table[i](sum);\n", n
	print "\twhile (access(argv[2], F_OK))\n\t\tusleep(20000);"
	print "\tprintf(\"%u\\n\", sum);\n\treturn 0;\n}" }' >many.c
t_build gcc-patchable -O0 many many.c
./many 16 many.c >many.want &
want_many=$!

sock=/tmp/fntrace-$(id -u)
wait_sock() { for i in $(seq 50); do [ -S $sock/$1 ] && break; sleep 0.1; done; }
now_ms() { date +%s%3N; }
ctl() { timeout 15 "$FNTRACE" ctl "$@"; }

# untraced NAME WANT OUT ERR PID: the run ended as it would have untraced.
untraced() {
	wait $5
	t_eq "$1: exit status" 0 "$?"
	t_same "$1: output as untraced" "$2" "$3"
	t_eq "$1: the runtime said nothing" "" "$(grep -v 'runs as pid' "$4")"
}

# --- 1. Two writers at once, for three seconds.
touch hold	# spin.c's HOLD: running until the checks are done
"$FNTRACE" run -- ./spin 4 hold >w.out 2>w.err &
pid=$!
wait_sock $pid
# writer FILE VALUES...: writes them in turn, three rounds, each client
# bounded by timeout(1) (status 124 if it hung); the statuses in
# FILE.rc, the last value written in FILE.last.  Twelve writes each,
# started together: they meet however slow the machine.
writer() {
	local file=$1 round v; shift
	for round in 1 2 3; do
		for v in "$@"; do
			timeout 10 "$FNTRACE" ctl $pid $file "$v" 2>>$file.msg
			echo $? >>$file.rc
			printf '%s\n' "$v" >$file.last
		done
	done
}
writer set_ftrace_filter mid leaf 'mid leaf' '' &
w1=$!
writer current_tracer function function_graph nop function &
w2=$!
wait $w1 $w2
t_eq "two writers: every filter write succeeded" "0" "$(sort -u set_ftrace_filter.rc | tr '\n' ' ' | sed 's/ $//')"
t_eq "two writers: every tracer write succeeded" "0" "$(sort -u current_tracer.rc | tr '\n' ' ' | sed 's/ $//')"
t_eq "two writers: nothing said" "" "$(cat set_ftrace_filter.msg current_tracer.msg)"
t_eq "two writers: twelve writes each" "12 12" "$(wc -l <set_ftrace_filter.rc) $(wc -l <current_tracer.rc)"
filter=$(cat set_ftrace_filter.last) tracer=$(cat current_tracer.last)
t_eq "two writers: current_tracer is the last written" "$tracer" "$(ctl $pid current_tracer)"
case $filter in
'') want_filter="#### all functions enabled ####" selected="leaf main mid" ;;
*) want_filter=$(echo $filter | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//') selected=$want_filter ;;
esac
t_eq "two writers: set_ftrace_filter is the last written" "$want_filter" \
	"$(ctl $pid set_ftrace_filter | sort | tr '\n' ' ' | sed 's/ $//')"
[ "$tracer" = nop ] && selected=""
t_eq "two writers: enabled_functions follow both" "$selected" \
	"$(ctl $pid enabled_functions | sed 's/ (1)$//' | sort | tr '\n' ' ' | sed 's/ $//')"
ctl $pid current_tracer nop
rm hold
untraced "two writers" want.txt w.out w.err $pid

# --- 2. Clients that die or say nothing, on the program with 5000
# functions, traced.
"$FNTRACE" run -- ./many 16 many.done >m.out 2>m.err &
pid=$!
wait_sock $pid
# raw MODE REQUEST: a client of our own that misbehaves.
cat >raw.py <<'EOF'
import os, signal, socket, sys, time
mode, req = sys.argv[2], sys.argv[3].encode().decode('unicode_escape').encode()
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
if mode == 'silent':
    time.sleep(4)
    sys.exit(0)
s.sendall(req)
if mode == 'killed':
    os.kill(os.getpid(), signal.SIGKILL)
if mode == 'leaves':
    s.shutdown(socket.SHUT_WR)
    s.recv(1)
s.close()
EOF
raw() { python3 raw.py $sock/$pid "$@"; }
ctl $pid current_tracer function
ctl $pid set_ftrace_filter 'f1*'
enabled() { ctl $pid enabled_functions | wc -l; }
t_eq "dying clients: f1* enabled" 1111 "$(enabled)"

raw silent 'read current_tracer\n' &
silent=$!
sleep 0.3
t0=$(now_ms)
got=$(ctl $pid current_tracer)
t1=$(now_ms)
t_eq "silent client: the next ctl is answered" function "$got"
t_ok "silent client: ... within 2.5 s, not when it goes ($((t1 - t0)) ms)" test $((t1 - t0)) -lt 2500
wait $silent

raw half 'write current_tracer\nnop'
t_eq "client gone without waiting for its answer: not obeyed" function "$(ctl $pid current_tracer)"
(raw killed 'write set_ftrace_filter\nf2') 2>/dev/null
t_eq "client killed halfway through its value: not obeyed" 1111 "$(enabled)"
(raw killed 'write set_ftrace_fil') 2>/dev/null
t_eq "client killed halfway through its request: nothing changed" 1111 "$(enabled)"

# A reader that goes while the answer is being sent: the control thread
# gets EPIPE, not SIGPIPE.
ctl $pid set_ftrace_filter ''
sleep 0.3
raw leaves 'read trace\n'
t_eq "reader gone halfway through trace: still served" function "$(ctl $pid current_tracer)"
"$FNTRACE" ctl $pid trace_pipe >/dev/null &
reader=$!
sleep 0.5
kill -KILL $reader
wait $reader 2>/dev/null
t0=$(now_ms)
got=$(ctl $pid current_tracer)
t1=$(now_ms)
t_eq "trace_pipe reader killed: the next ctl is answered" function "$got"
t_ok "trace_pipe reader killed: ... within 1.5 s ($((t1 - t0)) ms)" test $((t1 - t0)) -lt 1500
# trace_pipe does not keep the control thread while it streams: another
# client is answered meanwhile (ctl_pipe_others: under a flood of events).
"$FNTRACE" ctl $pid trace_pipe >/dev/null &
reader=$!
sleep 0.3
ctl $pid current_tracer >busy.out 2>&1
rc=$?
kill -INT $reader
wait $reader
t_eq "while trace_pipe streams: another client is answered" "0 function" "$rc $(cat busy.out)"

# --- 3. The process stopped: by a request, during a large update.
# consistent: what the filter selects is what is enabled, and the tracer
# function is still on.
consistent() {
	[ "$(ctl $pid current_tracer)" = function ] &&
	[ "$(ctl $pid set_ftrace_filter | sort)" = "$(ctl $pid enabled_functions | sed 's/ (1)$//' | sort)" ]
}
kill -STOP $pid
t0=$(now_ms)
ctl --timeout 1 $pid current_tracer nop >stopped.out 2>stopped.err
rc=$?
t1=$(now_ms)
t_eq "stopped: the client gives up" 1 "$rc"
t_ok "stopped: ... in about its time limit ($((t1 - t0)) ms)" test $((t1 - t0)) -lt 2500
t_eq "stopped: ... saying so in one line" "fntrace: process $pid does not answer within 1 s (is it stopped?)" "$(cat stopped.out stopped.err)"
kill -CONT $pid
t_eq "stopped: the request given up is not done" function "$(ctl $pid current_tracer)"

# Running but answering late (its control thread held, as a thousand
# busy threads of its own keep it from the CPUs for seconds): the client
# waits on past its limit, says so once, and gets the answer.
ctl_tid=$(grep -lx fntrace-ctl /proc/$pid/task/*/comm | head -n 1 | cut -d/ -f5)
./hold_thread "$ctl_tid" 3 >held.out &
holder=$!
for i in $(seq 50); do [ -s held.out ] && break; sleep 0.1; done
ctl --timeout 1 $pid current_tracer >late.out 2>late.err
rc=$?
wait $holder
t_eq "running, answering late: answered" "0 function" "$rc $(cat late.out)"
t_eq "running, answering late: said once" "fntrace: warning: process $pid runs but has \
not answered in 1 s (its threads keep the CPUs busy): waiting on" "$(cat late.err)"

# Writing 2500 names takes the process about 150 ms: stop it at points
# inside that, for longer than the client waits (-t 1) or not.
first=$(seq 0 2499 | sed 's/^/f/' | tr '\n' ' ') second=$(seq 2500 4999 | sed 's/^/f/' | tr '\n' ' ')
bad="" inside=0 gaveup=0 names=""
for delay in 0.02 0.05 0.08 0.11 0.14 0.17; do
	for hold in 0.3 1.4; do
		[ "$names" = "$first" ] && names=$second || names=$first
		ctl -t 1 $pid set_ftrace_filter "$names" 2>update.err &
		client=$!
		sleep $delay
		kill -STOP $pid
		for t in /proc/$pid/task/*; do
			[ "$(cat $t/comm)" = fntrace-ctl ] && ! grep -q '^288 ' $t/syscall && inside=$((inside + 1))
		done
		sleep $hold
		kill -CONT $pid
		wait $client || gaveup=$((gaveup + 1))
		consistent || bad="$bad $delay/$hold"
	done
done
echo "note: $inside of 12 stops caught a request being served; $gaveup clients gave up"
t_eq "stopped during large updates: every one all or nothing" "" "${bad# }"
t_ok "stopped during large updates: 2500 functions enabled" test "$(enabled)" -eq 2500
ctl $pid current_tracer nop
: >many.done
untraced "dying clients, stops" many.want m.out m.err $pid
wait $want_many

# Without membarrier a sync waits for every thread to answer a signal;
# one in vfork() answers when its child is done.  A stop meanwhile must
# not count as the thread never answering (which switched tracing off).
t_build gcc-pg -O2 vfork_wait "$top/tests/progs/vfork_wait.c"
touch v.hold
FNTRACE_NO_MEMBARRIER=1 "$FNTRACE" run -- ./vfork_wait 8 v.hold >v.out 2>v.err &
pid=$!
wait_sock $pid
echo done >v.want
ctl $pid current_tracer function 2>>v.err &
client=$!
sleep 0.1
kill -STOP $pid
sleep 1.2
kill -CONT $pid
wait $client
t_eq "stopped during a sync by signals: the write is done" 0 "$?"
ctl $pid current_tracer nop 2>>v.err
t_eq "stopped during a sync by signals: tracing still switches" nop "$(ctl $pid current_tracer)"
rm v.hold
untraced "stopped during a sync by signals" v.want v.out v.err $pid

# --- 4. Processes with no endpoint to answer.
"$FNTRACE" run -- ./spin 4 >/dev/null 2>&1 &
dead=$!
wait_sock $dead
kill -KILL $dead
wait $dead 2>/dev/null
t_ok "dead process: its socket is left" test -S $sock/$dead
ctl $dead current_tracer >dead.out 2>&1
rc=$?
t_eq "dead process: status 1" 1 $rc
t_eq "dead process: says so" "fntrace: no process $dead" "$(cat dead.out)"
# Killed and not yet reaped (its parent, sleep, never waits): a zombie,
# which no request reaches.
sh -c '"$0" run -- ./spin 4 >/dev/null 2>&1 & echo $! >zombie.pid; exec sleep 60' "$FNTRACE" &
keeper=$!
for i in $(seq 50); do [ -s zombie.pid ] && break; sleep 0.1; done
zombie=$(cat zombie.pid)
wait_sock $zombie
kill -KILL $zombie
for i in $(seq 50); do grep -q '^State:.Z' /proc/$zombie/status && break; sleep 0.1; done
ctl $zombie current_tracer >zombie.out 2>&1
rc=$?
t_eq "a zombie: status 1" 1 $rc
t_eq "a zombie: says it has ended" "fntrace: process $zombie has ended" "$(cat zombie.out)"
kill $keeper
wait $keeper 2>/dev/null
# A live pid for as long as the checks take (killed after them): python's
# start alone can outlast a few seconds on a loaded machine.
sleep 60 &
plain=$!
python3 -c "import socket; socket.socket(socket.AF_UNIX).bind('$sock/$plain')"
ctl $plain current_tracer >plain.out 2>&1
rc=$?
t_eq "a stale socket of a live pid: status 1, one line" "1 1" "$rc $(wc -l <plain.out)"
t_ok "a stale socket of a live pid: no endpoint" grep -q "process $plain has no fntrace control endpoint" plain.out
rm -f $sock/$plain
kill $plain
