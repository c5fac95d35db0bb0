#!/bin/sh
# Runs every unit test (build/tests/unit/*) and every case (tests/cases/*.sh)
# and ends with one line: "N passed, N failed, N skipped".  Before it, the
# slowest runs and the whole run's wall time: each unit test, each case and
# each of cross.sh's (architecture, case) runs records its own in $TIMES.
# Usage: tests/run.sh [PATTERN]   (only cases whose name contains PATTERN)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
TMP=$(mktemp -d /tmp/fntrace-tests.XXXXXX)
RESULTS=$TMP/results
TIMES=$TMP/times
: >"$RESULTS"; : >"$TIMES"
export BUILD TMP RESULTS TIMES top
. "$top/tests/timing.sh"
run_start=$(t_now_ms)
trap 'rm -rf "$TMP"' EXIT

for t in "$BUILD"/tests/unit/*; do
	[ -x "$t" ] || continue
	case ${t##*/} in *"${1:-}"*) ;; *) continue ;; esac
	echo "== unit: $(basename "$t")"
	start=$(t_now_ms)
	"$t" >"$TMP/unit.out" 2>&1
	rc=$?
	t_took "$start" "unit $(basename "$t")"
	cat "$TMP/unit.out"
	sed -n 's/^PASS.*/pass/p; s/^FAIL.*/fail/p' "$TMP/unit.out" >>"$RESULTS"
	[ $rc -eq 0 ] || { echo "FAIL: $(basename "$t") exited with $rc"; echo fail >>"$RESULTS"; }
done

for c in "$top"/tests/cases/*.sh; do
	[ -f "$c" ] || continue
	case ${c##*/} in *"${1:-}"*) ;; *) continue ;; esac
	echo "== case: $(basename "$c" .sh)"
	mkdir -p "$TMP/case" && rm -rf "$TMP/case"/*
	start=$(t_now_ms)
	( cd "$TMP/case" && . "$top/tests/lib.sh" && . "$c" ) || {
		echo "FAIL: $(basename "$c") stopped with status $?"; echo fail >>"$RESULTS"; }
	t_took "$start" "${T_ARCH:+[$T_ARCH] }$(basename "$c" .sh)"
done

t_slowest 15 "$run_start"

p=$(grep -c '^pass$' "$RESULTS"); f=$(grep -c '^fail$' "$RESULTS"); s=$(grep -c '^skip$' "$RESULTS")
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
