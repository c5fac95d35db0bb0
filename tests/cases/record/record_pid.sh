# record -p: a running process, recorded for exactly the time asked.

t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
"$FNTRACE" run -- ./spin 20 >/dev/null 2>&1 &
pid=$!
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done

# recorded_ms DIR: info's "recorded for", in milliseconds.
recorded_ms() {
	"$FNTRACE" info -i "$1" | awk '$1 == "recorded" && $2 == "for" { printf "%d", $3 * 1000 }'
}

for d in 0.5 1.25; do
	start=$(date +%s%N)
	"$FNTRACE" record -p "$pid" -d "$d" -o "d$d" 2>/dev/null
	rc=$?
	wall=$(( ($(date +%s%N) - start) / 1000000 ))
	want=$(awk -v d="$d" 'BEGIN { printf "%d", d * 1000 }')
	t_eq "-d $d: exit status" 0 "$rc"
	got=$(recorded_ms "d$d")
	t_ok "-d $d: recorded for $d s (info says ${got} ms)" \
		test "${got:-0}" -ge "$want" -a "${got:-0}" -lt $((want + 5000))
	t_ok "-d $d: over when asked (${wall} ms)" test "$wall" -ge "$want"
done

for bad in 0 -1 x 1e99; do
	t_error "-d $bad: refused, said in one line and the hint" 2 \
		"^fntrace record: bad duration: '$bad'" "$FNTRACE" record -p "$pid" -d "$bad" -o bad
done
"$FNTRACE" record -b 0 -o bad -- ./spin 1 2>err.txt
t_eq "-b 0: refused" 2 "$?"
t_eq "-b 0: nothing written" "" "$(ls -d bad* 2>/dev/null)"

# The settings a user made with ctl are theirs again afterwards, and what
# their tracer wrote before is not in the recording.
"$FNTRACE" ctl "$pid" set_ftrace_filter 'mi*'
"$FNTRACE" ctl "$pid" max_graph_depth 3
"$FNTRACE" ctl "$pid" current_tracer function
sleep 0.5
"$FNTRACE" record -p "$pid" -d 0.3 -o s.data 2>/dev/null
t_eq "settings: the tracer put back" function "$("$FNTRACE" ctl "$pid" current_tracer)"
t_eq "settings: the filter put back" mid "$("$FNTRACE" ctl "$pid" set_ftrace_filter)"
t_eq "settings: the depth put back" 3 "$("$FNTRACE" ctl "$pid" max_graph_depth)"
"$FNTRACE" report -i s.data --stat --csv >s.csv
mids=$(awk -F, '$1 == "mid" { print $2 }' s.csv)
leaves=$(awk -F, '$1 == "leaf" { print $2 }' s.csv)
t_ok "before the start: none of the function tracer's events ($mids calls of mid in 0.3 s)" \
	test "${mids:-0}" -gt 0 -a "${mids:-0}" -le 20
t_eq "before the start: every mid with its leaf, as function_graph records" "$mids" "$leaves"
"$FNTRACE" ctl "$pid" current_tracer nop
"$FNTRACE" ctl "$pid" set_ftrace_filter ''
"$FNTRACE" ctl "$pid" max_graph_depth 0

# One recorder at a time: a second is refused, naming the first; so is a
# trace_pipe reader.  A recorder killed leaves the buffer to the next.
"$FNTRACE" record -p "$pid" -d 3 -o first 2>first.err &
first=$!
for i in $(seq 50); do [ -d first.tmp-$first ] && break; sleep 0.1; done
sleep 0.3
"$FNTRACE" record -p "$pid" -d 1 -o second 2>err.txt
t_eq "two recorders: the second refused" 1 "$?"
t_ok "two recorders: ... naming the first" grep -q "record -p (pid $first)" err.txt
t_eq "two recorders: ... in one line" 1 "$(wc -l <err.txt)"
"$FNTRACE" ctl "$pid" trace_pipe >/dev/null 2>err.txt
t_ok "a trace_pipe reader while recorded: refused" grep -q "one reader at a time" err.txt
wait "$first"
t_eq "two recorders: the first ends well" 0 "$?"
"$FNTRACE" record -p "$pid" -o killed 2>/dev/null &
killed=$!
sleep 0.5
kill -9 "$killed"; wait "$killed" 2>/dev/null
"$FNTRACE" record -p "$pid" -d 0.2 -o after 2>/dev/null
t_eq "a recorder killed: the next one records" 0 "$?"
kill "$pid"; wait

# Ctrl-C while the recorder sets up (here the process, stopped, does not
# answer yet): the set-up runs to its end, the recorder stops at once,
# the process's settings are put back and the recording is sealed.  (As
# a background job of this script, the recorder starts with SIGINT
# ignored, as a shell leaves it.)
"$FNTRACE" run -- ./spin 60 >/dev/null 2>&1 &
pid=$!
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
kill -STOP "$pid"
"$FNTRACE" record -p "$pid" -d 60 -o early 2>early.err &
rec=$!
sleep 1
kill -INT "$rec"
sleep 0.5
kill -CONT "$pid"
for i in $(seq 100); do kill -0 "$rec" 2>/dev/null || break; sleep 0.1; done
t_ok "Ctrl-C in the set-up: the recorder stops" sh -c "! kill -0 $rec 2>/dev/null"
kill -9 "$rec" 2>/dev/null
wait "$rec"
t_eq "Ctrl-C in the set-up: exit status" 0 "$?"
t_ok "Ctrl-C in the set-up: sealed" grep -q '^state: sealed' early/info
t_eq "Ctrl-C in the set-up: the tracer put back" nop "$("$FNTRACE" ctl "$pid" current_tracer)"
# --timeout: how long a request may go unanswered (a stopped process).
kill -STOP "$pid"
start=$(date +%s%N)
"$FNTRACE" record -p "$pid" --timeout=1 -d 1 -o late 2>timeout.err
rc=$?
wall=$(( ($(date +%s%N) - start) / 1000000 ))
kill -CONT "$pid"
t_eq "--timeout=1, the process stopped: refused" 1 "$rc"
t_ok "--timeout=1: said in one line" test "$(wc -l <timeout.err)" -eq 1 -a \
	-n "$(grep "process $pid does not answer within 1 s" timeout.err)"
t_ok "--timeout=1: given up after a second, not five (${wall} ms)" test "$wall" -lt 4000
t_eq "--timeout=1: nothing left" "" "$(ls -d late late.tmp* 2>/dev/null)"
for bad in 0 x 1.5 3601; do
	t_error "--timeout=$bad: refused" 2 "^fntrace record: --timeout wants whole seconds" \
		"$FNTRACE" record -p "$pid" --timeout="$bad" -o bad
done
t_error "--timeout without -p: refused" 2 "^fntrace record: --timeout is for -p" \
	"$FNTRACE" record --timeout=2 -o bad -- ./spin 0
kill "$pid"; wait

# A process that ended but is not reaped (a zombie), and no process.
# (the parent becomes sleep, which never reaps it, and is killed once the
# checks are done; the child ends a second later, after that exec: one
# that ended before it was reaped by sh, which left no zombie)
sh -c '(sleep 1; exec ./spin 0) >/dev/null & echo $! >zombie.pid; exec sleep 60' &
parent=$!
for i in $(seq 50); do [ -s zombie.pid ] && break; sleep 0.1; done
zombie=$(cat zombie.pid)
for i in $(seq 50); do grep -q '^State:.*Z' "/proc/$zombie/status" 2>/dev/null && break; sleep 0.1; done
"$FNTRACE" record -p "$zombie" -d 1 -o z 2>err.txt
t_eq "a zombie: refused" 1 "$?"
t_ok "a zombie: said so in one line" test "$(wc -l <err.txt)" -eq 1 -a -n "$(grep 'has ended' err.txt)"
kill "$parent"; wait "$parent" 2>/dev/null
./spin 0 >/dev/null &
ended=$!
wait "$ended"
"$FNTRACE" record -p "$ended" -d 1 -o z 2>err.txt
t_eq "no such process: refused" 1 "$?"
t_ok "no such process: said" grep -q "no process $ended" err.txt

# Detached while recorded: what was recorded is kept.
./spin 20 >/dev/null &
plain=$!
t_running "$plain" ./spin
"$FNTRACE" attach "$plain" 2>/dev/null
"$FNTRACE" record -p "$plain" -o det 2>det.err &
rec=$!
sleep 1
"$FNTRACE" detach "$plain" 2>/dev/null
wait "$rec"
t_eq "detached while recorded: exit status" 0 "$?"
t_ok "detached while recorded: the recording kept" test -f det/trace.dat
t_ok "detached while recorded: info says so" grep -q "^exit: detached while recorded" det/info
t_ok "detached while recorded: calls in it" test "$("$FNTRACE" report -i det --stat --csv | grep -c '^mid,')" -eq 1
kill "$plain"; wait

# A library's functions in the filter files, listed "name [lib.so]",
# are put back as they were set (name:mod:lib.so), notrace's too.
t_examples "$PWD/ex"
t_build gcc-pg -O2 lib_loop "$top/tests/progs/lib_loop.c"
"$FNTRACE" run -- ./lib_loop "$PWD/ex/libcalc.so" 20 >/dev/null 2>&1 &
pid=$!
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" ctl "$pid" set_ftrace_filter 'calc_eval:mod:libcalc.so between'
"$FNTRACE" ctl "$pid" set_ftrace_notrace 'parse_sum:mod:libcalc.so'
"$FNTRACE" ctl "$pid" set_ftrace_filter >filter.before
"$FNTRACE" ctl "$pid" set_ftrace_notrace >notrace.before
"$FNTRACE" record -p "$pid" -d 0.3 -F 'parse_*' -N 'skip_*' -o lib.data 2>lib.err
t_eq "library filters: record -p" 0 "$?"
"$FNTRACE" ctl "$pid" set_ftrace_filter >filter.after
"$FNTRACE" ctl "$pid" set_ftrace_notrace >notrace.after
t_same "library filters: set_ftrace_filter put back" filter.before filter.after
t_same "library filters: set_ftrace_notrace put back" notrace.before notrace.after
t_ok "library filters: as they were set" grep -q 'parse_sum \[libcalc.so\]' notrace.after
kill "$pid"; wait
