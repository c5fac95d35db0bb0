#!/bin/bash
# Start-up with many call sites (called by bench/run.sh, or alone):
# a program of STARTUP_SITES (100 000) small functions, built once with
# `fntrace cc` into $BUILD/bench, whose main() returns at once, timed
#   - alone: its sites are nops already, nothing of fntrace runs;
#   - with libfntrace.so preloaded, tracing off: what loading the runtime
#     costs (reading the sites, checking them);
#   - under `fntrace record` with every site enabled (function_graph): the
#     whole command, recorder and sealed data directory included;
#   - and, for scale, `fntrace record` of the same main() alone, one site.
# Targets: preloaded <= 10 ms over alone, recorded <= 20 ms
# over alone.  Medians of REPS interleaved runs, with the fastest and
# the slowest.  A benchmark: exits non-zero only when something could
# not run.
set -eu
export LC_ALL=C

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
OUT=$BUILD/bench
LIB=${LIBFNTRACE:-$BUILD/libfntrace.so}
FNTRACE=${FNTRACE:-$BUILD/fntrace}
SITES=${STARTUP_SITES:-100000}
REPS=31
[ "${BENCH_QUICK:-0}" != 0 ] && REPS=9
RUN_TIMEOUT=60

. "$top/bench/lib.sh"

# build NAME LO HI: NAME's functions in two halves compiled side by side
# (gcc takes half a minute on 100 000 functions), and main.
build() {
	local bin=$OUT/$1 dir=$OUT/$1.src mid=$((($2 + $3) / 2))
	[ -x "$bin" ] && [ "$bin" -nt "$top/bench/gen-sites.sh" ] && [ "$bin" -nt "$FNTRACE" ] &&
		return 0
	log "building $1 with fntrace cc (this takes a while once)"
	rm -rf "$dir" && mkdir -p "$dir"
	"$top/bench/gen-sites.sh" "$2" "$mid" >"$dir/a.c"
	"$top/bench/gen-sites.sh" "$mid" "$3" >"$dir/b.c"
	"$top/bench/gen-sites.sh" main >"$dir/main.c"
	"$FNTRACE" cc -O2 -c -o "$dir/a.o" "$dir/a.c" &
	"$FNTRACE" cc -O2 -c -o "$dir/b.o" "$dir/b.c" || { wait; return 1; }
	wait $! || return 1
	"$FNTRACE" cc -O2 -c -o "$dir/main.o" "$dir/main.c" &&
		"$FNTRACE" cc -o "$bin.tmp" "$dir"/*.o && mv "$bin.tmp" "$bin" && rm -rf "$dir"
}

# The spread of a label over alone: each run less alone's run of the same
# round (the rounds are interleaved), the lowest and the highest, in ms.
over_spread() {
	[ -s "$OUT/$1.us" ] && [ -s "$OUT/start_alone.us" ] || return 0
	paste "$OUT/$1.us" "$OUT/start_alone.us" | awk '{ d = ($1 - $2) / 1000
		if (NR == 1 || d < lo) lo = d; if (NR == 1 || d > hi) hi = d }
		END { if (NR) printf "%.1f..%.1f", lo, hi }'
}

# row WHAT LABEL [TARGET-MS]: the median and spread of the runs, and of
# their time over alone's, this against TARGET-MS.
row() {
	local what=$1 label=$2 limit=${3:-} med over res=""
	med=$(fmt "$(div "$(median "$label")" 1000)" 1)
	over=$(fmt "$(awk -v a="$(median "$label")" -v b="$(median start_alone)" \
		'BEGIN { if (a != "" && b != "") print (a - b) / 1000 }')" 1)
	[ -n "$limit" ] && res=$(verdict "$over" "$limit")
	printf '  %-40s %8s %13s %8s %13s %8s   %s\n' "$what" "$med" "$(spread "$label")" \
		"$over" "$(over_spread "$label")" "${limit:+<= $limit}" "$res"
	[ -n "$limit" ] && summary "start-up, $SITES sites, ms over alone: $what" \
		"$over (spread $(over_spread "$label"))" "<= $limit ms" "$res"
	if [ -n "${DEAD[$label]:-}" ]; then
		log "$label: ${DEAD[$label]}"
		broken=1
	fi
	return 0
}

main() {
	local bin=$OUT/sites-$SITES one=$OUT/sites-1
	broken=0
	mkdir -p "$OUT"
	build "sites-$SITES" 0 "$SITES" || { log "cannot build sites-$SITES"; exit 1; }
	build sites-1 0 1 || { log "cannot build sites-1"; exit 1; }
	add start_alone start_alone "$bin"
	add start_off start_alone env "LD_PRELOAD=$LIB" "$bin"
	add start_record start_alone "$FNTRACE" record -o "$OUT/start_record.dir" -- "$bin"
	add start_record1 start_alone "$FNTRACE" record -o "$OUT/start_record1.dir" -- "$one"
	log "start-up, $SITES sites, $REPS runs each"
	run_group "$REPS" start_alone start_off start_record start_record1
	rm -rf "$OUT"/start_*.dir "$OUT"/start_*.dir.old
	echo
	echo "start-up: a program of $SITES functions built with fntrace cc, main() returns at once"
	echo "  (medians of $REPS interleaved runs, in ms; spread: fastest-slowest run,"
	echo "  and of each run less alone's run of the same round)"
	printf '  %-40s %8s %13s %8s %13s %8s   %s\n' "" median spread "- alone" spread \
		target result
	row "alone" start_alone
	row "preloaded, tracing off" start_off 10
	row "fntrace record, every site on" start_record 20
	row "fntrace record, a program of one site" start_record1
	exit $broken
}

main "$@"
