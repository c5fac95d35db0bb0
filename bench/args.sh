#!/bin/bash
# What recording arguments costs (called by bench/run.sh, or alone):
# bench/micro.c (its -pg build) under `fntrace record` (function_graph) at
# two sizes, by the slope method of bench/run.sh, four ways, interleaved:
#   - no -A (the reference);
#   - -A on main only, which the timed loop never calls: what every other
#     function pays once some spec exists (it must stay unchanged);
#   - -A '*@arg1,arg2,arg3': three integer arguments taken at every call
#     (micro's functions take one to three: the cost is the same);
#   - the same with -R '*@retval'.
# Printed: ns per call for the first two, and what capturing adds per
# call for the last two (every call captures: a single function's calls
# are too few among micro's to stand out of the noise).  Medians of REPS
# runs, and from the median CPU time.  A benchmark: exits non-zero only
# when something could not run.
set -eu
export LC_ALL=C

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
OUT=$BUILD/bench
FNTRACE=${FNTRACE:-$BUILD/fntrace}
REPS=7 SIZES="100 400"
[ "${BENCH_QUICK:-0}" != 0 ] && REPS=3 SIZES="25 100"
RUN_TIMEOUT=120
CALLS_PER_ITER=11972
micro=$OUT/micro-pg
CONFIGS="none untouched args3 args3_ret"

. "$top/bench/lib.sh"

trap 'rm -rf "$OUT"/a_*.dir "$OUT"/a_*.expected' EXIT


spec_of() {
	case $1 in
	none) ;;
	untouched) echo "-A main@arg1" ;;
	args3) echo "-A *@arg1,arg2,arg3" ;;
	args3_ret) echo "-A *@arg1,arg2,arg3 -R *@retval" ;;
	esac
}

add_all() {
	local sizes=($SIZES) i cfg labels=()
	for i in 0 1; do
		add "a_plain_$i" "a_plain_$i" "$micro" "${sizes[$i]}"
		labels+=("a_plain_$i")
		for cfg in $CONFIGS; do
			set -f	# the specs' '*' is fntrace's, not the shell's
			# shellcheck disable=SC2046
			add "a_${cfg}_$i" "a_plain_$i" "$FNTRACE" record -o "$OUT/a_${cfg}_$i.dir" \
				$(spec_of "$cfg") -- "$micro" "${sizes[$i]}"
			set +f
			labels+=("a_${cfg}_$i")
		done
	done
	LABELS=("${labels[@]}")
}

# per LABEL REF CALLS-PER-ITER STAT: LABEL's slope less REF's, in ns per
# call of the iterations between the two sizes.
per() {
	local sizes=($SIZES)
	awk -v t="$(slope "$1" "$4")" -v r="$(slope "$2" "$4")" -v c="$3" \
		-v n=$((sizes[1] - sizes[0])) \
		'BEGIN { if (t != "" && r != "") printf "%.2f", (t - r) * 1000 / (c * n) }'
}

row() {
	local what=$1 wall=$2 cpu=$3
	printf '  %-58s %8s %8s\n' "$what" "$(fmt "$wall" 1)" "$(fmt "$cpu" 1)"
	summary "arguments: $what" "$(fmt "$wall" 1) (CPU $(fmt "$cpu" 1))" "" info
}

report() {
	local cfg
	for cfg in $CONFIGS plain; do
		[ -z "${DEAD[a_${cfg}_1]:-}" ] || log "a_$cfg: ${DEAD[a_${cfg}_1]}"
	done
	echo
	echo "recording arguments: micro-pg, function_graph, sizes $SIZES, $REPS runs each"
	printf '  %-58s %8s %8s\n' "" "ns" "CPU ns"
	row "every call, no -A" "$(per a_none a_plain $CALLS_PER_ITER median)" \
		"$(per a_none a_plain $CALLS_PER_ITER median_cpu)"
	row "every call, -A on a function not called (untouched ones)" \
		"$(per a_untouched a_plain $CALLS_PER_ITER median)" \
		"$(per a_untouched a_plain $CALLS_PER_ITER median_cpu)"
	row "added per call by -A '*@arg1,arg2,arg3'" \
		"$(per a_args3 a_none $CALLS_PER_ITER median)" \
		"$(per a_args3 a_none $CALLS_PER_ITER median_cpu)"
	row "added per call by that and -R '*@retval'" \
		"$(per a_args3_ret a_none $CALLS_PER_ITER median)" \
		"$(per a_args3_ret a_none $CALLS_PER_ITER median_cpu)"
}

main() {
	build_micro pg || { log "cannot build micro-pg"; exit 1; }
	rm -f "$OUT"/a_*.expected
	add_all
	log "recording arguments: $REPS runs of ${#LABELS[@]} commands"
	run_group "$REPS" "${LABELS[@]}"
	report
	for label in "${LABELS[@]}"; do
		[ -z "${DEAD[$label]:-}" ] || exit 1
	done
}

main "$@"
