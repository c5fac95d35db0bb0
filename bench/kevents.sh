#!/bin/bash
# What recording the kernel's events costs (record -e), run by
# bench/run.sh (BUILD set), or alone:
#
#   a system call: tests/progs/kev_storm.c's KEV_CALLS (1 000 000) getppid
#   calls in one function, run plain, under `record -F storm` (one traced
#   call: the function trace's cost is its start-up), under `record -F
#   storm -e syscalls:getppid`, and under `strace -f` (its output to
#   /dev/null) and `strace -f -c`: the cost per call is a run's time less
#   the plain run's, divided by the calls;
#   a context switch: bench/pingpong.c's KEV_ROUNDS (100 000) hand-overs
#   between two threads, plain, under `record -F bounce` and under `record
#   -F bounce -e sched`: per switch the info counts.
# Each figure is the median of KEV_RUNS (5) runs, interleaved; wall time
# and the CPU time of every process of a run (program, recorder, strace).
set -eu
export LC_ALL=C

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
OUT=$BUILD/bench/kevents
FNTRACE=${FNTRACE:-$BUILD/fntrace}
CALLS=${KEV_CALLS:-1000000}
ROUNDS=${KEV_ROUNDS:-100000}
RUNS=${KEV_RUNS:-5}
[ "${BENCH_QUICK:-0}" != 0 ] && RUNS=3
mkdir -p "$OUT"

. "$top/bench/lib.sh"    # log, children_cpu_ms, min_sec_ms

gcc -O2 -pg -I"$top/tests/progs" -o "$OUT/kev_storm" "$top/tests/progs/kev_storm.c"
gcc -O2 -pg -o "$OUT/pingpong" "$top/bench/pingpong.c" -lpthread
[ "$(id -u)" = 0 ] || log "not root: record -e records no kernel events, said once a run"

# timed LABEL CMD...: one run; its wall and CPU ms appended to LABEL's files.
timed() {
	local label=$1 t0 c0
	shift
	children_cpu_ms
	c0=$CPU_MS
	t0=${EPOCHREALTIME/./}
	"$@" >/dev/null 2>"$OUT/$label.err"
	echo $(( (${EPOCHREALTIME/./} - t0) / 1000 )) >>"$OUT/$label.wall"
	children_cpu_ms
	echo $((CPU_MS - c0)) >>"$OUT/$label.cpu"
}

med() { sort -n "$OUT/$1.$2" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

labels="plain func kev strace strace_c sw_plain sw_func sw_kev"
for l in $labels; do rm -f "$OUT/$l.wall" "$OUT/$l.cpu"; done
for _ in $(seq "$RUNS"); do
	timed plain "$OUT/kev_storm" "$CALLS"
	timed func "$FNTRACE" record -F storm -o "$OUT/func.data" -- "$OUT/kev_storm" "$CALLS"
	timed kev "$FNTRACE" record -F storm -e syscalls:getppid -o "$OUT/kev.data" -- \
		"$OUT/kev_storm" "$CALLS"
	timed strace strace -f -o /dev/null "$OUT/kev_storm" "$CALLS"
	timed strace_c strace -f -c -o /dev/null "$OUT/kev_storm" "$CALLS"
	timed sw_plain "$OUT/pingpong" "$ROUNDS"
	timed sw_func "$FNTRACE" record -F bounce -o "$OUT/swf.data" -- "$OUT/pingpong" "$ROUNDS"
	timed sw_kev "$FNTRACE" record -F bounce -e sched -o "$OUT/swk.data" -- \
		"$OUT/pingpong" "$ROUNDS"
done

recorded=$(sed -n 's/^kernel events *\([0-9]*\) system calls.*/\1/p' <("$FNTRACE" info -i "$OUT/kev.data"))
lost=$(sed -n 's/^kernel lost *\([0-9]*\) events.*/\1/p' <("$FNTRACE" info -i "$OUT/kev.data"))
switches=$(sed -n 's/.* \([0-9]*\) context switches.*/\1/p' <("$FNTRACE" info -i "$OUT/swk.data"))

# per LABEL BASE N: (LABEL's median - BASE's) / N, in ns, wall and CPU.
per() {
	awk -v a="$(med "$1" wall)" -v b="$(med "$2" wall)" -v c="$(med "$1" cpu)" \
	    -v d="$(med "$2" cpu)" -v n="$3" \
	    'BEGIN { printf "%8.0f ns   %8.0f ns", (a - b) * 1e6 / n, (c - d) * 1e6 / n }'
}

printf '\n%-44s %11s   %11s\n' "per system call ($CALLS getppid)" "wall" "cpu"
printf '%-44s %s\n' "record -F storm (no kernel events)" "$(per func plain "$CALLS")"
printf '%-44s %s\n' "record -F storm -e syscalls:getppid" "$(per kev plain "$CALLS")"
printf '%-44s %s\n' "  of which the kernel events" "$(per kev func "$CALLS")"
printf '%-44s %s\n' "strace -f -o /dev/null" "$(per strace plain "$CALLS")"
printf '%-44s %s\n' "strace -f -c" "$(per strace_c plain "$CALLS")"
printf '  (-e recorded %s of %s calls, %s events lost)\n' "${recorded:-?}" "$CALLS" "${lost:-?}"
printf '\n%-44s %11s   %11s\n' "per context switch (${switches:-?} recorded)" "wall" "cpu"
printf '%-44s %s\n' "record -F bounce -e sched, less without -e" \
	"$(per sw_kev sw_func "${switches:-1}")"
printf '\nmedians of %s runs; load average %s\n' "$RUNS" "$(cut -d' ' -f1-3 /proc/loadavg)"
