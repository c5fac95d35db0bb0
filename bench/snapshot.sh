#!/bin/bash
# Snapshots, run by bench/run.sh (BUILD set), or alone:
#
#   worker threads calling in a loop under `fntrace record --overwrite
#   -b 65536` (64 MB of ring, function_graph); once it has wrapped, the
#   main thread asks for a snapshot ROUNDS times (bench/snapshot.c).  Per
#   round, three windows as long as each other: the snapshot (the
#   control thread's copy of 64 MB), the write-out right after (the
#   recorder writes the copy to disk), and a quiet one later (tracing
#   only); in each, the longest gap between two loop iterations any
#   worker saw, in wall and in its own CPU time, and the wall gaps over
#   50 us.  The quiet window is the scale: what the machine and the
#   tracing do to a worker without any snapshot.
#
#   Two settings: the issue's, SNAP_WORKERS (4) workers where the
#   scheduler places them; and one worker on each CPU but the first,
#   alone there (the recorder, the main thread and the runtime's control
#   thread, which copies, on CPU 0): with more runnable threads than
#   CPUs the scheduler alone makes wall gaps of milliseconds, which say
#   nothing of what a snapshot does.  Other processes still run where
#   they like: on a busy machine wall gaps are theirs too.
#   Target (issue 32): the longest stall under 50 us, wall and CPU.
set -eu
export LC_ALL=C

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
OUT=$BUILD/bench
FNTRACE=${FNTRACE:-$BUILD/fntrace}
ROUNDS=${SNAP_ROUNDS:-8}
WORKERS=${SNAP_WORKERS:-4}
RING_KB=${SNAP_RING_KB:-65536}
[ "${BENCH_QUICK:-0}" != 0 ] && ROUNDS=3
STALL_US=50

. "$top/bench/lib.sh"    # log, summary

build() {
	local bin=$OUT/snapshot
	[ "$bin" -nt "$top/bench/snapshot.c" ] && return 0
	mkdir -p "$OUT"
	gcc -O2 -g -Wall -Wextra -pg -mfentry -c "$top/bench/snapshot.c" -o "$bin.o"
	gcc -o "$bin" "$bin.o" -lpthread
	rm -f "$bin.o"
}

# col FILE FIELD median|max|sum [WINDOW]: over the lines of WINDOW (all
# lines if none).
col() {
	awk -v f="$2" -v w="${4:-}" '
		w != "" && $4 != w { next }
		{ for (i = 1; i < NF; i++) if ($i == f) print $(i + 1) }' "$1" |
		sort -n | awk -v how="$3" '{ v[NR] = $1; s += $1 } END {
			if (!NR) { print "?"; exit }
			print how == "max" ? v[NR] : how == "sum" ? s : v[int((NR + 1) / 2)] }'
}

below() { awk -v a="$1" -v b="$2" 'BEGIN { print (a != "?" && a + 0 < b + 0) ? "PASS" : "MISS" }'; }

# run SETTING WORKERS [FIRST_CPU]: one recording, its rounds into
# $OUT/snapshot-SETTING.txt and its copies' times into
# $OUT/snapshot-SETTING-copies.txt.
run() {
	local setting=$1 workers=$2 dir=$OUT/snapshot.data pin=() first=()
	[ -n "${3:-}" ] && pin=(taskset -c 0) first=("$3")
	"${pin[@]}" "$FNTRACE" record --overwrite -b "$RING_KB" -o "$dir" -- "$OUT/snapshot" \
		"$workers" "$ROUNDS" "${first[@]}" 2>"$OUT/snapshot.err" | grep '^round' \
		>"$OUT/snapshot-$setting.txt" || { log "snapshot: $(tail -n 2 "$OUT/snapshot.err")"; return 1; }
	for info in "$dir"/snapshot.*/info; do
		awk '$1 == "snapshot_reason:" { r = $2 } $1 == "snapshot_copy:" { ms = $2 / 1e6; n = $3 }
		     END { if (r == "program") printf "copy_ms %.3f chunks %d\n", ms, n }' "$info"
	done >"$OUT/snapshot-$setting-copies.txt"
	rm -rf "$dir" "$dir.old"	# 64 MB a snapshot: not kept
}

# report SETTING TITLE: its table rows and summary rows.
report() {
	local setting=$1 title=$2 f=$OUT/snapshot-$1.txt c=$OUT/snapshot-$1-copies.txt w quiet_wall quiet_cpu
	echo "  $title"
	for w in snapshot writeout quiet; do
		printf '    %-10s %9s %-9s %9s %-9s %7s\n' "$w" "$(col "$f" wall_us max "$w")" \
			"($(col "$f" wall_us median "$w"))" "$(col "$f" cpu_us max "$w")" \
			"($(col "$f" cpu_us median "$w"))" "$(col "$f" over sum "$w")"
	done
	echo "    the copy: $(col "$c" copy_ms median) ms median, $(col "$c" copy_ms max) ms worst" \
		"($(col "$c" chunks max) chunks); the asking thread waited" \
		"$(col "$f" asked_ms median) ms (median)"
	quiet_wall=$(col "$f" wall_us max quiet) quiet_cpu=$(col "$f" cpu_us max quiet)
	summary "snapshot, $title: copy of $((RING_KB / 1024)) MB" "$(col "$c" copy_ms median) ms" "" info
	summary "snapshot, $title: longest stall, CPU" \
		"$(col "$f" cpu_us max snapshot) us (quiet windows: $quiet_cpu)" "< $STALL_US us" \
		"$(below "$(col "$f" cpu_us max snapshot)" $STALL_US)"
	summary "snapshot, $title: longest stall, wall" \
		"$(col "$f" wall_us max snapshot) us (quiet windows: $quiet_wall)" "< $STALL_US us" \
		"$(below "$(col "$f" wall_us max snapshot)" $STALL_US)"
}

main() {
	local cpus pinned
	mkdir -p "$OUT"
	build
	cpus=$(nproc)
	pinned=$((cpus - 1))
	log "snapshots: $WORKERS workers, then $pinned pinned, a ring of $RING_KB KB, $ROUNDS rounds"
	run free "$WORKERS"
	[ "$pinned" -gt 0 ] && run pinned "$pinned" 1
	echo
	echo "snapshots: a ring of $RING_KB KB (function_graph), $ROUNDS rounds a setting; in each"
	echo "  window the longest gap between two loop iterations of any worker, the worst"
	echo "  round (the median round), and how many wall gaps exceeded $STALL_US us in all rounds"
	printf '    %-10s %19s %19s %7s\n' window "wall us" "CPU us" ">${STALL_US}us"
	report free "$WORKERS workers, unpinned"
	if [ "$pinned" -gt 0 ]; then
		report pinned "$pinned worker(s) alone on CPUs 1-$pinned"
	else
		echo "  one CPU: no worker can run alone"
	fi
}

main "$@"
