#!/bin/bash
# Control requests to a program whose threads keep every CPU busy, run by
# bench/run.sh (BUILD set), or alone:
#
#   bench/busy_threads.c, a fntrace cc build, runs BUSY_THREADS (1000)
#   threads that never sleep, under `fntrace run` in a session of its
#   own (so that the client is not starved by the same scheduler group).
#   Once it has answered a first request, ROUNDS rounds of three tracer
#   switches (function, function_graph, nop) are timed from the client,
#   as an operator would see them.  Then, when run as root, the control
#   thread is given back the nice of the program's threads (0) and one
#   switch more is timed (function; it takes minutes): what the switches
#   took before the control thread took its priority
#   (src/core/control_self.c).
#   Then the same program, started without fntrace, is attached to
#   (fntrace attach lends the loading thread nice -20: src/attach/
#   attach_load.c) and detached from, ROUNDS times.
#   Target: every switch answered within 5 s, the time fntrace ctl waits
#   before it says the process has not answered; the same for an attach.
set -eu
export LC_ALL=C

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
OUT=$BUILD/bench
FNTRACE=${FNTRACE:-$BUILD/fntrace}
THREADS=${BUSY_THREADS:-1000}
ROUNDS=${BUSY_ROUNDS:-5}
[ "${BENCH_QUICK:-0}" != 0 ] && ROUNDS=2
TARGET_S=5

. "$top/bench/lib.sh"    # log, verdict, summary

build() {
	local bin=$OUT/busy_threads
	[ "$bin" -nt "$top/bench/busy_threads.c" ] && return 0
	mkdir -p "$OUT"
	"$FNTRACE" cc -O2 -g -o "$bin" "$top/bench/busy_threads.c" -lpthread
}

# start [fntrace run --]: PID, the program's, once every thread of it runs.
start() {
	local i
	setsid "$@" "$OUT/busy_threads" "$THREADS" >"$OUT/busy.out" 2>&1 </dev/null &
	for ((i = 0; i < 600; i++)); do
		grep -q '^ready' "$OUT/busy.out" && break
		sleep 0.1
	done
	PID=$(pgrep -n -f "^$OUT/busy_threads $THREADS\$") || { log "busy_threads did not start"; return 1; }
}

stop() { kill "$PID" 2>/dev/null || true; wait 2>/dev/null || true; }

control_tid() { grep -l '^fntrace-ctl$' /proc/"$PID"/task/*/comm | cut -d/ -f5; }

# switches FILE TRACER...: a switch to each, each one's seconds into FILE.
switches() {
	local file=$1 tracer t0 t1
	shift
	for tracer; do
		t0=${EPOCHREALTIME/./}
		timeout 300 "$FNTRACE" ctl "$PID" current_tracer "$tracer" 2>>"$OUT/busy.err" ||
			log "busy_ctl: switch to $tracer failed"
		t1=${EPOCHREALTIME/./}
		awk -v us=$((t1 - t0)) 'BEGIN { printf "%.3f\n", us / 1e6 }' >>"$file"
	done
}

# attaches FILE: attach and detach ROUNDS times, each attach's seconds
# into FILE.
attaches() {
	local r t0 t1
	for ((r = 0; r < ROUNDS; r++)); do
		t0=${EPOCHREALTIME/./}
		timeout 300 "$FNTRACE" attach "$PID" 2>>"$OUT/busy.err" || log "busy_ctl: attach failed"
		t1=${EPOCHREALTIME/./}
		awk -v us=$((t1 - t0)) 'BEGIN { printf "%.3f\n", us / 1e6 }' >>"$1"
		timeout 300 "$FNTRACE" detach "$PID" 2>>"$OUT/busy.err" || log "busy_ctl: detach failed"
	done
}

# pick FILE median|max
pick() {
	sort -n "$1" | awk -v how="$2" '{ v[NR] = $1 } END {
		if (!NR) { print "-"; exit }
		print how == "max" ? v[NR] : v[int((NR + 1) / 2)] }'
}

# row TITLE TID FILE: the control thread's nice now, and FILE's times.
row() {
	printf '  %-34s %9s %9s %9s\n' "$1" "$(cut -d' ' -f19 /proc/"$PID"/task/"$2"/stat)" \
		"$(pick "$3" median)" "$(pick "$3" max)"
}

main() {
	local tid r as_set=$OUT/busy-ctl-set.txt as_made=$OUT/busy-ctl-nice0.txt
	local attached=$OUT/busy-attach.txt slowest slowest_attach
	build
	rm -f "$as_set" "$as_made" "$attached" "$OUT/busy.err"
	log "busy_ctl: $THREADS spinning threads, $ROUNDS rounds of 3 tracer switches"
	start "$FNTRACE" run --
	"$FNTRACE" ctl "$PID" current_tracer nop
	tid=$(control_tid)
	for ((r = 0; r < ROUNDS; r++)); do switches "$as_set" function function_graph nop; done
	echo
	echo "control requests, $THREADS threads spinning on $(nproc) CPUs: a tracer switch, in s"
	printf '  %-34s %9s %9s %9s\n' "control thread" nice median slowest
	row "as the runtime sets it" "$tid" "$as_set"
	if [ "$(id -u)" = 0 ]; then
		renice -n 0 -p "$tid" >/dev/null
		switches "$as_made" function
		row "at the program's nice (before)" "$tid" "$as_made"
	fi
	stop
	log "busy_ctl: $ROUNDS attaches"
	start
	attaches "$attached"
	stop
	printf '  %-34s %9s %9s %9s\n' "fntrace attach, in s" "" "$(pick "$attached" median)" \
		"$(pick "$attached" max)"
	slowest=$(pick "$as_set" max) slowest_attach=$(pick "$attached" max)
	echo "  every switch within $TARGET_S s: $(verdict "$slowest" $TARGET_S) (slowest $slowest s)"
	echo "  every attach within $TARGET_S s: $(verdict "$slowest_attach" $TARGET_S) (slowest $slowest_attach s)"
	summary "ctl, $THREADS busy threads: slowest switch" "$slowest s" "<= $TARGET_S s" \
		"$(verdict "$slowest" $TARGET_S)"
	summary "attach, $THREADS busy threads: slowest" "$slowest_attach s" "<= $TARGET_S s" \
		"$(verdict "$slowest_attach" $TARGET_S)"
}

main "$@"
