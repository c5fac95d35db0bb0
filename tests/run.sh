#!/bin/sh
# Runs every unit test (build/tests/unit/*) and every case
# (tests/cases/AREA/NAME.sh, a folder per area; a case is known by its
# NAME alone) and ends with one line: "N passed, N failed, N skipped".
# Before it, the slowest runs and the whole run's wall time: each unit
# test, each case and each of cross.sh's (architecture, case) runs
# records its own in $TIMES.
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

# In a sanitizer build (make check-sanitize) a report goes to a file here,
# not to a stderr the case may throw away or expect an error on: each
# report fails the unit test or case it came from, printed whole.
# The cross case running beside the others has a folder of its own.
asan_base=${ASAN_OPTIONS:-} ubsan_base=${UBSAN_OPTIONS:-}
reports_to() {
	REPORTS=$1
	mkdir -p "$REPORTS"
	export ASAN_OPTIONS="${asan_base:+$asan_base:}log_path=$REPORTS/asan"
	export UBSAN_OPTIONS="${ubsan_base:+$ubsan_base:}log_path=$REPORTS/ubsan"
}
reports_to "$TMP/sanitizer"

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
	case ${t##*/} in *"${1:-}"*) ;; *) continue ;; esac
	echo "== unit: $(basename "$t")"
	start=$(t_now_ms)
	"$t" >"$TMP/unit.out" 2>&1
	rc=$?
	t_took "$start" "unit $(basename "$t")"
	cat "$TMP/unit.out"
	sed -n 's/^PASS.*/pass/p; s/^FAIL.*/fail/p' "$TMP/unit.out" >>"$RESULTS"
	[ $rc -eq 0 ] || { echo "FAIL: $(basename "$t") exited with $rc"; echo fail >>"$RESULTS"; }
	no_reports "$(basename "$t")"
done

# run_case FILE: one case, in $TMP/case, its results in $RESULTS.
run_case() {
	local name=${1##*/} start
	name=${name%.sh}
	echo "== case: $name"
	mkdir -p "$TMP/case" && rm -rf "$TMP/case"/*
	start=$(t_now_ms)
	( cd "$TMP/case" && . "$top/tests/lib.sh" && . "$1" ) || {
		echo "FAIL: $name stopped with status $?"; echo fail >>"$RESULTS"; }
	t_took "$start" "${T_ARCH:+[$T_ARCH] }$name"
	no_reports "$name"
}

# The cross case (the other architectures, under qemu-user) runs beside
# the others when CHECK_JOBS (2) allows two at once: a native case leaves
# most of a core idle (it waits on its programs, most of them one
# thread), and a qemu-user run fills it.  It starts first, one run at a
# time until the native cases are done (it sees $BESIDE_DONE), then as
# many as it runs alone; its output is printed after theirs, whole.
beside=
cross=$top/tests/cases/arch/cross.sh
case ${cross##*/} in *"${1:-}"*)
	if [ "${CHECK_JOBS:-2}" -gt 1 ] && [ -z "${T_ARCH:-}" ]; then
		mkdir "$TMP/beside" && : >"$TMP/beside/results"
		( BESIDE_DONE=$TMP/native.done RESULTS=$TMP/beside/results TMP=$TMP/beside
		  export BESIDE_DONE
		  reports_to "$TMP/sanitizer"
		  run_case "$cross" ) >"$TMP/beside.out" 2>&1 &
		beside=$!
	fi ;;
esac

for c in "$top"/tests/cases/*.sh "$top"/tests/cases/*/*.sh; do
	[ -f "$c" ] || continue
	case ${c##*/} in *"${1:-}"*) ;; *) continue ;; esac
	[ -n "$beside" ] && [ "$c" = "$cross" ] && continue
	run_case "$c"
done

if [ -n "$beside" ]; then
	touch "$TMP/native.done"
	wait "$beside"
	cat "$TMP/beside.out"
	cat "$TMP/beside/results" >>"$RESULTS"
fi

t_slowest 15 "$run_start"

p=$(grep -c '^pass$' "$RESULTS"); f=$(grep -c '^fail$' "$RESULTS"); s=$(grep -c '^skip$' "$RESULTS")
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
