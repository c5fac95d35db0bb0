#!/bin/bash
# fntrace benchmarks, run by `make bench` (BUILD set to the build directory).
#
# (a) tracing off: each build form with libfntrace.so preloaded but not
#     tracing, against the plain -O2 build of the same program.  Target:
#     ratio <= 1.02 for a `fntrace cc` build.
# (b) the cost of a traced call, by the slope method: every configuration
#     runs at two input sizes, and
#         ns per call = ((t(large) - t(small)) - (r(large) - r(small)))
#                       / (calls(large) - calls(small))
#     where r is the untraced program (the plain -O2 build of the same
#     compiler) at the same sizes: start-up, set-up and write-out at exit
#     cancel, what remains is what each call costs.  Calls are counted
#     from each tracer's own trace.  The slope of the median runs is
#     judged; beside it the slope of the fastest runs and of the median
#     CPU time (user + system of every process of a run, the recorder's
#     too), which a busy machine disturbs far less.  The floor: bench/floor.c,
#     two rdtsc and a store per iteration, timed the same way.  Targets:
#     function_graph <= 1.1 x floor, function <= 0.6 x floor.  Configs:
#     fntrace record (function_graph, function) on a `fntrace cc` build
#     (with gcc on x86_64: return sites, src/core/returns.c) and on a -pg
#     build (returns hijacked); uftrace record --no-libcall on the -pg
#     build; LLVM XRay (clang 14, every function instrumented) in FDR
#     mode, kept in memory, and in basic mode, written to disk.
# Programs: bench/micro.c (call-heavy) and the Lua 5.4 interpreter running
# tests/real/workload.lua.  Then bench/startup.sh (100 000 call sites),
# bench/args.sh (what recording arguments costs), bench/recordmcount.sh,
# bench/livepatch.sh, bench/snapshot.sh (what a snapshot of 64 MB costs
# the program), bench/busy_ctl.sh (a tracer switch while 1000 threads
# keep the CPUs busy), bench/trigger_storm.sh (a slow call every millisecond
# under a duration trigger), bench/flight_cost.sh (a traced call under
# record --overwrite, beside a funtrace build named by FUNTRACE_MICRO),
# bench/flight_rss.sh (memory over 10^10 calls of threads that come and
# go, under record --overwrite), bench/reach.sh (a call through a detour
# against a call site; library calls against uftrace's), bench/export.sh (reading a 2 GB trace;
# EXPORT_SIZE=500M makes it smaller) and bench/kevents.sh (a system call
# and a context switch recorded by record -e, beside strace -f), and one summary table of
# every figure with its target.  Every figure is the median of repeated
# runs, the commands of a group interleaved so that drifts of the machine
# hit all alike.
#
# A benchmark, not a test: exits 0 even when a target is missed, non-zero
# only when something could not run (or a traced program printed a wrong
# result). BENCH_QUICK=1 makes a short run (a few minutes); BENCH_SKIP
# leaves parts out: any of off cost startup args recordmcount livepatch
# snapshot busy_ctl trigger_storm flight_cost flight_rss reach export kevents.
set -eu
export LC_ALL=C   # EPOCHREALTIME with a '.' separator; plain sort order

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
OUT=$BUILD/bench
LIB=${LIBFNTRACE:-$BUILD/libfntrace.so}     # overridable, as in tests/lib.sh
FNTRACE=${FNTRACE:-$BUILD/fntrace}
WORKLOAD=$top/tests/real/workload.lua
XRAY=llvm-xray-14
RUN_TIMEOUT=300   # seconds; no single run should come near it

# Sizes of (b): micro iterations (11 972 calls each), Lua workload
# scales (about 2 million calls each), floor iterations; XRay's basic mode,
# twenty times slower than the rest, gets smaller sizes of its own.
if [ "${BENCH_QUICK:-0}" != 0 ]; then
	REPS_OFF=5 MICRO_OFF=3000 LUA_OFF=20 REPS_COST=2
	MICRO_SIZES="25 100" MICRO_BASIC="3 12" LUA_SIZES="1 4" LUA_BASIC="1 2"
	FLOOR_SIZES="2500000 10000000"
else
	REPS_OFF=15 MICRO_OFF=10000 LUA_OFF=60 REPS_COST=5
	MICRO_SIZES="100 400" MICRO_BASIC="10 40" LUA_SIZES="2 8" LUA_BASIC="1 4"
	FLOOR_SIZES="10000000 40000000"
fi
OFF_FLAVORS=${BENCH_OFF_FLAVORS:-"pg cc"}
# XRay: records of calls shorter than a threshold are dropped by default;
# FDR's buffers must hold the largest run whole (16 bytes a call), or
# it stops recording; basic mode stops at 64 open frames, which Lua's
# longjmps leave behind without their exits.
XRAY_FDR_OPTIONS="func_duration_threshold_us=0 no_file_flush=true buffer_size=1048576 buffer_max=1024"
XRAY_BASIC_OPTIONS="func_duration_threshold_us=0 max_stack_depth=1000000"

broken=0          # set when something could not run

. "$top/bench/lib.sh"

# ---- building -----------------------------------------------------------

build_all() {
	mkdir -p "$OUT"
	local f
	for f in plain fp cc pg clang xray $OFF_FLAVORS; do
		build_micro "$f" || { log "cannot build micro-$f"; return 1; }
	done
	for f in plain cc pg clang xray $OFF_FLAVORS; do
		"$top/scripts/build-lua.sh" "$f" >/dev/null || { log "cannot build lua-$f"; return 1; }
	done
	gcc -O2 -Wall -Wextra -o "$OUT/floor" "$top/bench/floor.c" ||
		{ log "cannot build floor"; return 1; }
}

lua_bin() { echo "${FNTRACE_CACHE:-$top/cache}/build/lua-$1/lua"; }
micro_bin() { echo "$OUT/micro-$1"; }

# ---- trace facts --------------------------------------------------------

# Calls fntrace recorded: the calls line of fntrace info (entries, or the
# function tracer's hits).
fntrace_calls() {
	"$FNTRACE" info -i "$1" 2>/dev/null | awk '$1 == "calls" { print $2 }'
}

# Calls uftrace recorded, its events (linux:schedule...) left out.
uftrace_calls() {
	uftrace report -d "$1" -f call -s call --no-pager 2>/dev/null | awk '
		/^ *[0-9]+  +[^ ]/ { line = $0; sub(/^ *[0-9]+  +/, "", line)
				     if (line !~ /^[a-z]+:[^:]/) s += $1 }
		END { if (s) print s }'
}

# Entries in XRay basic-mode logs: 32-byte records after a 32-byte
# header, the record's type in its fourth byte (0: entry).  llvm-xray
# account would count them too, but gives up at the first exit a longjmp
# left without its entry.
xray_calls() {
	python3 - "$@" <<'PY'
import sys
n = 0
for name in sys.argv[1:]:
    with open(name, 'rb') as f:
        f.read(32)
        while True:
            b = f.read(32 << 20)
            if not b:
                break
            n += b[3::32].count(0)
print(n)
PY
}

dir_bytes() { du -sb "$1" 2>/dev/null | cut -f1; }

# ---- reporting ----------------------------------------------------------

# Why a label did not run, for the notes under the tables.
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
	for f in $OFF_FLAVORS; do
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

# The spread of a ratio: each run of LABEL over the run of BASE of the same
# round (the rounds are interleaved), the lowest and the highest.
ratio_spread() {
	[ -s "$OUT/$1.us" ] && [ -s "$OUT/$2.us" ] || return 0
	paste "$OUT/$1.us" "$OUT/$2.us" | awk '$2 > 0 { r = $1 / $2
		if (NR == 1 || r < lo) lo = r; if (NR == 1 || r > hi) hi = r }
		END { if (NR) printf "%.3f..%.3f", lo, hi }'
}

off_rows() {
	local name=$1 what=$2 base f r0 r1
	base=$(median "off_${name}_plain")
	for f in $OFF_FLAVORS; do
		r0=$(fmt "$(div "$(median "off_${name}_$f")" "$base")" 3)
		r1=$(fmt "$(div "$(median "off_${name}_${f}_lib")" "$base")" 3)
		printf '  %-26s %10s %14s %13s %10s   %s\n' "$what-$f" "$r0" "$r1" \
			"$(ratio_spread "off_${name}_${f}_lib" "off_${name}_plain")" "<= 1.02" \
			"$(verdict "$r1" 1.02)"
		summary "off ratio, $what-$f (spread $(ratio_spread "off_${name}_${f}_lib" \
			"off_${name}_plain"))" "$r1" "<= 1.02" "$(verdict "$r1" 1.02)"
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
	printf '  %-26s %10s %14s %13s %10s   %s\n' "  $what-pg / frame ptrs" "" "$r" \
		"$(ratio_spread "off_${name}_pg_lib" "off_${name}_fp")" "<= 1.02" "$(verdict "$r" 1.02)"
}

# ---- (b) the cost of a call ---------------------------------------------

# The configurations of (b), each against the untraced build of its
# compiler (cost_ref); XRay's basic mode runs at sizes of its own.
COST_CONFIGS="cc_graph cc_func pg_graph pg_func uftrace xray_fdr xray_basic"

cost_ref() {
	case $1 in
	xray_fdr) echo clang ;;
	xray_basic) echo clang_basic ;;
	*) echo plain ;;
	esac
}

# cost_add PROG CONFIG BIN-FUNC SIZE-INDEX ARGS...: add the label of one
# configuration at one size (ARGS: the program's arguments at that size).
cost_add() {
	local prog=$1 cfg=$2 binf=$3 i=$4 label ref
	shift 4
	label=c_${prog}_${cfg}_$i
	ref=c_${prog}_$(cost_ref "$cfg")_$i
	case $cfg in
	plain) add "$label" "$label" "$($binf plain)" "$@" ;;
	clang|clang_basic) add "$label" "$label" "$($binf clang)" "$@" ;;
	cc_graph|cc_func|pg_graph|pg_func)
		local tracer=function_graph
		[ "${cfg#*_}" = func ] && tracer=function
		add "$label" "$ref" "$FNTRACE" record -t $tracer -o "$OUT/$label.dir" \
			-- "$($binf "${cfg%_*}")" "$@" ;;
	uftrace)
		add "$label" "$ref" uftrace record --no-libcall -d "$OUT/$label.dir" \
			"$($binf pg)" "$@" ;;
	xray_fdr|xray_basic)
		local mode=${cfg#xray_}
		add "$label" "$ref" env \
			XRAY_OPTIONS="patch_premain=true xray_mode=xray-$mode xray_logfile_base=$OUT/$label.dir/xray-" \
			XRAY_FDR_OPTIONS="$XRAY_FDR_OPTIONS" XRAY_BASIC_OPTIONS="$XRAY_BASIC_OPTIONS" \
			"$($binf xray)" "$@"
		MKDIR[$label]=1 ;;
	esac
}

# cost_group PROG BIN-FUNC "S1 S2" "B1 B2" ARGS-FUNC: every configuration
# of PROG at both sizes, with the floor, all interleaved.
cost_group() {
	local prog=$1 binf=$2 sizes=($3) basic=($4) argf=$5 cfg i fs labels=()
	for i in 0 1; do
		for cfg in plain clang $COST_CONFIGS; do
			[ "$cfg" = xray_basic ] && continue
			# shellcheck disable=SC2046
			cost_add "$prog" "$cfg" "$binf" "$i" $($argf "${sizes[$i]}")
			labels+=("c_${prog}_${cfg}_$i")
		done
		for cfg in clang_basic xray_basic; do
			# shellcheck disable=SC2046
			cost_add "$prog" "$cfg" "$binf" "$i" $($argf "${basic[$i]}")
			labels+=("c_${prog}_${cfg}_$i")
		done
		# One floor, with micro's group.
		if [ "$prog" = micro ]; then
			read -ra fs <<<"$FLOOR_SIZES"
			add "c_floor_$i" "c_floor_$i" "$OUT/floor" "${fs[$i]}"
			labels+=("c_floor_$i")
		fi
	done
	run_group "$REPS_COST" "${labels[@]}"
}

micro_args() { echo "$1"; }
lua_args() { echo "$WORKLOAD $1"; }

# Calls a configuration's runs recorded at size I, from their trace.
cost_calls() {
	local label=$1 cfg=$2
	[ -z "${DEAD[$label]:-}" ] || return 0
	case $cfg in
	cc_*|pg_*) fntrace_calls "$OUT/$label.dir" ;;
	uftrace) uftrace_calls "$OUT/$label.dir" ;;
	xray_basic) xray_calls "$OUT/$label.dir"/xray-* ;;
	esac
}

# ns per call of PROG's CONFIG, into NS[CONFIG] (from the median runs),
# NSF[CONFIG] (from the fastest) and NSC[CONFIG] (from the median CPU
# times: the program's, the recorder's, every process of the run); the
# calls of the larger run and its trace's bytes per call into CALLS and BPC.
declare -A NS NSF NSC CALLS BPC DCALLS
cost_figures() {
	local prog=$1 cfg c0 c1
	for cfg in $COST_CONFIGS; do
		NS[$cfg]="" NSF[$cfg]="" NSC[$cfg]="" CALLS[$cfg]="" BPC[$cfg]="" DCALLS[$cfg]=""
		[ "$cfg" = xray_fdr ] && continue
		c0=$(cost_calls "c_${prog}_${cfg}_0" "$cfg")
		c1=$(cost_calls "c_${prog}_${cfg}_1" "$cfg")
		[ -n "$c0" ] && [ -n "$c1" ] || continue
		CALLS[$cfg]=$c1 DCALLS[$cfg]=$((c1 - c0))
		BPC[$cfg]=$(div "$(dir_bytes "$OUT/c_${prog}_${cfg}_1.dir")" "$c1")
		NS[$cfg]=$(ns_per_call "c_${prog}_$cfg" "c_${prog}_$(cost_ref "$cfg")" \
			"${DCALLS[$cfg]}")
		NSF[$cfg]=$(ns_per_call "c_${prog}_$cfg" "c_${prog}_$(cost_ref "$cfg")" \
			"${DCALLS[$cfg]}" fastest)
		NSC[$cfg]=$(ns_per_call "c_${prog}_$cfg" "c_${prog}_$(cost_ref "$cfg")" \
			"${DCALLS[$cfg]}" median_cpu)
		note_lost "$prog" "$cfg"
	done
	fdr_figures "$prog" "$2" "$3"
}

# XRay's FDR mode writes no trace (its buffers stay in memory): its calls
# are the basic mode's, the same binary, scaled from the basic sizes to
# its own (a workload's calls grow with its size in a straight line).
fdr_figures() {
	local prog=$1 sizes=($2) basic=($3)
	[ -n "${DCALLS[xray_basic]}" ] || return 0
	DCALLS[xray_fdr]=$(awk -v dc="${DCALLS[xray_basic]}" -v b0="${basic[0]}" \
		-v b1="${basic[1]}" -v s0="${sizes[0]}" -v s1="${sizes[1]}" \
		'BEGIN { printf "%.0f", dc / (b1 - b0) * (s1 - s0) }')
	NS[xray_fdr]=$(ns_per_call "c_${prog}_xray_fdr" "c_${prog}_clang" "${DCALLS[xray_fdr]}")
	NSF[xray_fdr]=$(ns_per_call "c_${prog}_xray_fdr" "c_${prog}_clang" \
		"${DCALLS[xray_fdr]}" fastest)
	NSC[xray_fdr]=$(ns_per_call "c_${prog}_xray_fdr" "c_${prog}_clang" \
		"${DCALLS[xray_fdr]}" median_cpu)
}

# Events fntrace dropped (no free chunk: the recorder fell behind) make
# its runs shorter than they should be: said under the table.
note_lost() {
	local prog=$1 cfg=$2 i lost
	case $cfg in cc_*|pg_*) ;; *) return 0 ;; esac
	for i in 0 1; do
		lost=$("$FNTRACE" info -i "$OUT/c_${prog}_${cfg}_$i.dir" 2>/dev/null |
			awk '$1 == "lost" { print $2 }')
		[ "${lost:-0}" = 0 ] ||
			NOTES+=("$prog: $(cost_name "$cfg") lost $lost events in its last run at the $(
				[ $i = 0 ] && echo smaller || echo larger) size")
	done
}

# ns_per_call LABEL REF DCALLS [STAT]: LABEL's slope less REF's, per call.
ns_per_call() {
	awk -v t="$(slope "$1" "${4:-}")" -v r="$(slope "$2" "${4:-}")" -v c="$3" \
		'BEGIN { if (t != "" && r != "" && c > 0) printf "%.2f", (t - r) * 1000 / c }'
}

# The floor: ns per iteration of bench/floor.c [STAT: fastest, median_cpu].
floor_ns() {
	local fs
	read -ra fs <<<"$FLOOR_SIZES"
	awk -v t="$(slope c_floor "${1:-}")" -v n0="${fs[0]}" -v n1="${fs[1]}" \
		'BEGIN { if (t != "") printf "%.2f", t * 1000 / (n1 - n0) }'
}

cost_name() {
	case $1 in
	cc_graph) echo "fntrace, cc build, function_graph" ;;
	cc_func) echo "fntrace, cc build, function" ;;
	pg_graph) echo "fntrace, -pg build, function_graph" ;;
	pg_func) echo "fntrace, -pg build, function" ;;
	uftrace) echo "uftrace --no-libcall, -pg build" ;;
	xray_fdr) echo "LLVM XRay, FDR mode (memory)" ;;
	xray_basic) echo "LLVM XRay, basic mode" ;;
	esac
}

# The target of a configuration: its share of the floor, and that in ns.
cost_share() {
	case $1 in
	*_graph) echo 1.1 ;;
	*_func) echo 0.6 ;;
	esac
}

cost_limit() {
	local share
	share=$(cost_share "$1")
	[ -n "$share" ] && [ -n "$FLOOR" ] || return 0
	fmt "$(awk -v f="$FLOOR" -v s="$share" 'BEGIN { print f * s }')" 1
}

cost_rows() {
	local prog=$1 cfg ns x nsf xf nsc xc lim res
	for cfg in $COST_CONFIGS; do
		ns=$(fmt "${NS[$cfg]}" 1) nsf=$(fmt "${NSF[$cfg]}" 1) nsc=$(fmt "${NSC[$cfg]}" 1)
		x=$(fmt "$(div "${NS[$cfg]}" "$FLOOR")" 2)
		xf=$(fmt "$(div "${NSF[$cfg]}" "$FLOOR_FAST")" 2)
		xc=$(fmt "$(div "${NSC[$cfg]}" "$FLOOR_CPU")" 2)
		lim=$(cost_limit "$cfg") res=info
		[ -n "$(cost_share "$cfg")" ] && res=$(verdict "$ns" "$lim")
		printf '  %-36s %7s %6s %7s %6s %7s %6s %7s %11s %8s   %s\n' "$(cost_name "$cfg")" \
			"$ns" "${x}x" "$nsf" "${xf}x" "$nsc" "${xc}x" "$(fmt "${BPC[$cfg]}" 1)" \
			"${CALLS[$cfg]:--}" "${lim:+<= $lim}" "${res/info/}"
		summary "$prog: $(cost_name "$cfg"), ns/call" \
			"$ns (${x}x floor; fastest $nsf, ${xf}x; CPU $nsc, ${xc}x)" \
			"${lim:+<= $lim ($(cost_share "$cfg")x floor)}" "$res"
	done
	for cfg in $COST_CONFIGS plain clang clang_basic; do
		note_dead "c_${prog}_${cfg}_0" "c_${prog}_${cfg}_1"
	done
	if [ -n "${CALLS[pg_graph]}" ] && [ -n "${CALLS[uftrace]}" ] &&
		[ "${CALLS[pg_graph]}" != "${CALLS[uftrace]}" ]; then
		NOTES+=("$prog: fntrace recorded ${CALLS[pg_graph]} calls, uftrace ${CALLS[uftrace]}")
	fi
}

cost_table() {
	local prog=$1 sizes=$2 basic=$3
	cost_figures "$prog" "$sizes" "$basic"
	echo "  $prog: sizes $sizes (XRay basic mode: $basic); $REPS_COST runs each;"
	echo "  XRay FDR's calls: basic mode's, scaled to its sizes"
	cost_rows "$prog"
	# The larger runs' traces are counted; they go before the next group.
	rm -rf "$OUT"/c_"$prog"_*.dir
}

# ---- main ---------------------------------------------------------------

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# want PART: PART is not in BENCH_SKIP.
want() { [[ " ${BENCH_SKIP:-} " != *" $1 "* ]]; }

# The other scripts, in turn; one that fails marks the run broken.
others() {
	local part
	for part in startup args recordmcount livepatch snapshot busy_ctl trigger_storm flight_cost \
		flight_rss reach export kevents; do
		want $part || continue
		BUILD=$BUILD "$top/bench/$part.sh" || broken=1
	done
}

print_summary() {
	echo
	echo "summary (BENCH_QUICK=${BENCH_QUICK:-0}; load average at the start $LOAD0," \
		"at the end $(loadavg); $(nproc) CPUs)"
	# More runnable threads than CPUs: the figures hold others' work too.
	awk -v a="$LOAD0" -v b="$(loadavg)" -v n="$(nproc)" 'BEGIN {
		if (a + 0 > n || b + 0 > n)
			print "  the load exceeded the CPUs: the figures are noisy, see the spreads" }' 
	# Two passes over the rows: the widest of each column, then the table.
	awk -F'\t' 'BEGIN { w[1] = 6; w[2] = 5; w[3] = 6 }
		NR == FNR { for (i = 1; i <= 3; i++) if (length($i) > w[i]) w[i] = length($i)
			    next }
		FNR == 1 { f = "  %-" w[1] "s  %-" w[2] "s  %-" w[3] "s  %s\n"
			   printf f, "figure", "value", "target", "result" }
		{ printf f, $1, $2, $3, $4 }' "$BENCH_SUMMARY" "$BENCH_SUMMARY"
}

off_part() {
	log "(a) tracing off: micro, $REPS_OFF runs each"
	off_group micro micro_bin "$REPS_OFF" "$MICRO_OFF"
	log "(a) tracing off: lua, $REPS_OFF runs each"
	off_group lua lua_bin "$REPS_OFF" "$WORKLOAD" "$LUA_OFF"
	echo
	echo "(a) tracing off: run time / run time of the plain -O2 build;"
	echo "    'alone' runs the flavor without fntrace (glibc's mcount for pg);"
	echo "    spread: the lowest and highest ratio of one round's two runs"
	echo "    (micro $MICRO_OFF iterations, $REPS_OFF runs; lua workload.lua $LUA_OFF, $REPS_OFF runs)"
	printf '  %-26s %10s %14s %13s %10s   %s\n' build alone "fntrace, off" spread target result
	off_rows micro micro
	off_rows lua lua
}

cost_part() {
	log "(b) cost of a call: micro, $REPS_COST runs each"
	cost_group micro micro_bin "$MICRO_SIZES" "$MICRO_BASIC" micro_args
	FLOOR=$(floor_ns) FLOOR_FAST=$(floor_ns fastest) FLOOR_CPU=$(floor_ns median_cpu)
	echo
	echo "(b) ns per traced call (entry and exit), by the slope between two sizes,"
	echo "    less the untraced program's slope (gcc or clang -O2 build): from the"
	echo "    median runs (judged), from the fastest (the least disturbed), and"
	echo "    from the median CPU time of every process of the runs (recorder too);"
	echo "    floor: two rdtsc and a store (bench/floor.c): $(fmt "$FLOOR" 1) ns," \
		"fastest $(fmt "$FLOOR_FAST" 1) ns, CPU $(fmt "$FLOOR_CPU" 1) ns"
	printf '  %-36s %7s %6s %7s %6s %7s %6s %7s %11s %8s   %s\n' "" ns/call "floor" \
		fastest floor CPU floor bytes/c "calls(large)" target result
	summary "floor: two rdtsc and a store, ns" "$(fmt "$FLOOR" 1) (fastest \
$(fmt "$FLOOR_FAST" 1); CPU $(fmt "$FLOOR_CPU" 1))" "" info
	note_dead c_floor_0 c_floor_1
	cost_table micro "$MICRO_SIZES" "$MICRO_BASIC"
	log "(b) cost of a call: lua, $REPS_COST runs each"
	cost_group lua lua_bin "$LUA_SIZES" "$LUA_BASIC" lua_args
	cost_table lua "$LUA_SIZES" "$LUA_BASIC"
}


main() {
	NOTES=()
	LOAD0=$(loadavg)
	# The trace directories are large (uftrace: 32 bytes per call).
	trap 'rm -rf "$OUT"/*.dir' EXIT
	# The other scripts build what they run themselves: micro's flavors and
	# Lua's (fetched from Debian the first time) only for (a) and (b).
	if want off || want cost; then
		command -v uftrace >/dev/null || { log "uftrace is not installed"; exit 1; }
		command -v $XRAY >/dev/null || { log "$XRAY is not installed"; exit 1; }
		build_all || exit 1
	fi
	mkdir -p "$OUT"
	rm -f "$OUT"/*.expected
	export BENCH_SUMMARY=$OUT/summary.txt
	: >"$BENCH_SUMMARY"
	echo "fntrace benchmarks (medians of interleaved runs; BENCH_QUICK=${BENCH_QUICK:-0})"
	want off && off_part
	want cost && cost_part
	if [ ${#NOTES[@]} -gt 0 ]; then
		echo
		echo "notes:"
		printf '  %s\n' "${NOTES[@]}"
	fi
	others
	print_summary
	exit $broken
}

main "$@"
