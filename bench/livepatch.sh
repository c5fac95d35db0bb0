#!/bin/bash
# Live patching benchmarks, run by bench/run.sh (BUILD set):
#
# 1. With 1 000, 10 000 and 100 000 generated functions: the time to enable
#    and to disable every site, and the longest stall a worker thread saw
#    while that happened, patching live (breakpoint protocol) and with every
#    other thread stopped (the baseline), in the same run.
#    Targets: 100 000 sites in <= 50 ms; longest stall < 100 us and <= 1/10
#    of the stop-the-world stall.
# 2. The full stress test: 8 threads, the filter flipped 10 000 times.
#
# Stalls are reported in the worker's own CPU time (what tracing cost it:
# traps, handlers, being parked) and in wall time, which also holds
# whatever the scheduler did meanwhile; the same is measured over a quiet
# window of the same length, for scale.  Each target is judged in both
# clocks, live against stopped in the same clock.  The worst wall-time
# stall is then explained: in a round where this kernel never switched
# the worker out, wall time its CPU clock did not count went to the
# hypervisor, which did not run the virtual CPU (steal time).
set -eu
export LC_ALL=C

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
OUT=$BUILD/bench
FNTRACE=${FNTRACE:-$BUILD/fntrace}
ROUNDS=${LIVE_ROUNDS:-5}
SIZES=${LIVE_SIZES:-1000 10000 100000}
[ "${BENCH_QUICK:-0}" != 0 ] && ROUNDS=2 SIZES="1000 10000"

. "$top/bench/lib.sh"    # log, summary

# funcs-N.c: N functions and a table of them, in two halves compiled
# side by side (gcc takes half a minute on 100 000 functions).
gen_half() {
	awk -v n="$1" -v lo="$2" -v hi="$3" 'BEGIN {
		print "#define NOIPA __attribute__((noipa))"
		for (i = lo; i < hi; i++)
			printf "NOIPA unsigned f%d(unsigned x) { return x * %d + 1; }\n", i, i
	}'
}

gen_table() {
	awk -v n="$1" 'BEGIN {
		for (i = 0; i < n; i++)
			printf "unsigned f%d(unsigned);\n", i
		print "unsigned (*const bench_funcs[])(unsigned) = {"
		for (i = 0; i < n; i++)
			printf "\tf%d,\n", i
		print "};"
		printf "const unsigned bench_nr_funcs = %d;\n", n
	}'
}

build_program() {
	local n=$1 bin=$OUT/livepatch-$1 half=$(($1 / 2))
	[ -x "$bin" ] && [ "$bin" -nt "$top/bench/livepatch.c" ] && return 0
	log "building $n functions (this takes a while once)"
	gen_half "$n" 0 "$half" >"$OUT/funcs-$n-a.c"
	gen_half "$n" "$half" "$n" >"$OUT/funcs-$n-b.c"
	gen_table "$n" >"$OUT/funcs-$n-t.c"
	gcc -O0 -pg -c "$OUT/funcs-$n-a.c" -o "$OUT/funcs-$n-a.o" &
	gcc -O0 -pg -c "$OUT/funcs-$n-b.c" -o "$OUT/funcs-$n-b.o"
	wait
	gcc -O2 -c "$OUT/funcs-$n-t.c" -o "$OUT/funcs-$n-t.o"
	gcc -O2 -c "$top/bench/livepatch.c" -o "$OUT/livepatch.o"
	gcc -o "$bin" "$OUT/livepatch.o" "$OUT/funcs-$n-"[abt].o -lpthread
	rm -f "$OUT/funcs-$n-"[abt].[co]
}

# run N MODE: the rounds' lines of livepatch, one worker (a core each for
# it and the patching thread: no worker waits for a core).
run() {
	FNTRACE_PATCH=$2 "$FNTRACE" run -- "$OUT/livepatch-$1" 1 "$ROUNDS" 2>/dev/null |
		grep '^round' >"$OUT/live-$1-$2.txt"
}

# col FILE FIELD median|max
col() {
	awk -v f="$2" '{ for (i = 1; i < NF; i++) if ($i == f) print $(i + 1) }' "$1" |
		sort -n | awk -v how="$3" '{ v[NR] = $1 } END {
			if (!NR) { print "?"; exit }
			print how == "max" ? v[NR] : v[int((NR + 1) / 2)] }'
}

verdict() { awk -v a="$1" -v b="$2" 'BEGIN { print (a + 0 <= b + 0) ? "PASS" : "MISS" }'; }

report_size() {
	local n=$1 l=$OUT/live-$1-live.txt s=$OUT/live-$1-stop.txt
	local on off stall stop_stall wall stop_wall quiet quiet_cpu
	on=$(col "$l" enable_ms median) off=$(col "$l" disable_ms median)
	stall=$(col "$l" stall_cpu_us max) stop_stall=$(col "$s" stall_cpu_us max)
	wall=$(col "$l" stall_wall_us max) stop_wall=$(col "$s" stall_wall_us max)
	quiet=$(col "$l" quiet_wall_us max) quiet_cpu=$(col "$l" quiet_cpu_us max)
	printf '  %7s  %8s %8s   %8s %8s %10s %10s   %9s %10s %9s\n' "$n" "$on" "$off" \
		"$stall" "$quiet_cpu" "$stop_stall" "$(col "$s" enable_ms median)" "$wall" \
		"$stop_wall" "$quiet"
}

# The targets: the 100 000-site switch time, and every size's worst stall,
# once in each clock.  Like is compared with like: the live stall in wall
# time with the stopped stall in wall time, and the same in the worker's
# CPU time.  Wall time also holds what the scheduler and the hypervisor did
# meanwhile (see the quiet column); CPU time holds only what the worker
# spent itself, so a stopped worker, parked, shows little in it.
verdicts() {
	local n clock on off
	echo
	if [[ " $SIZES " == *" 100000 "* ]]; then
		on=$(col "$OUT/live-100000-live.txt" enable_ms median)
		off=$(col "$OUT/live-100000-live.txt" disable_ms median)
		echo "  100000 sites switched in <= 50 ms: $(verdict "$(larger "$on" "$off")" 50)"
		summary "live patching: 100000 sites switched" "$(larger "$on" "$off") ms" \
			"<= 50 ms" "$(verdict "$(larger "$on" "$off")" 50)"
	fi
	for clock in wall cpu; do
		stall_verdicts "$clock"
	done
	explain_worst_wall
}

# Which round of which size had the worst live wall-time stall, that
# round's worst gap in the worker's CPU clock (no less than what the clock
# counted of the wall-time one), and how often the worker was switched
# out in that round (slept or preempted).
explain_worst_wall() {
	local n
	for n in $SIZES; do
		awk -v n="$n" '{ for (i = 1; i < NF; i++) v[$i] = $(i + 1)
			print v["stall_wall_us"], v["stall_cpu_us"], v["worker_slept"],
				v["worker_preempted"], n }' "$OUT/live-$n-live.txt"
	done | sort -g | tail -1 | awk '{
		printf "  worst wall-time stall: %s us (%s sites); in that round the worst" \
			" CPU-time gap was %s us, and the worker slept %s times and was" \
			" preempted %s times\n", $1, $5, $2, $3, $4
		if ($3 + $4 == 0 && $1 - $2 > 100)
			printf "  (never switched out: for at least %.0f us the hypervisor did" \
				" not run its virtual CPU)\n", $1 - $2 }'
}

larger() { awk -v a="$1" -v b="$2" 'BEGIN { print (b > a ? b : a) }'; }

# stall_verdicts wall|cpu: the worst live stall of any size under 100 us,
# and each size's worst live stall <= 1/10 of the stopped one, both in
# this one clock; the worst quiet window of the same clock, for scale.
stall_verdicts() {
	local clock=$1 name n live stop worst=0 quiet=0 ratio=0 r
	name=$([ "$clock" = wall ] && echo "wall time" || echo "CPU time")
	for n in $SIZES; do
		live=$(col "$OUT/live-$n-live.txt" "stall_${clock}_us" max)
		stop=$(col "$OUT/live-$n-stop.txt" "stall_${clock}_us" max)
		worst=$(larger "$worst" "$live")
		quiet=$(larger "$quiet" "$(col "$OUT/live-$n-live.txt" "quiet_${clock}_us" max)")
		r=$(awk -v a="$live" -v b="$stop" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 99) }')
		echo "  $n sites, $name: live stall $live us, stopped $stop us: $r"
		ratio=$(larger "$ratio" "$r")
	done
	echo "  longest live stall of any size < 100 us ($name): $(below "$worst" 100)" \
		"($worst us; quiet window: $quiet us)"
	echo "  every size's live stall <= 1/10 of stop-the-world's ($name):" \
		"$(verdict "$ratio" 0.1) (worst $ratio)"
	summary "live patching: longest stall, $name" "$worst us" "< 100 us" "$(below "$worst" 100)"
	summary "live patching: stall / stopped, $name" "$ratio" "<= 0.1" "$(verdict "$ratio" 0.1)"
}

below() { awk -v a="$1" -v b="$2" 'BEGIN { print (a + 0 < b + 0) ? "PASS" : "MISS" }'; }

stress() {
	local dir=$OUT/stress
	mkdir -p "$dir"
	gcc -O2 -pg -c "$top/tests/progs/stress.c" -o "$dir/stress.o"
	gcc "$dir/stress.o" -o "$dir/stress" -lpthread
	"$dir/stress" 8 400000 0 >"$dir/want.txt"
	log "stress: 8 threads, 10000 flips"
	"$FNTRACE" record -F 'a_*' -o "$dir/s.data" -- "$dir/stress" 8 400000 10000 >"$dir/got.txt" 2>/dev/null
	if cmp -s "$dir/want.txt" "$dir/got.txt"; then echo "  checksum right: PASS"; else echo "  checksum right: FAIL"; fi
	"$FNTRACE" report -i "$dir/s.data" | cut -d'|' -f3 | awk '
		/\(\) \{$/ { d++ } /^ *\}/ { if (--d < 0) bad = 1 }
		END { print "  entries and exits nest: " (bad || d ? "FAIL" : "PASS") }'
}

main() {
	mkdir -p "$OUT"
	for n in $SIZES; do
		build_program "$n"
		log "live patching, $n functions, $ROUNDS rounds each way"
		run "$n" live
		run "$n" stop
	done
	echo
	echo "live patching: enable/disable every function with the function tracer"
	echo "  (medians of $ROUNDS rounds; stalls: the worst of all rounds, in us)"
	printf '  %7s  %8s %8s   %8s %8s %10s %10s   %9s %10s %9s\n' "" live "" "CPU" "CPU" "CPU" stop \
		"wall" "wall" "wall"
	printf '  %7s  %8s %8s   %8s %8s %10s %10s   %9s %10s %9s\n' functions "on ms" "off ms" \
		stall quiet "stop stall" "stop on ms" stall "stop stall" quiet
	for n in $SIZES; do report_size "$n"; done
	verdicts
	if [ "${BENCH_QUICK:-0}" = 0 ]; then
		echo
		echo "stress: 8 threads, set_ftrace_filter flipped 10 000 times"
		stress
	fi
}

main "$@"
