# A remote recording whose connection is lost never harms the program:
# it runs to its end with its own output and exit status; record says
# the lost stream in one line, with the events it could not send; what
# arrived is readable on the listener's side, its info saying how the
# stream ended.  Cut by the network (a proxy that resets both ends after
# 1 MB), by the listener stopping (SIGTERM), and by the listener dying
# (SIGKILL: the target notices).

t_build gcc-pg -O2 calls "$top/tests/progs/remote_calls.c"
./calls 40 20000 20 >want.out
t_eq "the program alone: exit status 3" 3 "$?"

# lost_line NAME ERR: record's stderr, one line on the lost stream, the
# events not sent counted.
lost_line() {
	t_eq "$1: one line" 1 "$(wc -l <"$2")"
	t_ok "$1: it says the stream lost, and counts what was not sent" \
		grep -q "^fntrace: recording stopped, the stream to 127.0.0.1:[0-9]* was lost (.*) after [0-9]* bytes: what arrived is with the listener at 127.0.0.1:[0-9]*; [1-9][0-9]* events dropped" "$2"
}

# readable NAME DIR STREAM: what arrived of it, read.
readable() {
	t_ok "$1: a directory kept ($2)" test -d "$2" -a -n "$2"
	"$FNTRACE" info -i "$2" >"$1.info" 2>&1
	t_eq "$1: info reads it" 0 "$?"
	t_ok "$1: info says how the stream ended" grep -q "^stream *$3 after [0-9]* bytes" "$1.info"
	"$FNTRACE" report -i "$2" --stat --csv >"$1.csv" 2>"$1.report.err"
	t_eq "$1: report reads it" 0 "$?"
	t_ok "$1: the report says it in one line" grep -q "ended early ($3 after" "$1.report.err"
	t_ok "$1: the calls that arrived ($(awk -F, '$1 == "outer" { print $2 }' "$1.csv"))" \
		test "$(awk -F, '$1 == "outer" { print $2 }' "$1.csv")" -gt 0
}

# By the network: the proxy resets both connections after 1 MB.
t_listen net --once
rm -f proxy.port
python3 "$top/tests/progs/stream_peer.py" proxy proxy.port "$LISTEN_PORT" 1000000 &
proxy=$!
for i in $(seq 100); do [ -s proxy.port ] && break; sleep 0.1; done
"$FNTRACE" record --host "127.0.0.1:$(cat proxy.port)" -- ./calls 40 20000 20 >net.out 2>rec-net.err
t_eq "network: the program's exit status" 3 "$?"
t_eq "network: the program's output" "$(cat want.out)" "$(cat net.out)"
lost_line network rec-net.err
wait "$LISTEN_PID"
t_eq "network: listen --once exits 1 for a stream cut short" 1 "$?"
wait "$proxy"
readable network "$(ls -d net/*-calls-* 2>/dev/null)" "connection lost"
t_eq "network: one line on the listener's side, every byte passed taken" 1 "$(grep -c "connection lost after 1000000 bytes" net.err)"

# By the listener stopping: SIGTERM while a stream comes in.
t_listen stop
"$FNTRACE" record --host "127.0.0.1:$LISTEN_PORT" -- ./calls 40 20000 20 >stop.out 2>rec-stop.err &
rec=$!
for i in $(seq 100); do [ -n "$(ls -d stop/*.tmp-* 2>/dev/null)" ] && break; sleep 0.1; done
sleep 0.3
kill -TERM "$LISTEN_PID"
wait "$LISTEN_PID"
t_eq "listener stopped: its exit status" 0 "$?"
wait "$rec"
t_eq "listener stopped: the program's exit status" 3 "$?"
t_eq "listener stopped: the program's output" "$(cat want.out)" "$(cat stop.out)"
lost_line "listener stopped" rec-stop.err
readable "listener stopped" "$(ls -d stop/*-calls-* 2>/dev/null | grep -v tmp-)" \
	"the listener stopped"

# By the listener dying: nothing says so but the connection.
t_listen dead
"$FNTRACE" record --host "127.0.0.1:$LISTEN_PORT" -- ./calls 40 20000 20 >dead.out 2>rec-dead.err &
rec=$!
for i in $(seq 100); do [ -n "$(ls -d dead/*.tmp-* 2>/dev/null)" ] && break; sleep 0.1; done
sleep 0.3
kill -KILL "$LISTEN_PID"
wait "$rec"
t_eq "listener killed: the program's exit status" 3 "$?"
t_eq "listener killed: the program's output" "$(cat want.out)" "$(cat dead.out)"
lost_line "listener killed" rec-dead.err

# A listener slower than the trace (a proxy that passes 1.3 MB/s for 3 s,
# then all): the queue fills, what does not fit is dropped and counted,
# the program runs at its own speed, and every event is accounted for:
# recorded, lost or dropped, on both sides alike.
t_listen slow --once
rm -f slow.proxy
python3 "$top/tests/progs/stream_peer.py" slow slow.proxy "$LISTEN_PORT" 3 &
proxy=$!
for i in $(seq 100); do [ -s slow.proxy ] && break; sleep 0.1; done
./calls 200 20000 0 >slow.want
"$FNTRACE" record --host "127.0.0.1:$(cat slow.proxy)" -- ./calls 200 20000 0 >slow.out 2>rec-slow.err
t_eq "slow listener: the program's exit status" 3 "$?"
t_eq "slow listener: the program's output" "$(cat slow.want)" "$(cat slow.out)"
t_eq "slow listener: one line" 1 "$(wc -l <rec-slow.err)"
dropped=$(sed -n 's/.*, \([0-9]*\) dropped (the stream.s queue was full) -> .*/\1/p' rec-slow.err)
t_ok "slow listener: the summary counts what was dropped (${dropped:-none})" \
	test "${dropped:-0}" -gt 0
wait "$LISTEN_PID"
t_eq "slow listener: the stream complete" 0 "$?"
wait "$proxy"
d=$(ls -d slow/*-calls-* 2>/dev/null)
"$FNTRACE" info -i "$d" >slow.info
t_ok "slow listener: sealed" grep -q "^data directory .*(sealed)" slow.info
t_ok "slow listener: info says the same drop" \
	grep -q "^dropped *$dropped events the recorder could not store" slow.info
# 2 threads x 200 rounds x 20000 calls of outer, each 2 of inner; a
# round_of a round, a work a thread, main: calls, each entry and exit.
all=$(awk '$1 == "events" || $1 == "lost" || $1 == "dropped" { n += $2 } END { print n }' slow.info)
t_eq "slow listener: every event recorded, lost or dropped" $(( (2 * 200 * 20000 * 3 + 400 + 2 + 1) * 2 )) "$all"

# record -p --host, its listener killed: the process runs on, traceable
# as before, and record says the lost stream in one line (exit 0, as a
# full disk's).
t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
"$FNTRACE" run -- ./spin 30 >/dev/null 2>&1 &
pid=$!
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
t_listen pdead
"$FNTRACE" record -p "$pid" -d 3 --host "127.0.0.1:$LISTEN_PORT" 2>rec-pdead.err &
rec=$!
for i in $(seq 100); do [ -n "$(ls -d pdead/*.tmp-* 2>/dev/null)" ] && break; sleep 0.1; done
sleep 0.5
kill -KILL "$LISTEN_PID"
wait "$rec"
t_eq "record -p, listener killed: exit status" 0 "$?"
lost_line "record -p, listener killed" rec-pdead.err
t_ok "record -p, listener killed: the process runs on" kill -0 "$pid"
t_eq "record -p, listener killed: its tracer put back" nop "$("$FNTRACE" ctl "$pid" current_tracer)"
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
