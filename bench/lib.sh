# Timing, reporting and building helpers of the benchmarks, sourced by
# bench/run.sh and the scripts it runs (which set top, OUT, FNTRACE and
# RUN_TIMEOUT first).
#
# A label names one command to time; its runs go into $OUT/LABEL.us, one
# line of microseconds each, and the CPU time they took (user and system,
# of every process of the run) into $OUT/LABEL.cpu: on a shared machine a
# run waits for a CPU, which its wall time holds and its CPU time not.  Bash's EPOCHREALTIME times a run to the
# microsecond without forking a timer.

declare -A CMD    # label -> command line (already quoted for eval)
declare -A REF    # label -> file holding the output the run must print
declare -A DEAD   # label -> why it stopped running
declare -A MKDIR  # label -> 1: its $OUT/LABEL.dir must exist before a run

log() { echo "bench: $*" >&2; }

# add LABEL REFLABEL CMD...: a command to time; its stdout must equal the
# output of REFLABEL's first run (REFLABEL = LABEL: it is the reference).
# Every command starts with env, so the runs that set variables through it
# pay no extra exec compared with the others; and with timeout, so that a
# hung tracer stops the benchmark instead of blocking it (status 124).
add() {
	local label=$1 ref=$2
	shift 2
	[ "$1" = env ] && shift
	CMD[$label]=$(printf '%q ' timeout "$RUN_TIMEOUT" env "$@")
	REF[$label]=$OUT/$ref.expected
	rm -f "$OUT/$label.us" "$OUT/$label.cpu"
}

# CPU_MS: the CPU time of the children this shell has waited for (their
# own children included), user and system, in ms.  It is the second line
# of bash's times, read from a file, as a pipe or $(...) would run it in
# a subshell, which has no children.
children_cpu_ms() {
	local user sys
	times >"$OUT/times.txt"
	{ read -r _ _; read -r user sys; } <"$OUT/times.txt"
	min_sec_ms "$user"
	CPU_MS=$MS
	min_sec_ms "$sys"
	CPU_MS=$((CPU_MS + MS))
}

# MS: 1m2.345s as 62345.
min_sec_ms() {
	local m=${1%%m*} s=${1#*m}
	s=${s%s}
	MS=$((m * 60000 + ${s%.*} * 1000 + 10#${s#*.}))
}

# Run LABEL once: remove its trace directory (outside the timed part), time
# it, check its output. A failing command is not run again.
run_once() {
	local label=$1 t0 t1 c0 c1 rc=0
	[ -n "${DEAD[$label]:-}" ] && return 0
	rm -rf "$OUT/$label.dir"
	[ -n "${MKDIR[$label]:-}" ] && mkdir "$OUT/$label.dir"
	children_cpu_ms
	c0=$CPU_MS
	t0=${EPOCHREALTIME/./}
	eval "${CMD[$label]}" >"$OUT/$label.out" 2>"$OUT/$label.err" || rc=$?
	t1=${EPOCHREALTIME/./}
	children_cpu_ms
	c1=$CPU_MS
	if [ $rc -ne 0 ]; then
		DEAD[$label]="exit status $rc: $(tail -n 2 "$OUT/$label.err" | tr '\n' ' ')"
		return 0
	fi
	[ -f "${REF[$label]}" ] || cp "$OUT/$label.out" "${REF[$label]}"
	if ! cmp -s "$OUT/$label.out" "${REF[$label]}"; then
		DEAD[$label]="wrong output: $(head -c 80 "$OUT/$label.out")"
		return 0
	fi
	echo $((t1 - t0)) >>"$OUT/$label.us"
	echo $(((c1 - c0) * 1000)) >>"$OUT/$label.cpu"
}

# Run the labels REPS times, interleaved; a first untimed round warms the
# page cache and checks every command once.
run_group() {
	local reps=$1 r label
	shift
	for label in "$@"; do
		run_once "$label"
		rm -f "$OUT/$label.us" "$OUT/$label.cpu"
	done
	for ((r = 0; r < reps; r++)); do
		for label in "$@"; do run_once "$label"; done
	done
}

# Median run time of LABEL in microseconds (empty if it never ran); of
# its CPU time with EXT cpu.
median() {
	local ext=${2:-us}
	[ -z "${DEAD[$1]:-}" ] && [ -s "$OUT/$1.$ext" ] || return 0
	sort -n "$OUT/$1.$ext" | awk '{ v[NR] = $1 }
		END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

median_cpu() { median "$1" cpu; }

# The fastest run of LABEL in microseconds: on a shared machine, others
# only ever add to a run's time.
fastest() {
	[ -z "${DEAD[$1]:-}" ] && [ -s "$OUT/$1.us" ] || return 0
	sort -n "$OUT/$1.us" | head -n 1
}

# The fastest and the slowest run of LABEL, "MIN-MAX" in ms.
spread() {
	[ -z "${DEAD[$1]:-}" ] && [ -s "$OUT/$1.us" ] || return 0
	sort -n "$OUT/$1.us" | awk 'NR == 1 { lo = $1 } { hi = $1 }
		END { printf "%.1f..%.1f", lo / 1000, hi / 1000 }'
}

# slope PREFIX [STAT]: the time between PREFIX_0's and PREFIX_1's runs
# (the two sizes of the slope method), in microseconds, by STAT (median,
# the default; median_cpu; fastest).
slope() {
	local stat=${2:-median}
	awk -v a="$($stat "${1}_0")" -v b="$($stat "${1}_1")" \
		'BEGIN { if (a != "" && b != "") print b - a }'
}

fmt() { awk -v v="$1" -v p="$2" 'BEGIN { if (v == "") print "-"; else printf "%." p "f", v }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a <= b) }'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b != "" && b != 0) printf "%.6f", a / b }'; }

# verdict VALUE LIMIT, both as printed: what the table shows is what is judged.
verdict() {
	if [ -z "$1" ] || [ "$1" = - ] || [ -z "$2" ] || [ "$2" = - ]; then echo "NOT RUN"
	elif le "$1" "$2"; then echo PASS; else echo MISS; fi
}

# summary FIGURE VALUE TARGET RESULT: a row of the table bench/run.sh ends
# with (its file is BENCH_SUMMARY); nothing when a script runs alone.
summary() {
	[ -n "${BENCH_SUMMARY:-}" ] || return 0
	printf '%s\t%s\t%s\t%s\n' "$@" >>"$BENCH_SUMMARY"
}

# bench/micro.c in one flavor, as $OUT/micro-FLAVOR, for bench/run.sh and
# the scripts that also run alone; built if missing or older than what
# makes it.  Built with the flags of scripts/build-lua.sh: compiled with
# -pg, linked without it (linking with -pg adds gprof's start-up).
# Every build aligns functions and loops alike: the functions are a few
# instructions long, and without it where they happen to fall moves the
# time by 15% (the same source, PIE against non-PIE), more than any nop.
# fp is plain with the frame pointer -pg forces into every function: the
# fair reference for what fntrace adds to a -pg build.  clang and xray
# are the LLVM XRay build and its untraced reference.
build_micro() {
	local flavor=$1 cc=gcc cflags="-falign-functions=64 -falign-loops=32" lflags=""
	local src=$top/bench/micro.c bin=$OUT/micro-$1
	case $flavor in
	plain) ;;
	fp) cflags="$cflags -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer" ;;
	pg) cflags="$cflags -pg" ;;
	fentry) cflags="$cflags -pg -mfentry" ;;
	nop) cflags="$cflags -fno-pie -pg -mfentry -mrecord-mcount -mnop-mcount"; lflags="-no-pie" ;;
	cc) cc="$FNTRACE cc" ;;
	clang) cc=clang ;;
	xray) cc=clang cflags="$cflags -fxray-instrument -fxray-instruction-threshold=1"
		lflags="-fxray-instrument -Wl,--wrap=main $top/bench/xray_fdr.c" ;;
	esac
	[ "$bin" -nt "$src" ] && [ "$bin" -nt "$top/bench/lib.sh" ] &&
		{ [ "$flavor" != cc ] || [ "$bin" -nt "$FNTRACE" ]; } && return 0
	mkdir -p "$OUT"
	# shellcheck disable=SC2086
	$cc -O2 -g -Wall -Wextra $cflags -c -o "$bin.o" "$src" &&
		$cc $lflags -o "$bin" "$bin.o" && rm -f "$bin.o"
}
