#!/bin/bash
# What a traced call costs a flight recording (issue 32), run by
# bench/run.sh (BUILD set), or alone:
#
#   bench/micro.c at two sizes, timed by the slope method of bench/run.sh
#   (start-up, set-up and the write-out at exit cancel), less the slope
#   of its plain -O2 build, under
#     - fntrace record, function_graph: every call to disk, the recorder
#       draining beside the program (for scale);
#     - fntrace record --overwrite, function_graph and function: the
#       ring in memory (the default 16 MB), nothing written until the
#       end's snapshot;
#     - the same, function_graph, with -b 1024: funtrace's ring size;
#     - funtrace (github.com/yosefk/funtrace), which keeps each thread's
#       last events in memory (1 MB a thread), as a flight recorder does.
#   fntrace runs the `fntrace cc` build (with gcc on x86_64, return
#   sites: the same hooks funtrace's -minstrument-return=call gives it).
#   funtrace is not ours, nor a Debian package, and this repository
#   neither holds it nor builds it: the bench runs a micro already built
#   with funtrace, named by FUNTRACE_MICRO (bench/micro.c, compiled and
#   linked by whoever runs the bench, their own way), and without one
#   says so in a skipped row.
# Calls: CALLS_PER_ITER an iteration, as bench/args.sh (bench/run.sh
# counts them from full traces; a ring keeps only its window).  Judged on
# the slope of the median CPU time (every process of a run): neither
# funtrace nor an overwriting fntrace has another process working beside
# the program, so its CPU time is the program's work, where its wall
# time also holds every wait for a CPU that the machine's other work
# makes (on this busy 2-CPU machine, medians of seven runs moved by half
# from one bench run to the next, funtrace's from 23 to 39 ns, and the
# verdict with them).  The wall-time slopes of the median and of the
# fastest runs beside.  Target: either overwrite tracer at or under
# funtrace's ns per call.  A benchmark: exits non-zero only when
# something could not run.
set -eu
export LC_ALL=C

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
OUT=$BUILD/bench
FNTRACE=${FNTRACE:-$BUILD/fntrace}
FUNTRACE_MICRO=${FUNTRACE_MICRO:-}
# Both sizes past the first turn of the default ring (16 MB, 8 bytes a
# call: 2.1 million calls, 175 iterations): the first write to each of
# its pages is a fault (tens of us here), paid once a recording, which
# the slope would otherwise count as a per-call cost.
REPS=7 SIZES="250 1250"
[ "${BENCH_QUICK:-0}" != 0 ] && REPS=3 SIZES="250 750"
RUN_TIMEOUT=120
CALLS_PER_ITER=11972
FUNTRACE_RING_KB=1024		# funtrace's default: 2^20 bytes a thread
# funtrace's scheduler events need the kernel's tracefs: left out.
FUNTRACE_ENV="FUNTRACE_FTRACE_EVENTS_IN_BUF=0"
CONFIGS="disk graph func graph1m funtrace"

. "$top/bench/lib.sh"

trap 'rm -rf "$OUT"/fl_*.dir "$OUT"/fl_*.dir.old "$OUT"/fl_*.expected' EXIT

# micro as funtrace built it, if FUNTRACE_MICRO names it.  Sets SKIPPED
# to why it cannot be run, and fails.
find_funtrace() {
	if [ -z "$FUNTRACE_MICRO" ]; then
		SKIPPED="FUNTRACE_MICRO is not set (bench/micro.c built with funtrace)"
		return 1
	fi
	if [ ! -x "$FUNTRACE_MICRO" ]; then
		SKIPPED="FUNTRACE_MICRO=$FUNTRACE_MICRO is not an executable"
		return 1
	fi
}

# The command of CONFIG at SIZE, for label L.
add_config() {
	local cfg=$1 size=$2 l=$3 ref=$4 cc=$OUT/micro-cc
	case $cfg in
	disk) add "$l" "$ref" "$FNTRACE" record -o "$OUT/$l.dir" -- "$cc" "$size" ;;
	graph) add "$l" "$ref" "$FNTRACE" record --overwrite -o "$OUT/$l.dir" -- "$cc" "$size" ;;
	func) add "$l" "$ref" "$FNTRACE" record -t function --overwrite -o "$OUT/$l.dir" \
		-- "$cc" "$size" ;;
	graph1m) add "$l" "$ref" "$FNTRACE" record --overwrite -b "$FUNTRACE_RING_KB" \
		-o "$OUT/$l.dir" -- "$cc" "$size" ;;
	funtrace)
		# In a directory of its own: a SIGTRAP would write funtrace.raw.
		add "$l" "$ref" env -C "$OUT/$l.dir" "$FUNTRACE_ENV" "$FUNTRACE_MICRO" "$size"
		MKDIR[$l]=1 ;;
	esac
}

add_all() {
	local sizes i cfg labels=()
	read -ra sizes <<<"$SIZES"
	for i in 0 1; do
		add "fl_plain_$i" "fl_plain_$i" "$OUT/micro-plain" "${sizes[$i]}"
		labels+=("fl_plain_$i")
		for cfg in $CONFIGS; do
			[ "$cfg" = funtrace ] && [ -n "$SKIPPED" ] && continue
			add_config "$cfg" "${sizes[$i]}" "fl_${cfg}_$i" "fl_plain_$i"
			labels+=("fl_${cfg}_$i")
		done
	done
	LABELS=("${labels[@]}")
}

# per CONFIG STAT: its slope less the plain build's, in ns per call.
per() {
	local sizes
	read -ra sizes <<<"$SIZES"
	awk -v t="$(slope "fl_$1" "$2")" -v r="$(slope fl_plain "$2")" -v c=$CALLS_PER_ITER \
		-v n=$((sizes[1] - sizes[0])) \
		'BEGIN { if (t != "" && r != "") printf "%.1f", (t - r) * 1000 / (c * n) }'
}

name_of() {
	case $1 in
	disk) echo "fntrace record, function_graph (to disk)" ;;
	graph) echo "fntrace record --overwrite, function_graph" ;;
	func) echo "fntrace record --overwrite, function" ;;
	graph1m) echo "fntrace record --overwrite -b $FUNTRACE_RING_KB, function_graph" ;;
	funtrace) echo "funtrace ($FUNTRACE_RING_KB KB a thread, in memory)" ;;
	esac
}

# row CONFIG FUNTRACE-NS: the overwrite rows judged against funtrace's.
row() {
	local cfg=$1 limit="" ns fast cpu res=info
	ns=$(per "$cfg" median) fast=$(per "$cfg" fastest) cpu=$(fmt "$(per "$cfg" median_cpu)" 1)
	case $cfg in graph|func) limit=${2:--} res=$(verdict "$cpu" "$limit") ;; esac
	printf '  %-50s %7s %7s %8s %10s   %s\n' "$(name_of "$cfg")" "$cpu" "$(fmt "$ns" 1)" \
		"$(fmt "$fast" 1)" "${limit:+<= $limit}" "${res/info/}"
	summary "flight: $(name_of "$cfg"), CPU ns/call" \
		"$cpu (wall: median $(fmt "$ns" 1), fastest $(fmt "$fast" 1))" \
		"${limit:+<= $limit (funtrace)}" "$res"
}

# Events the recorder could not take (it fell behind): those runs did
# less work than the others.
note_lost() {
	local i lost
	for i in 0 1; do
		lost=$("$FNTRACE" info -i "$OUT/fl_disk_$i.dir" 2>/dev/null |
			awk '$1 == "lost" { print $2 }')
		[ "${lost:-0}" = 0 ] ||
			echo "  note: fntrace record lost $lost events in its last run at size $i" \
				"(the recorder fell behind): its figure is too low"
	done
}

report() {
	local cfg ft=""
	echo
	echo "flight recorder, ns per traced call: micro (fntrace cc build), sizes $SIZES," \
		"$REPS runs each, less the plain build's slope; judged: CPU time, beside"
	echo "  the wall time of the median and of the fastest runs"
	printf '  %-50s %7s %7s %8s %10s   %s\n' "" "CPU ns" "wall" fastest target result
	if [ -z "$SKIPPED" ]; then
		ft=$(fmt "$(per funtrace median_cpu)" 1)
		[ "$ft" = - ] && ft=""
	fi
	for cfg in $CONFIGS; do
		if [ "$cfg" = funtrace ] && [ -n "$SKIPPED" ]; then
			printf '  %-50s %s\n' "$(name_of funtrace)" "skipped: $SKIPPED"
			summary "flight: funtrace, ns/call" "-" "" "skipped: $SKIPPED"
			continue
		fi
		row "$cfg" "$ft"
	done
	note_lost
	for label in "${LABELS[@]}"; do
		[ -z "${DEAD[$label]:-}" ] || { log "$label: ${DEAD[$label]}"; broken=1; }
	done
}

main() {
	broken=0 SKIPPED=""
	if ! build_micro plain || ! build_micro cc; then
		log "cannot build micro"
		exit 1
	fi
	find_funtrace || log "flight: funtrace skipped: $SKIPPED"
	rm -f "$OUT"/fl_*.expected
	add_all
	log "flight recorder cost: $REPS runs of ${#LABELS[@]} commands"
	run_group "$REPS" "${LABELS[@]}"
	report
	exit $broken
}

main "$@"
