#!/bin/sh
# Runs every unit test (build/tests/unit/*) and every case
# (tests/cases/AREA/NAME.sh, a folder per area; a case is known by its
# NAME alone) and ends with one line: "N passed, N failed, N skipped".
# Before it, every run's wall and CPU time, slowest first, and the whole
# run's: each unit test, each case and each of cross.sh's (architecture,
# case) runs records its own in $TIMES (tests/timing.sh).
# Usage: tests/run.sh [PATTERN]   (only cases whose name contains PATTERN)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
TMP=$(mktemp -d /tmp/fntrace-tests.XXXXXX)
RESULTS=$TMP/results
TIMES=$TMP/times
# The test programs of tests/progs/, each built once per compiler and
# flags in a run, for every case (t_build in tests/lib.sh).
T_PROGS=$TMP/progs
# The run's own directory, private to its user, above every case's.
RUN_TMP=$TMP
: >"$RESULTS"; : >"$TIMES"
# Side files (<build-id>.sites) go to the run's own cache: none of the
# user's ~/.cache/fntrace counts, and no run leaves one there.
XDG_CACHE_HOME=$TMP/cache
unset FNTRACE_CACHE
export BUILD TMP RESULTS TIMES T_PROGS RUN_TMP top XDG_CACHE_HOME
. "$top/tests/timing.sh"
. "$top/tests/case_file.sh"
. "$top/tests/results.sh"
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
	t_failed "$1: $n sanitizer report(s)"
}

for t in "$BUILD"/tests/unit/*; do
	[ -x "$t" ] || continue
	case ${t##*/} in *"${1:-}"*) ;; *) continue ;; esac
	echo "== unit: $(basename "$t")"
	t_start start
	"$t" >"$TMP/unit.out" 2>&1
	rc=$?
	t_took "$start" "unit $(basename "$t")"
	cat "$TMP/unit.out"
	sed -n 's/^PASS.*/pass/p; s/^FAIL.*/fail/p' "$TMP/unit.out" >>"$RESULTS"
	[ $rc -eq 0 ] || t_failed "$(basename "$t") exited with $rc"
	no_reports "$(basename "$t")"
done

# run_case FILE: one case, in $TMP/case, its results in $RESULTS.
run_case() {
	local name=${1##*/} start
	name=${name%.sh}
	echo "== case: $name"
	mkdir -p "$TMP/case" && rm -rf "$TMP/case"/*
	t_start start
	( cd "$TMP/case" && . "$top/tests/lib.sh" && . "$1" ) || {
		t_failed "$name stopped with status $?"; }
	t_took "$start" "${T_ARCH:+[$T_ARCH] }$name"
	no_reports "$name"
}

# The cross case (the other architectures, under qemu-user) runs beside
# the others when CHECK_JOBS (2) allows two at once: a native case leaves
# most of a core idle (it waits on its programs, most of them one
# thread), and a qemu-user run fills it.  It starts first, two runs at a
# time (CROSS_EARLY) until the native cases are done (it sees
# $BESIDE_DONE), then as many as it runs alone; its output is printed
# after theirs, whole.
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

# The native cases, CHECK_JOBS (2) at once: most of a case's time is
# spent waiting on its programs (compilers, fntrace, the traced program),
# so two of them, with the cross runs beside, keep the two cores busy.
# Each worker goes down the list and takes every case no other worker
# has taken (mkdir: one of them makes the directory); a case has its own
# $TMP, results and sanitizer reports, and its output is printed whole
# when it ends (a lock: no two at once).  The longest cases start first
# (LONG_FIRST, slowest first: the summary's table says which), so that the
# workers end together.  Some want the machine to themselves (NATIVE_ALONE)
# and run after the others, one by one:
#   control    leaves a dead process's socket for the next runtime to
#              remove, and checks that no thread of its own is busy;
#   lost, ctl_faults  timed: a full buffer, a stopped process's timeouts.
LONG_FIRST="package recordmcount cc_lto real_xz cc robust_torture attach record_faults
	sanitizers real_cxx fp_regs robust_returns args_stress browser args_gdb attach_robust
	real_lua startup live_stress args"
NATIVE_ALONE="control lost ctl_faults"

# native_list: the native cases to run, by file, the longest first.
native_list() {
	local c name first=
	for name in $LONG_FIRST; do
		c=$(t_case_file "$name")
		[ -n "$c" ] && first="$first $c" && echo "$c"
	done
	for c in "$top"/tests/cases/*.sh "$top"/tests/cases/*/*.sh; do
		case " $first " in *" $c "*) continue ;; esac
		echo "$c"
	done
}

# wanted FILE: is FILE a case this run runs here (not beside, not alone)?
wanted() {
	local name=${1##*/}
	name=${name%.sh}
	[ -f "$1" ] || return 1
	case $name in *"${PATTERN}"*) ;; *) return 1 ;; esac
	[ -n "$beside" ] && [ "$1" = "$cross" ] && return 1
	case " $NATIVE_ALONE " in *" $name "*) return 1 ;; esac
}

# native_worker: run every case of $cases no other worker took.
native_worker() {
	local n=0 c job
	for c in $cases; do
		n=$((n + 1))
		job=$TMP/native/$n
		mkdir "$job" 2>/dev/null || continue
		mkdir "$job/tmp" && : >"$job/results"
		( TMP=$job/tmp RESULTS=$job/results
		  reports_to "$job/sanitizer"
		  run_case "$c" ) >"$job/out" 2>&1
		flock "$TMP/native/.lock" cat "$job/out"
	done
}

PATTERN=${1:-}
cases=$(native_list | while read -r c; do wanted "$c" && echo "$c"; done)
mkdir -p "$TMP/native"
workers=
for w in $(seq "${CHECK_JOBS:-2}"); do
	native_worker &
	workers="$workers $!"
done
# shellcheck disable=SC2086
wait $workers
for job in "$TMP"/native/*/; do
	[ -d "$job" ] && cat "$job/results" >>"$RESULTS"
done
for name in $NATIVE_ALONE; do
	c=$(t_case_file "$name")
	[ -n "$c" ] || continue
	case $name in *"${PATTERN}"*) run_case "$c" ;; esac
done

if [ -n "$beside" ]; then
	touch "$TMP/native.done"
	wait "$beside"
	cat "$TMP/beside.out"
	cat "$TMP/beside/results" >>"$RESULTS"
fi

t_summary "$run_start"

p=$(grep -c '^pass$' "$RESULTS"); f=$(grep -c '^fail' "$RESULTS"); s=$(grep -c '^skip$' "$RESULTS")
if [ "$f" -gt 0 ]; then
	echo "The failures again:"
	sed -n 's/^fail /FAIL: /p' "$RESULTS"
fi
echo "$p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
