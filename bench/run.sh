#!/bin/bash
# fntrace benchmarks, run by `make bench` (BUILD set to the build directory).
#
# (a) tracing off: a -pg build with libfntrace.so preloaded but not tracing,
#     against the plain -O2 build of the same program. Target: ratio <= 1.03.
# (b) function_graph on every function: fntrace record against uftrace
#     record --no-libcall. Cost per traced call, (traced - untraced time) /
#     calls, target <= 1/3 of uftrace's; trace size per call, target <= 12
#     bytes (uftrace: 32).
# Programs: bench/micro.c (call-heavy) and the Lua 5.4 interpreter running
# tests/real/workload.lua. Every figure is the median of repeated runs, the
# commands of a group interleaved so that drifts of the machine hit all alike.
#
# A benchmark, not a test: exits 0 even when a target is missed, non-zero
# only when something could not run (or a traced program printed a wrong
# result). BENCH_QUICK=1 makes a short run. Bash for EPOCHREALTIME, which
# times a run to the microsecond without forking a timer.
set -eu
export LC_ALL=C   # EPOCHREALTIME with a '.' separator; plain sort order

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
OUT=$BUILD/bench
LIB=${LIBFNTRACE:-$BUILD/libfntrace.so}     # overridable, as in tests/lib.sh
FNTRACE=${FNTRACE:-$BUILD/fntrace}
WORKLOAD=$top/tests/real/workload.lua
FLAVORS="pg fentry nop"
RUN_TIMEOUT=300   # seconds; no single run should come near it

if [ "${BENCH_QUICK:-0}" != 0 ]; then
	REPS_OFF=5 REPS_GRAPH=3 MICRO_OFF=5000 MICRO_GRAPH=100 LUA_OFF=5 LUA_GRAPH=1
else
	REPS_OFF=15 REPS_GRAPH=5 MICRO_OFF=20000 MICRO_GRAPH=400 LUA_OFF=20 LUA_GRAPH=2
fi

broken=0          # set when something could not run
declare -A CMD    # label -> command line (already quoted for eval)
declare -A REF    # label -> file holding the output the run must print
declare -A DEAD   # label -> why it stopped running

log() { echo "bench: $*" >&2; }

# ---- building -----------------------------------------------------------

# micro in one flavor, with the flags of scripts/build-lua.sh: compiled
# with -pg, linked without it (linking with -pg adds gprof's start-up).
# Every build aligns functions and loops alike: the functions are a few
# instructions long, and without it where they happen to fall moves the
# time by 15% (the same source, PIE against non-PIE), more than any nop.
# fp is plain with the frame pointer -pg forces into every function: the
# fair reference for what fntrace adds to a -pg build.
build_micro() {
	local flavor=$1 cflags="-falign-functions=64 -falign-loops=32" lflags=""
	case $flavor in
	plain) ;;
	fp) cflags="$cflags -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer" ;;
	pg) cflags="$cflags -pg" ;;
	fentry) cflags="$cflags -pg -mfentry" ;;
	nop) cflags="$cflags -fno-pie -pg -mfentry -mrecord-mcount -mnop-mcount"; lflags="-no-pie" ;;
	esac
	local bin=$OUT/micro-$flavor
	[ "$bin" -nt "$top/bench/micro.c" ] && [ "$bin" -nt "$0" ] && return 0
	# shellcheck disable=SC2086
	gcc -O2 -g -Wall -Wextra $cflags -c -o "$bin.o" "$top/bench/micro.c" &&
		gcc $lflags -o "$bin" "$bin.o" && rm -f "$bin.o"
}

build_all() {
	mkdir -p "$OUT"
	local f
	build_micro fp || { log "cannot build micro-fp"; return 1; }
	for f in plain $FLAVORS; do
		build_micro "$f" || { log "cannot build micro-$f"; return 1; }
		"$top/scripts/build-lua.sh" "$f" >/dev/null || { log "cannot build lua-$f"; return 1; }
	done
}

lua_bin() { echo "${FNTRACE_CACHE:-$top/cache}/build/lua-$1/lua"; }

# ---- timing -------------------------------------------------------------

# add LABEL REFLABEL CMD...: a command to time; its stdout must equal the
# output of REFLABEL's first run (REFLABEL = LABEL: it is the reference).
# Every command starts with env, so the runs that set LD_PRELOAD through it
# pay no extra exec compared with the others; and with timeout, so that a
# hung tracer stops the benchmark instead of blocking it (status 124).
add() {
	local label=$1 ref=$2
	shift 2
	[ "$1" = env ] && shift
	CMD[$label]=$(printf '%q ' timeout "$RUN_TIMEOUT" env "$@")
	REF[$label]=$OUT/$ref.expected
	rm -f "$OUT/$label.us"
}

# Run LABEL once: remove its trace directory (outside the timed part), time
# it, check its output. A failing command is not run again.
run_once() {
	local label=$1 t0 t1 rc=0
	[ -n "${DEAD[$label]:-}" ] && return 0
	rm -rf "$OUT/$label.dir"
	t0=${EPOCHREALTIME/./}
	eval "${CMD[$label]}" >"$OUT/$label.out" 2>"$OUT/$label.err" || rc=$?
	t1=${EPOCHREALTIME/./}
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
}

# Run the labels REPS times, interleaved; a first untimed round warms the
# page cache and checks every command once.
run_group() {
	local reps=$1 r label
	shift
	for label in "$@"; do
		run_once "$label"
		rm -f "$OUT/$label.us"
	done
	for ((r = 0; r < reps; r++)); do
		for label in "$@"; do run_once "$label"; done
	done
}

# Median run time of LABEL in microseconds (empty if it never ran).
median() {
	[ -z "${DEAD[$1]:-}" ] && [ -s "$OUT/$1.us" ] || return 0
	sort -n "$OUT/$1.us" | awk '{ v[NR] = $1 }
		END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ---- trace facts --------------------------------------------------------

# Calls fntrace recorded: the sum of the hits column of its CSV report.
fntrace_calls() {
	"$FNTRACE" report -i "$1" --stat --csv 2>/dev/null | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == "hits") h = NF - i; next }
		h != "" { s += $(NF - h) }
		END { if (h != "") print s }'
}

# Calls uftrace recorded, its events (linux:schedule...) left out.
uftrace_calls() {
	uftrace report -d "$1" -f call -s call --no-pager 2>/dev/null | awk '
		/^ *[0-9]+  +[^ ]/ { line = $0; sub(/^ *[0-9]+  +/, "", line)
				     if (line !~ /^[a-z]+:[^:]/) s += $1 }
		END { if (s) print s }'
}

dir_bytes() { du -sb "$1" 2>/dev/null | cut -f1; }

# ---- reporting ----------------------------------------------------------

fmt() { awk -v v="$1" -v p="$2" 'BEGIN { if (v == "") print "-"; else printf "%." p "f", v }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a <= b) }'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b != "" && b != 0) printf "%.6f", a / b }'; }

# verdict VALUE LIMIT, both as printed: what the table shows is what is judged.
verdict() {
	if [ -z "$1" ] || [ "$1" = - ] || [ "$2" = - ]; then echo "NOT RUN"
	elif le "$1" "$2"; then echo PASS; else echo MISS; fi
}

# Why a label did not run, for the notes under the table.
note_dead() {
	local label
	for label in "$@"; do
		if [ -n "${DEAD[$label]:-}" ]; then
			NOTES+=("$label: ${DEAD[$label]}")
			broken=1
		fi
	done
}

# ---- (a) tracing off ----------------------------------------------------

# off_group NAME BINFUNC REPS ARGS...: time the plain build,
# each flavor alone and each flavor with libfntrace.so preloaded.
off_group() {
	local name=$1 binf=$2 reps=$3 f labels=()
	shift 3
	add "off_${name}_plain" "off_${name}_plain" "$($binf plain)" "$@"
	labels+=("off_${name}_plain")
	if [ -x "$($binf fp)" ]; then
		add "off_${name}_fp" "off_${name}_plain" "$($binf fp)" "$@"
		labels+=("off_${name}_fp")
	fi
	for f in $FLAVORS; do
		add "off_${name}_$f" "off_${name}_plain" "$($binf "$f")" "$@"
		labels+=("off_${name}_$f")
		if [ -f "$LIB" ]; then
			add "off_${name}_${f}_lib" "off_${name}_plain" \
				env "LD_PRELOAD=$LIB" "$($binf "$f")" "$@"
			labels+=("off_${name}_${f}_lib")
		else
			DEAD[off_${name}_${f}_lib]="$LIB is not built"
		fi
	done
	run_group "$reps" "${labels[@]}"
}

micro_bin() { echo "$OUT/micro-$1"; }

off_rows() {
	local name=$1 what=$2 base f r0 r1
	base=$(median "off_${name}_plain")
	for f in $FLAVORS; do
		r0=$(fmt "$(div "$(median "off_${name}_$f")" "$base")" 3)
		r1=$(fmt "$(div "$(median "off_${name}_${f}_lib")" "$base")" 3)
		printf '  %-26s %10s %14s %10s   %s\n' "$what-$f" "$r0" "$r1" "<= 1.03" \
			"$(verdict "$r1" 1.03)"
		note_dead "off_${name}_$f" "off_${name}_${f}_lib"
		[ "$f" = pg ] && [ -n "${CMD[off_${name}_fp]:-}" ] && fp_row "$name" "$what"
	done
	note_dead "off_${name}_plain"
}

# -pg forces a frame pointer into every function, fntrace or not: the
# -pg build against the plain build with frame pointers is what fntrace
# itself costs.
fp_row() {
	local name=$1 what=$2 r
	r=$(fmt "$(div "$(median "off_${name}_pg_lib")" "$(median "off_${name}_fp")")" 3)
	printf '  %-26s %10s %14s %10s   %s\n' "  $what-pg / frame ptrs" "" "$r" "<= 1.03" \
		"$(verdict "$r" 1.03)"
}

# ---- (b) function_graph -------------------------------------------------

# graph_group NAME BINARY REPS ARGS...: the -pg binary alone, under fntrace
# and under uftrace.
graph_group() {
	local name=$1 bin=$2 reps=$3
	shift 3
	add "g_${name}_base" "g_${name}_base" "$bin" "$@"
	if [ -x "$FNTRACE" ]; then
		add "g_${name}_fntrace" "g_${name}_base" "$FNTRACE" record -t function_graph \
			-o "$OUT/g_${name}_fntrace.dir" -- "$bin" "$@"
	else
		DEAD[g_${name}_fntrace]="$FNTRACE is not built"
	fi
	add "g_${name}_uftrace" "g_${name}_base" uftrace record --no-libcall \
		-d "$OUT/g_${name}_uftrace.dir" "$bin" "$@"
	run_group "$reps" "g_${name}_base" "g_${name}_fntrace" "g_${name}_uftrace"
}

graph_rows() {
	local name=$1 what=$2 base fcalls ucalls fns uns fb ub lim
	base=$(median "g_${name}_base")
	fcalls="" ucalls=""
	[ -z "${DEAD[g_${name}_fntrace]:-}" ] && fcalls=$(fntrace_calls "$OUT/g_${name}_fntrace.dir")
	[ -z "${DEAD[g_${name}_uftrace]:-}" ] && ucalls=$(uftrace_calls "$OUT/g_${name}_uftrace.dir")
	# ns per call: microseconds * 1000 / calls; each tracer by its own count.
	fns=$(div "$(awk -v t="$(median "g_${name}_fntrace")" -v b="$base" \
		'BEGIN { if (t != "" && b != "") print (t - b) * 1000 }')" "$fcalls")
	uns=$(div "$(awk -v t="$(median "g_${name}_uftrace")" -v b="$base" \
		'BEGIN { if (t != "" && b != "") print (t - b) * 1000 }')" "$ucalls")
	fb="" ub=""
	[ -n "$fcalls" ] && fb=$(div "$(dir_bytes "$OUT/g_${name}_fntrace.dir")" "$fcalls")
	[ -n "$ucalls" ] && ub=$(div "$(dir_bytes "$OUT/g_${name}_uftrace.dir")" "$ucalls")
	lim=$(fmt "$(div "$uns" 3)" 1)
	fns=$(fmt "$fns" 1) uns=$(fmt "$uns" 1) fb=$(fmt "$fb" 1) ub=$(fmt "$ub" 1)
	printf '  %-26s %10s %10s %16s   %s\n' "$what ns/call" "$fns" "$uns" \
		"<= $lim" "$(verdict "$fns" "$lim")"
	printf '  %-26s %10s %10s %16s   %s\n' "$what bytes/call" "$fb" "$ub" \
		"<= 12" "$(verdict "$fb" 12)"
	printf '  %-26s %10s %10s\n' "$what calls" "${fcalls:--}" "${ucalls:--}"
	if [ -n "$fcalls" ] && [ -n "$ucalls" ] && [ "$fcalls" != "$ucalls" ]; then
		NOTES+=("$what: fntrace recorded $fcalls calls, uftrace $ucalls")
	fi
	[ -n "$fcalls" ] || [ -n "${DEAD[g_${name}_fntrace]:-}" ] ||
		DEAD[g_${name}_fntrace]="fntrace report gave no hits column"
	note_dead "g_${name}_base" "g_${name}_fntrace" "g_${name}_uftrace"
}

# ---- main ---------------------------------------------------------------

main() {
	NOTES=()
	# The trace directories are large (uftrace: 32 bytes per call).
	trap 'rm -rf "$OUT"/*.dir' EXIT
	command -v uftrace >/dev/null || { log "uftrace is not installed"; exit 1; }
	build_all || exit 1
	rm -f "$OUT"/*.expected
	log "(a) tracing off: micro, $REPS_OFF runs each"
	off_group micro micro_bin "$REPS_OFF" "$MICRO_OFF"
	log "(a) tracing off: lua, $REPS_OFF runs each"
	off_group lua lua_bin "$REPS_OFF" "$WORKLOAD" "$LUA_OFF"
	log "(b) function_graph: micro, $REPS_GRAPH runs each"
	graph_group micro "$(micro_bin pg)" "$REPS_GRAPH" "$MICRO_GRAPH"
	log "(b) function_graph: lua, $REPS_GRAPH runs each"
	graph_group lua "$(lua_bin pg)" "$REPS_GRAPH" "$WORKLOAD" "$LUA_GRAPH"

	echo
	echo "fntrace benchmarks (medians of interleaved runs; BENCH_QUICK=${BENCH_QUICK:-0})"
	echo
	echo "(a) tracing off: run time / run time of the plain -O2 build;"
	echo "    'alone' runs the flavor without fntrace (glibc's mcount for pg, fentry)"
	echo "    (micro $MICRO_OFF iterations, $REPS_OFF runs; lua workload.lua $LUA_OFF, $REPS_OFF runs)"
	printf '  %-26s %10s %14s %10s   %s\n' build alone "fntrace, off" target result
	off_rows micro micro
	off_rows lua lua
	echo
	echo "(b) function_graph on every function, -pg builds: (traced - untraced) / calls"
	echo "    (micro $MICRO_GRAPH iterations, lua workload.lua $LUA_GRAPH; $REPS_GRAPH runs)"
	printf '  %-26s %10s %10s %16s   %s\n' "" fntrace uftrace target result
	graph_rows micro micro-pg
	graph_rows lua lua-pg
	if [ ${#NOTES[@]} -gt 0 ]; then
		echo
		echo "notes:"
		printf '  %s\n' "${NOTES[@]}"
	fi
	BUILD=$BUILD "$top/bench/recordmcount.sh" || broken=1
	BUILD=$BUILD "$top/bench/livepatch.sh" || broken=1
	BUILD=$BUILD "$top/bench/export.sh" || broken=1
	exit $broken
}

main "$@"
