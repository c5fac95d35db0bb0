#!/bin/sh
# Runs every unit test (build/tests/unit/*) and every case (tests/cases/*.sh)
# and ends with one line: "N passed, N failed, N skipped".
# Usage: tests/run.sh [PATTERN]   (only cases whose name contains PATTERN)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
TMP=$(mktemp -d /tmp/fntrace-tests.XXXXXX)
RESULTS=$TMP/results
: >"$RESULTS"
export BUILD TMP RESULTS top
trap 'rm -rf "$TMP"' EXIT

# In a sanitizer build (make check-sanitize) a report goes to a file here,
# not to a stderr the case may throw away or expect an error on: each
# report fails the unit test or case it came from, printed whole.
REPORTS=$TMP/sanitizer
mkdir -p "$REPORTS"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$REPORTS/asan"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$REPORTS/ubsan"

# no_reports NAME: fail NAME for the reports its run left, if any.
no_reports() {
	local n
	n=$(find "$REPORTS" -type f | wc -l)
	[ "$n" -eq 0 ] && return
	find "$REPORTS" -type f -exec cat {} +
	find "$REPORTS" -type f -delete
	echo "FAIL: $1: $n sanitizer report(s)"; echo fail >>"$RESULTS"
}

for t in "$BUILD"/tests/unit/*; do
	[ -x "$t" ] || continue
	case $(basename "$t") in *"${1:-}"*) ;; *) continue ;; esac
	echo "== unit: $(basename "$t")"
	"$t" >"$TMP/unit.out" 2>&1
	rc=$?
	cat "$TMP/unit.out"
	sed -n 's/^PASS.*/pass/p; s/^FAIL.*/fail/p' "$TMP/unit.out" >>"$RESULTS"
	[ $rc -eq 0 ] || { echo "FAIL: $(basename "$t") exited with $rc"; echo fail >>"$RESULTS"; }
	no_reports "$(basename "$t")"
done

for c in "$top"/tests/cases/*.sh; do
	[ -f "$c" ] || continue
	case $(basename "$c") in *"${1:-}"*) ;; *) continue ;; esac
	echo "== case: $(basename "$c" .sh)"
	mkdir -p "$TMP/case" && rm -rf "$TMP/case"/*
	( cd "$TMP/case" && . "$top/tests/lib.sh" && . "$c" ) || {
		echo "FAIL: $(basename "$c") stopped with status $?"; echo fail >>"$RESULTS"; }
	no_reports "$(basename "$c" .sh)"
done

p=$(grep -c '^pass$' "$RESULTS"); f=$(grep -c '^fail$' "$RESULTS"); s=$(grep -c '^skip$' "$RESULTS")
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
