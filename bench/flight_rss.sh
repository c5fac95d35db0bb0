#!/bin/bash
# Memory over a long flight recording (issue 32), run by bench/run.sh
# (BUILD set), or alone:
#
#   bench/flight_rss.c under `fntrace record --overwrite` (function_graph,
#   the default 16 MB ring): RSS_THREADS (4) threads at a time, each
#   making RSS_PER_THREAD (4 million) calls of a leaf and ending, another
#   started as each ends, until RSS_CALLS (10^10) calls; BENCH_QUICK=1
#   makes 5 x 10^8 and says so.  The program's resident memory and the
#   recorder's are sampled at each thread's end.  The first steady sample
#   is the one after STEADY_SHARE of the calls (the ring filled, the
#   first threads gone); every sample of the last STEADY_SHARE must be
#   within LIMIT_PCT (1 %) of it, the program's and the recorder's.  The
#   memory not shared (what the process allocated itself, the ring and
#   the snapshot buffer left out) is printed beside it, in KB, as it is
#   where a leak would show first.
#   About 28 ns of CPU a traced call on this 2-CPU machine, two threads
#   running at a time: 10^10 calls take some two and a half minutes
#   when it is quiet, eight when a test run shares it.
set -eu
export LC_ALL=C

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
OUT=$BUILD/bench
FNTRACE=${FNTRACE:-$BUILD/fntrace}
CALLS=${RSS_CALLS:-10000000000}
THREADS=${RSS_THREADS:-4}
PER_THREAD=${RSS_PER_THREAD:-4000000}
if [ "${BENCH_QUICK:-0}" != 0 ]; then
	CALLS=${RSS_CALLS:-500000000} PER_THREAD=${RSS_PER_THREAD:-1000000}
fi
FULL_CALLS=10000000000	# the issue's figure
STEADY_SHARE=0.05
LIMIT_PCT=1

. "$top/bench/lib.sh"    # log, summary, fmt, verdict

trap 'rm -rf "$OUT/rss.data" "$OUT/rss.data.old"' EXIT

build() {
	local bin=$OUT/flight_rss
	[ "$bin" -nt "$top/bench/flight_rss.c" ] && [ "$bin" -nt "$FNTRACE" ] && return 0
	mkdir -p "$OUT"
	"$FNTRACE" cc -O2 -g -Wall -Wextra -o "$bin" "$top/bench/flight_rss.c" -lpthread
}

# growth SAMPLES FIELD: the first steady sample of FIELD, and the lowest
# and highest of the last samples, as "base lo hi pct": pct the largest
# distance from base, in percent.
growth() {
	awk -v f="$2" -v share="$STEADY_SHARE" -v total="$CALLS" '
		$1 == "calls" && $3 == "rss_kb" {
			for (i = 1; i < NF; i++) if ($i == f) v = $(i + 1)
			calls[NR] = $2; val[NR] = v; n = NR }
		END {
			for (i = 1; i <= n; i++) if (calls[i] >= share * total) { b = i; break }
			if (!b || val[b] < 0) { print "- - - -"; exit }
			lo = hi = val[b]
			for (i = b; i <= n; i++) if (calls[i] >= (1 - share) * total) {
				if (val[i] < lo) lo = val[i]; if (val[i] > hi) hi = val[i] }
			d = hi - val[b]; if (val[b] - lo > d) d = val[b] - lo
			printf "%d %d %d %.2f\n", val[b], lo, hi, 100 * d / val[b] }' "$1"
}

row() {
	local what=$1 samples=$2 field=$3 anon=$4 base lo hi pct res abase alo ahi
	read -r base lo hi pct < <(growth "$samples" "$field")
	read -r abase alo ahi _ < <(growth "$samples" "$anon")
	res=$(verdict "$pct" "$LIMIT_PCT")
	printf '  %-10s %9s %9s %9s %7s %10s   %-7s %s\n' "$what" "$base" "$lo" "$hi" \
		"$pct %" "<= $LIMIT_PCT %" "$res" "not shared: $abase KB, last $alo..$ahi"
	summary "flight RSS, $what, over $(calls_text) calls" \
		"$pct % (steady $base KB, last $lo..$hi; not shared $abase, last $alo..$ahi)" \
		"<= $LIMIT_PCT %" "$res"
}

calls_text() { awk -v c="$CALLS" 'BEGIN { printf "%.0e", c }'; }

main() {
	local samples=$OUT/rss-samples.txt t0 t1 threads
	build || { log "cannot build flight_rss"; exit 1; }
	log "flight RSS: $(calls_text) calls, $THREADS threads at a time, $PER_THREAD calls each"
	t0=${EPOCHREALTIME/./}
	"$FNTRACE" record --overwrite -o "$OUT/rss.data" -- "$OUT/flight_rss" "$CALLS" \
		"$THREADS" "$PER_THREAD" >"$samples" 2>"$OUT/rss.err" ||
		{ log "flight_rss failed: $(tail -n 2 "$OUT/rss.err")"; exit 1; }
	t1=${EPOCHREALTIME/./}
	threads=$(awk '$1 == "calls" && $3 == "threads" { print $4 }' "$samples")
	echo
	echo "flight recorder memory: $(calls_text) calls in $threads threads ($THREADS at a" \
		"time) under record --overwrite, $(((t1 - t0) / 1000000)) s" \
		"($(awk -v c="$CALLS" -v t=$((t1 - t0)) 'BEGIN { printf "%.1f", t * 1000 / c }')" \
		"ns a call, wall)"
	[ "$CALLS" -ge "$FULL_CALLS" ] ||
		echo "  $(calls_text) calls only (BENCH_QUICK or RSS_CALLS), not the issue's 1e+10"
	echo "  RSS in KB: the first steady sample (after $STEADY_SHARE of the calls), the" \
		"lowest and highest of the last $STEADY_SHARE"
	printf '  %-10s %9s %9s %9s %7s %10s   %s\n' "" steady "last lo" "last hi" change \
		target result
	row program "$samples" rss_kb anon_kb
	row recorder "$samples" recorder_kb recorder_anon_kb
}

main "$@"
