# The runtime on every other architecture.  Each case an
# architecture lists in tests/arch/<arch>.sh (ARCH_CASES) runs again with
# T_ARCH set: its programs cross-built, recorded and reported as on
# x86_64, and run under qemu-user through binfmt_misc (i386: natively, or
# under qemu-i386 on a kernel without IA-32 emulation).
# A case is one of tests/cases/ (by name), or of tests/cross/ (those that compare
# an architecture with x86_64, and so only run here).
#
# The (architecture, case) runs are independent, and qemu-user runs a
# program's threads on one host thread most of the time: CROSS_JOBS (2)
# of them run at once, each with its own directory, $TMP and results,
# its output kept and printed whole, in the order they ran.  The longest
# start first (CROSS_LONG_FIRST, slowest first: the summary's table says
# which), so that the workers end together.  Run by tests/run.sh beside
# the native cases (BESIDE_DONE set), CROSS_EARLY (2) workers start at
# once and the others once those are done: the native cases and the
# runs here mostly wait (on timeouts, on qemu's start), and the two
# cores have room for both.
# Some cases want the machine to themselves (CROSS_ALONE), and run after
# the others (and after the native cases), one by one:
#   control    leaves a dead process's socket for the next runtime to
#              remove, and checks that no thread of its own is busy;
#   lost, ctl_faults  timed for native speed (i386 runs them natively).

CROSS_ALONE="control lost ctl_faults"
CROSS_LONG_FIRST="aarch64:sanitizers_arch riscv64:live_stress mips:live_stress riscv64:static
	aarch64:robust_torture aarch64:live_stress i386:robust_torture i386:live_stress
	riscv64:robust_batch_fork aarch64:blocked_signals mips:robust_batch_fork
	i386:signal_nesting i386:record_faults aarch64:real_zlib riscv64:robust_torture
	riscv64:real_zlib"
. "$top/tests/arch/left_out.sh"
host=$(uname -m)
jobs=$TMP/cross
mkdir -p "$jobs"

# cross_case ARCH CASE: run it here, its results in $RESULTS.
cross_case() {
	local file=$(t_case_file "$2") start
	[ -n "$file" ] || file=$top/tests/cross/$2.sh
	mkdir -p "$1-$2"
	t_start start
	( cd "$1-$2" && T_ARCH=$1 && . "$top/tests/lib.sh" && . "$file" ) ||
		t_fail "cross: $1 $2 stopped with status $?"
	t_took "$start" "[$1] $2"
}

# The runs, ARCH:CASE, in order; the architectures left out or missing
# said at once.
runs=""
for entry in "$top"/src/arch/*/entry.S; do
	arch=$(basename "$(dirname "$entry")")
	[ "$arch" = "$host" ] && continue
	if [ ! -f "$BUILD/$arch/libfntrace.so" ]; then
		t_fail "cross: the $arch runtime is built" "no $BUILD/$arch/libfntrace.so"
		continue
	fi
	skip=$(arch_left_out "$arch")
	for c in $(. "$top/tests/arch/$arch.sh"; echo "$ARCH_CASES"); do
		case " $skip " in *" $c "*)
			t_skip "cross: $arch $c" "$(arch_left_out_why "$arch" "$c")"
			continue ;;
		esac
		runs="$runs $arch:$c"
	done
done

# The runs again, the longest first.
long_first() {
	local r first=
	for r in $CROSS_LONG_FIRST; do
		case " $runs " in *" $r "*) first="$first $r" ;; esac
	done
	for r in $runs; do
		case " $first " in *" $r "*) ;; *) first="$first $r" ;; esac
	done
	echo "$first"
}
runs=$(long_first)

# beside_wait: until the native cases beside are done, if any.
beside_wait() {
	[ -z "${BESIDE_DONE:-}" ] && return 0
	while [ ! -e "$BESIDE_DONE" ]; do sleep 1; done
}

# Each worker goes down the list and takes every run no other worker
# has taken (mkdir: one of them makes the directory), so none waits
# while runs are left.  A run's output, results and temporary files
# stay in its own directory.
for w in $(seq "${CROSS_JOBS:-2}"); do
	(
	[ "$w" -le "${CROSS_EARLY:-2}" ] || beside_wait
	n=0
	for run in $runs; do
		n=$((n + 1))
		case " $CROSS_ALONE " in *" ${run#*:} "*) continue ;; esac
		mkdir "$jobs/$n" 2>/dev/null || continue
		TMP=$jobs/$n/tmp RESULTS=$jobs/$n/results
		mkdir "$TMP" && : >"$RESULTS"
		cross_case "${run%:*}" "${run#*:}" >"$jobs/$n/out" 2>&1
	done
	) &
done
wait

n=0
for run in $runs; do
	n=$((n + 1))
	[ -d "$jobs/$n" ] || continue
	cat "$jobs/$n/out"
	cat "$jobs/$n/results" >>"$RESULTS"
done

beside_wait
for run in $runs; do
	case " $CROSS_ALONE " in *" ${run#*:} "*) cross_case "${run%:*}" "${run#*:}" ;; esac
done
