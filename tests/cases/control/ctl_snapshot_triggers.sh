# The kernel's snapshot and dump triggers, and the duration trigger, in
# set_ftrace_filter of a process started with fntrace run: listed in the
# kernel's words, each with and without a count; a snapshot is taken
# just after the call (never by the calling thread: it goes on), a dump
# is said on stderr; snapshot_if_longer lists its tallies, and
# tracing_max_latency its slowest call; bad ones are refused in one line,
# changing nothing.  (tests/progs/slow_request.c.)

t_build gcc-pg "-O2 -fno-omit-frame-pointer" slow_request "$top/tests/progs/slow_request.c"

# start ARGS...: slow_request ARGS go hold under fntrace run, waiting for
# go; $pid.
start() {
	rm -f go out.txt && touch hold
	"$FNTRACE" run -- ./slow_request "$@" go hold >out.txt 2>err.txt &
	pid=$!
	for i in $(seq 100); do t_endpoint "$pid" && break; sleep 0.1; done
	"$FNTRACE" ctl "$pid" current_tracer function_graph
}
# finish: let it run, until it has printed its counts.
finish() {
	touch go
	for i in $(seq 300); do [ -s out.txt ] && break; sleep 0.05; done
	sleep 0.3	# the last snapshot asked for is taken
}
stop() {
	rm -f hold
	wait "$pid"
}
ctl() { "$FNTRACE" ctl "$pid" "$@"; }
listing() { ctl set_ftrace_filter | tr '\n' ' ' | sed 's/ $//'; }
# requests: the requests the snapshot holds.
requests() { ctl snapshot | grep -c 'handle_request() {'; }

# ---- with counts ----
start 1 6 1000 0 100000
# A second: no call here comes near it (20 ms did, under qemu-user with
# a sanitized fntrace on a loaded machine).
ctl set_ftrace_filter 'reply:snapshot:2 parse_request:dump:1 handle_request:snapshot_if_longer:1000000:3'
t_eq "listed in the kernel's words, a duration trigger with its tallies" \
	"#### all functions enabled #### parse_request:dump:count=1 reply:snapshot:count=2 handle_request:snapshot_if_longer:1000000:count=3 # slow=0 suppressed=0" \
	"$(listing)"
before=$(listing)
while IFS='|' read -r bad why; do
	t_error "refused: '$bad'" 1 "set_ftrace_filter: $why" ctl set_ftrace_filter "$bad"
	t_eq "... nothing changed" "$before" "$(listing)"
done <<'EOF2'
reply:snapshot_if_longer|bad duration
reply:snapshot_if_longer:|bad duration
reply:snapshot_if_longer:0|bad duration
reply:snapshot_if_longer:-5|bad duration
reply:snapshot_if_longer:5x|bad duration
reply:snapshot_if_longer:3600000001|bad duration
reply:snapshot_if_longer:100:x|bad count
reply:snapshot:x|bad count
reply:snapshot_if_longest:100|no such command 'snapshot_if_longest'
reply:dump:1x|bad count
reply:dump:1 nosuch:snapshot|no such function
EOF2
finish
t_eq "snapshot:2 over 6 calls: the last snapshot was taken after the 2nd" 2 "$(requests)"
t_eq "dump:1: said once on stderr, with how to read it" 1 \
	"$(grep -c "^fntrace: dump (trigger parse_request:dump, thread [0-9]*): snapshot [0-9]* holds the ring: fntrace ctl $pid snapshot$" err.txt)"
t_eq "... the counts spent, listed 0; no call was slow" \
	"#### all functions enabled #### parse_request:dump:count=0 reply:snapshot:count=0 handle_request:snapshot_if_longer:1000000:count=3 # slow=0 suppressed=0" \
	"$(listing)"
ctl set_ftrace_filter '!reply:snapshot !parse_request:dump !handle_request:snapshot_if_longer'
t_eq "removed as the kernel's are" "#### all functions enabled ####" "$(listing)"
stop

# ---- without counts, set from the command line ----
rm -f go out.txt && touch hold
# A fast call lasts microseconds, but one preempted on a loaded machine
# (qemu, load 10 on 2 cores) lasted over 15 ms once: slow ones of 200 ms,
# the threshold 100 ms.
"$FNTRACE" run --trigger=reply:snapshot --trigger=handle_request:snapshot_if_longer:100000 \
	--snapshot-interval=0 -- ./slow_request 1 6 2 200000 50000 go hold >out.txt 2>err.txt &
pid=$!
for i in $(seq 100); do t_endpoint "$pid" && break; sleep 0.1; done
ctl current_tracer function_graph
t_eq "run --trigger: listed" \
	"#### all functions enabled #### reply:snapshot:unlimited handle_request:snapshot_if_longer:100000:unlimited # slow=0 suppressed=0" \
	"$(listing)"
t_eq "snapshot_interval_ms from --snapshot-interval" 0 "$(ctl snapshot_interval_ms)"
finish
t_eq "snapshot: every call; the last snapshot holds all six" 6 "$(requests)"
t_eq "snapshot_if_longer: three slow calls of six, tallied" \
	"handle_request:snapshot_if_longer:100000:unlimited # slow=3 suppressed=0" \
	"$(ctl set_ftrace_filter | grep snapshot_if_longer)"
max=$(ctl tracing_max_latency)
t_ok "tracing_max_latency: the slowest call, 200 ms ($max us)" test "$max" -ge 199900 -a "$max" -lt 2000000
ctl tracing_max_latency 0
t_eq "... 0 written: reset" 0 "$(ctl tracing_max_latency)"
t_error "... a bad value refused in one line" 1 "tracing_max_latency" ctl tracing_max_latency -1
ctl snapshot_interval_ms 250
t_eq "snapshot_interval_ms set" 250 "$(ctl snapshot_interval_ms)"
t_error "snapshot_interval_ms: a bad value refused in one line" 1 "snapshot_interval_ms" \
	ctl snapshot_interval_ms 3600001
t_eq "... nothing changed" 250 "$(ctl snapshot_interval_ms)"
stop

# ---- under record --overwrite: each a DIR/snapshot.N saying why ----
"$FNTRACE" record --overwrite -o snap.data --trigger=reply:snapshot:2 -- \
	./slow_request 1 6 1000 0 300000 >out.txt 2>rec.err
t_eq "record --overwrite --trigger=reply:snapshot:2: the program as its own" \
	"0 requests 6 slow 0" "$? $(cat out.txt)"
t_eq "... two snapshots by the trigger, each line saying so" 2 \
	"$(grep -c '^fntrace: snapshot [12] (trigger reply:snapshot thread [0-9]*)' rec.err)"
t_ok "... and the end's" test -d snap.data/snapshot.3
t_ok "info says why" sh -c "'$FNTRACE' info -i snap.data/snapshot.2 | grep -q 'reply:snapshot thread'"
t_eq "... the second holds the calls up to the second reply" 2 \
	"$("$FNTRACE" report -i snap.data/snapshot.2 | grep -c 'handle_request() {')"

# ---- tracing_max_latency, no call slow enough to snapshot ----
# A timed call shorter than every duration trigger's is still the
# slowest so far when it is: x86_64's fast return path leaves it to C.
start 1 6 2 30000 50000
ctl set_ftrace_filter 'handle_request:snapshot_if_longer:1000000'
finish
max=$(ctl tracing_max_latency)
t_ok "tracing_max_latency, no call of a second: still the slowest, 30 ms ($max us)" \
	test "$max" -ge 29900 -a "$max" -lt 1000000
t_eq "... none tallied slow" \
	"handle_request:snapshot_if_longer:1000000:unlimited # slow=0 suppressed=0" \
	"$(ctl set_ftrace_filter | grep snapshot_if_longer)"
stop
