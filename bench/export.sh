#!/bin/bash
# Reading a big trace (called by bench/run.sh, or alone):
#   BUILD=build bench/export.sh [SIZE]     SIZE: 2G (default), 500M ...
# (or EXPORT_SIZE; BENCH_QUICK=1 makes it 200M), EXPORT_FORMATS the
# formats to try.
#
# Records bench/micro.c (-pg build, call-heavy: 8 bytes of trace.dat per
# call) into a trace.dat of about SIZE, a real recording: fntrace records
# this program at several hundred MB/s, so nothing is synthesized.  The
# iterations come from a small calibration run.  Then, once each (the
# trace is in the page cache after recording, so what is measured is the
# reader, not the disk it came from):
#   - export --format F -o FILE, for every format of EXPORT_FORMATS that
#     this fntrace has; the file is removed after;
#   - the same to /dev/null: the export's own speed, without the disk the
#     output goes to (chrome writes about 16 bytes of JSON per byte read);
#   - report --stat (and report --min-duration, if this fntrace has it).
# For each: wall time, MB/s of trace.dat (MB = 10^6 bytes) in that time,
# the CPU time (user + system: what the run cost, on a machine others may
# share) and peak RSS (/usr/bin/time -f %M).  Targets for export and
# report: >= 100 MB/s and < 200 MB resident, whatever the size.
#
# A benchmark: exits 0 even when a target is missed, non-zero only when
# something could not run.  Everything it makes is removed at the end.
set -eu
export LC_ALL=C

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
OUT=$BUILD/bench
FNTRACE=${FNTRACE:-$BUILD/fntrace}
SIZE=${1:-${EXPORT_SIZE:-2G}}
[ -z "${1:-}${EXPORT_SIZE:-}" ] && [ "${BENCH_QUICK:-0}" != 0 ] && SIZE=200M
EXPORT_FORMATS=${EXPORT_FORMATS:-"chrome perfetto folded svg"}
MIN_MBS=100
MAX_RSS_MB=200

DATA=$OUT/export.data
RESULT=$OUT/export.out
broken=0

. "$top/bench/lib.sh"    # log, summary, build_micro

# Everything but the micro-pg build, which bench/run.sh shares.
trap 'rm -rf "$DATA" "$DATA".tmp-* "$OUT/export-calib.data" "$RESULT" "$RESULT".* \
	"$OUT/export-record.err" "$OUT/export.err" "$OUT/export.time"' EXIT

bytes_of() {
	case $1 in
	*G) echo $((${1%G} * 1000000000)) ;;
	*M) echo $((${1%M} * 1000000)) ;;
	*) echo "$1" ;;
	esac
}

# bench/run.sh's micro-pg (build_micro: lib.sh).
micro=$OUT/micro-pg

trace_bytes() { stat -c %s "$1/trace.dat"; }

# record DIR ITERATIONS: micro under fntrace, with a buffer large enough
# that the recorder keeps up (dropped events are said in the table).
record() {
	rm -rf "$1"
	"$FNTRACE" record -b 262144 -o "$1" -- "$micro" "$2" >/dev/null 2>"$OUT/export-record.err"
}

make_trace() {
	local want calib_iters=200 per iters
	want=$(bytes_of "$SIZE")
	record "$OUT/export-calib.data" $calib_iters || return 1
	per=$(($(trace_bytes "$OUT/export-calib.data") / calib_iters))
	rm -rf "$OUT/export-calib.data"
	iters=$((want / per + 1))
	log "recording micro-pg, $iters iterations, for a trace.dat of about $SIZE"
	record "$DATA" $iters
}

# measure LABEL CMD...: one run under /usr/bin/time; prints a table row.
measure() {
	local label=$1 secs rss user sys cpu mbs rss_mb verdict
	shift
	if ! /usr/bin/time -f '%e %M %U %S' -o "$OUT/export.time" "$@" 2>"$OUT/export.err"; then
		log "$label failed: $(tail -n 2 "$OUT/export.err" | tr '\n' ' ')"
		printf '  %-34s %s\n' "$label" "FAILED"
		broken=1
		return 0
	fi
	read -r secs rss user sys <"$OUT/export.time"
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
	mbs=$(awk -v b="$BYTES" -v s="$secs" 'BEGIN { printf "%.0f", (s > 0 ? b / s / 1e6 : 0) }')
	rss_mb=$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')
	verdict=PASS
	awk -v m="$mbs" -v r="$rss_mb" -v mm=$MIN_MBS -v mr=$MAX_RSS_MB \
		'BEGIN { exit !(m >= mm && r < mr) }' || verdict=MISS
	printf '  %-34s %8s %8s %8s %8s   %s\n' "$label" "$secs" "$cpu" "$mbs" "$rss_mb" "$verdict"
	summary_row "$label" "$mbs" "$cpu" "$rss_mb"
}

# The rows of bench/run.sh's summary: the report's, against the
# >= 200 MB/s, and the exports' to /dev/null against this script's own
# target (written to a file, they measure the disk).  The machine may be
# shared: MB per CPU second says what the reader itself can do.
summary_row() {
	local label=$1 mbs=$2 cpu=$3 rss=$4 min=$MIN_MBS value
	case $label in
	report*) min=200 ;;
	*/dev/null) ;;
	*) return 0 ;;
	esac
	value="$mbs MB/s ($(awk -v b="$BYTES" -v c="$cpu" \
		'BEGIN { printf "%.0f", (c > 0 ? b / c / 1e6 : 0) }') per CPU s), RSS $rss MB"
	summary "reading $((BYTES / 1000000)) MB: $label" "$value" \
		">= $min MB/s, < $MAX_RSS_MB MB" "$(awk -v m="$mbs" -v r="$rss" -v mm=$min \
		-v mr=$MAX_RSS_MB 'BEGIN { print (m >= mm && r < mr) ? "PASS" : "MISS" }')"
}

has_format() { "$FNTRACE" export --help | grep -Eq "^ +$1 "; }

main() {
	local f size_out
	build_micro pg || { log "cannot build micro-pg"; exit 1; }
	make_trace || { log "recording failed: $(tail -n 2 "$OUT/export-record.err")"; exit 1; }
	BYTES=$(trace_bytes "$DATA")
	echo
	echo "reading a trace: micro-pg, trace.dat $((BYTES / 1000000)) MB," \
		"$(sed -n 's/^dropped: //p' "$DATA/info" | grep . || echo 0) events dropped"
	echo "  (once each; targets >= $MIN_MBS MB/s of trace.dat and < $MAX_RSS_MB MB resident)"
	printf '  %-34s %8s %8s %8s %8s   %s\n' "" seconds "CPU s" "MB/s" "RSS MB" result
	for f in $EXPORT_FORMATS; do
		if ! has_format "$f"; then
			printf '  %-34s %s\n' "export --format $f" "(not in this fntrace)"
			continue
		fi
		measure "export --format $f -o FILE" "$FNTRACE" export -i "$DATA" --format "$f" -o "$RESULT"
		size_out=$(stat -c %s "$RESULT" 2>/dev/null || echo 0)
		printf '  %-34s %s\n' "" "(wrote $((size_out / 1000000)) MB)"
		rm -f "$RESULT" "$RESULT".*
		measure "export --format $f >/dev/null" sh -c \
			'exec "$0" export -i "$1" --format "$2" >/dev/null' "$FNTRACE" "$DATA" "$f"
	done
	measure "report --stat" sh -c 'exec "$0" report -i "$1" --stat >/dev/null' "$FNTRACE" "$DATA"
	if "$FNTRACE" report --help | grep -q -- --min-duration; then
		measure "report --min-duration 1ms" sh -c \
			'exec "$0" report -i "$1" --min-duration 1ms >/dev/null' "$FNTRACE" "$DATA"
	fi
	exit $broken
}

main "$@"
