#!/bin/sh
# make stress: every concurrency-sensitive case, many times in a row.  A
# case that fails one run in N is a bug until shown otherwise, and one
# green run proves little.  Each repetition of a case is one run of
# tests/run.sh CASE; it passes if every check in it passed.
# ARCH:CASE runs CASE with T_ARCH=ARCH (its programs built for ARCH, under
# qemu-user); by default every other architecture with a runtime runs the
# live stress, torture, batch fork and blocked-signal cases so, at the
# counts make check lowers for qemu-user (TORTURE_ROUNDS, BATCH_FORKS, ...).
# Ends with one line: "N passed, N failed".
# Usage: tests/stress.sh [[ARCH:]CASE...]   (STRESS_REPS, default 20)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
reps=${STRESS_REPS:-20}
cross=""
. "$top/tests/arch/left_out.sh"
# The other architectures' cases, when no case is named.
for entry in "$top"/src/arch/*/entry.S; do
	arch=$(basename "$(dirname "$entry")")
	[ $# -eq 0 ] && [ "$arch" != "$(uname -m)" ] || continue
	skip=$(arch_left_out "$arch")
	for name in live_stress robust_torture robust_batch_fork blocked_signals; do
		case " $skip " in
		*" $name "*) echo "stress: $arch:$name left out: $(arch_left_out_why "$arch" "$name")" ;;
		*) cross="$cross $arch:$name" ;;
		esac
	done
done
cases=${*:-"robust_live robust_returns live_stress robust_torture robust_batch_fork attach attach_robust real_pbzip2 threads lost many_threads robust_dlopen
	robust_signals signal_nesting ctl_faults record_faults control ctl_triggers record_triggers args_stress daemon_fds_race blocked_signals memory_rules seccomp robust_clone robust_settls record_signals record_pid record_rotate ctl_pipe ctl_pipe_others ctl_pipe_gaps ctl_trace_pairs live_interrupt tracing_thresh snapshot flight ctl_snapshot_triggers crash_snapshot libcalls detour_trace detour_regs detour_sigframe detour_live_lib detour_paired kevents kevents_pid kevents_lost kevents_flight kevents_fork remote remote_cut$cross"}
log=$(mktemp /tmp/fntrace-stress.XXXXXX)
trap 'rm -f "$log"' EXIT
export TORTURE_ROUNDS=${TORTURE_ROUNDS:-10000} BATCH_FORKS=${BATCH_FORKS:-300}
export LIBCALLS_ROUNDS=${LIBCALLS_ROUNDS:-1000} DETOUR_ROUNDS=${DETOUR_ROUNDS:-1000}
passed=0 failed=0

for c in $cases; do
	case $c in *:*) arch=${c%%:*} name=${c#*:} ;; *) arch="" name=$c ;; esac
	[ -n "$(ls "$top"/tests/cases/*/"$name".sh 2>/dev/null)" ] || continue
	ok=0 bad=0
	for i in $(seq "$reps"); do
		if T_ARCH=$arch sh "$top/tests/run.sh" "$name" >"$log" 2>&1; then
			ok=$((ok + 1))
		else
			bad=$((bad + 1))
			echo "stress: $c failed in run $i:"
			grep '^FAIL' "$log" | head -n 5
		fi
	done
	echo "stress: $c: $ok of $reps runs passed"
	passed=$((passed + ok)) failed=$((failed + bad))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
