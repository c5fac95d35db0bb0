#!/bin/bash
# Snapshots, run by bench/run.sh (BUILD set), or alone:
#
#   4 worker threads calling in a loop under `fntrace record --overwrite
#   -b 65536` (64 MB of ring, function_graph); once it has wrapped, the
#   main thread asks for a snapshot ROUNDS times.  Per round: the copy's
#   time (the snapshot's own info: the control thread's copy of 64 MB),
#   how long the asking thread waited for it, and the longest stall any
#   worker saw meanwhile, in wall and in CPU time, beside a quiet window
#   as long.  Target (issue 32): the longest stall under 50 us.
set -eu
export LC_ALL=C

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
OUT=$BUILD/bench
FNTRACE=${FNTRACE:-$BUILD/fntrace}
ROUNDS=${SNAP_ROUNDS:-5}
WORKERS=${SNAP_WORKERS:-4}
RING_KB=${SNAP_RING_KB:-65536}
[ "${BENCH_QUICK:-0}" != 0 ] && ROUNDS=2

. "$top/bench/lib.sh"    # log, summary

build() {
	local bin=$OUT/snapshot
	[ "$bin" -nt "$top/bench/snapshot.c" ] && return 0
	gcc -O2 -g -pg -mfentry -c "$top/bench/snapshot.c" -o "$bin.o"
	gcc -o "$bin" "$bin.o" -lpthread
	rm -f "$bin.o"
}

# col FILE FIELD median|max
col() {
	awk -v f="$2" '{ for (i = 1; i < NF; i++) if ($i == f) print $(i + 1) }' "$1" |
		sort -n | awk -v how="$3" '{ v[NR] = $1 } END {
			if (!NR) { print "?"; exit }
			print how == "max" ? v[NR] : v[int((NR + 1) / 2)] }'
}

below() { awk -v a="$1" -v b="$2" 'BEGIN { print (a + 0 < b + 0) ? "PASS" : "MISS" }'; }

main() {
	local dir=$OUT/snapshot.data rounds=$OUT/snapshot-rounds.txt copies=$OUT/snapshot-copies.txt
	mkdir -p "$OUT"
	build
	log "snapshots: $WORKERS workers, a ring of $RING_KB KB, $ROUNDS rounds"
	"$FNTRACE" record --overwrite -b "$RING_KB" -o "$dir" -- "$OUT/snapshot" "$WORKERS" \
		"$ROUNDS" 2>/dev/null | grep '^round' >"$rounds"
	for info in "$dir"/snapshot.*/info; do
		awk '$1 == "snapshot_reason:" { r = $2 } $1 == "snapshot_copy:" { ms = $2 / 1e6; n = $3 }
		     END { if (r == "program") printf "copy_ms %.3f chunks %d\n", ms, n }' "$info"
	done >"$copies"
	echo
	echo "snapshots: $WORKERS workers, a ring of $RING_KB KB (function_graph), $ROUNDS rounds"
	echo "  the copy (median, worst):     $(col "$copies" copy_ms median) ms, $(col "$copies" copy_ms max) ms" \
		"($(col "$copies" chunks max) chunks)"
	echo "  the asking thread waited:     $(col "$rounds" asked_ms median) ms (median)"
	echo "  a worker's longest stall:     $(col "$rounds" stall_wall_us max) us wall," \
		"$(col "$rounds" stall_cpu_us max) us CPU"
	echo "  ... in a quiet window as long: $(col "$rounds" quiet_wall_us max) us wall," \
		"$(col "$rounds" quiet_cpu_us max) us CPU"
	summary "snapshot: copy of $((RING_KB / 1024)) MB" "$(col "$copies" copy_ms median) ms" "-" "-"
	summary "snapshot: longest stall, CPU" "$(col "$rounds" stall_cpu_us max) us" "< 50 us" \
		"$(below "$(col "$rounds" stall_cpu_us max)" 50)"
	summary "snapshot: longest stall, wall" "$(col "$rounds" stall_wall_us max) us" "< 50 us" \
		"$(below "$(col "$rounds" stall_wall_us max)" 50)"
	datadir_remove_all "$dir"
}

# The flight recording, 64 MB a snapshot: not kept.
datadir_remove_all() {
	rm -rf "$1" "$1.old"
}

main "$@"
