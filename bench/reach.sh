#!/bin/bash
# Reach benchmarks (calls into libraries, code never built for fntrace),
# run by bench/run.sh (BUILD set), or alone:
#
# 1. Detours: a traced call through a moved prologue (src/core/detours.c)
#    against one through a call site fntrace cc made.  bench/micro.c
#    built with plain -O2 (no call sites: every function is reached by a
#    detour) and by fntrace cc, both recorded by function_graph with
#    -F '*'.  ns per call by the slope method (bench/run.sh): two sizes,
#    the untraced plain build's slope taken off.  Target: the detour's
#    cost <= 1.10 x the call site's.
# 2. Library calls (src/core/libcalls.c): bench/libcalls.c, a loop of
#    strlen, memchr and strtol through the GOT.  Its fntrace cc build
#    recorded by fntrace with -F for the three, its -pg build by uftrace
#    (which traces library calls through the PLT) with the same filter.
#    Each function's calls as counted by both: equal (the target); and
#    the ns per traced library call of each, side by side.
#
# 3. Detours on a real program: Debian's Lua 5.4 built with plain -O2
#    (scripts/build-lua.sh): the share of its functions a detour can
#    take (target >= 95 %), and, under -F '*' on tests/real/workload.lua,
#    every function's hits equal to those of its fntrace cc build.
#
# REACH_PARTS picks some of them ("detour libcall lua", the default).
# Every figure is from the median of REACH_REPS runs (7; BENCH_QUICK: 3),
# the commands of a group interleaved.  The detours' plans go to a cache
# of the benchmark's own (FNTRACE_CACHE for each fntrace run).
set -eu
export LC_ALL=C

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
OUT=$BUILD/bench
FNTRACE=${FNTRACE:-$BUILD/fntrace}
RUN_TIMEOUT=300
REPS=${REACH_REPS:-7}
MICRO_SIZES="100 400" LIBC_SIZES="1000000 4000000"
if [ "${BENCH_QUICK:-0}" != 0 ]; then
	REPS=3 MICRO_SIZES="10 40" LIBC_SIZES="200000 800000"
fi
PLANS=$OUT/reach-plans
WORKLOAD=$top/tests/real/workload.lua

. "$top/bench/lib.sh"    # add, run_group, median, slope, summary, build_micro

# ns_per_call LABEL REFLABEL CALLS [STAT]: the slope of LABEL_0..1 less
# that of REFLABEL_0..1, per call, from the median runs (or STAT's:
# fastest, whose runs this VM's neighbours disturb least).
ns_per_call() {
	awk -v t="$(slope "$1" "${4:-}")" -v r="$(slope "$2" "${4:-}")" -v c="$3" \
		'BEGIN { if (t != "" && r != "" && c > 0) printf "%.2f", (t - r) * 1000 / c }'
}

fntrace_calls() {
	"$FNTRACE" info -i "$1" 2>/dev/null | awk '$1 == "calls" { print $2 }'
}

# "NAME CALLS" per function, sorted, from a recording of each tracer.
fntrace_counts() {
	"$FNTRACE" report -i "$1" --stat --csv | awk -F, 'NR > 1 { print $1, $2 }' | sort
}

# (uftrace's own events, linux:schedule and the like, left out.)
uftrace_counts() {
	uftrace report -d "$1" -f call --no-pager |
		awk '$1 ~ /^[0-9]+$/ && $2 !~ /:/ { print $2, $1 }' | sort
}

# add_sizes LABEL REF SIZES CMD...: LABEL_0 and LABEL_1, CMD with each size
# appended, each checked against REF's output at that size.
add_sizes() {
	local label=$1 ref=$2 sizes=($3) i
	shift 3
	for i in 0 1; do
		[ "$label" != "$ref" ] || rm -f "$OUT/${label}_$i.expected"
		add "${label}_$i" "${ref}_$i" "$@" "${sizes[$i]}"
		CMD[${label}_$i]=${CMD[${label}_$i]//@DIR@/$OUT/${label}_$i.dir}
	done
}

detour_part() {
	local plain cc ns_d ns_s ratio fast c_d c_s
	build_micro plain && build_micro cc || { log "reach: cannot build micro"; return 1; }
	plain=$OUT/micro-plain cc=$OUT/micro-cc
	rm -rf "$PLANS"
	add_sizes r_plain r_plain "$MICRO_SIZES" "$plain"
	add_sizes r_detour r_plain "$MICRO_SIZES" env FNTRACE_CACHE="$PLANS" \
		"$FNTRACE" record -F '*' -o @DIR@ -- "$plain"
	add_sizes r_site r_plain "$MICRO_SIZES" env FNTRACE_CACHE="$PLANS" \
		"$FNTRACE" record -F '*' -o @DIR@ -- "$cc"
	log "reach: detours against call sites, micro $MICRO_SIZES, $REPS runs each"
	run_group "$REPS" r_plain_0 r_plain_1 r_detour_0 r_detour_1 r_site_0 r_site_1
	c_d=$(($(fntrace_calls "$OUT/r_detour_1.dir") - $(fntrace_calls "$OUT/r_detour_0.dir")))
	c_s=$(($(fntrace_calls "$OUT/r_site_1.dir") - $(fntrace_calls "$OUT/r_site_0.dir")))
	ns_d=$(ns_per_call r_detour r_plain "$c_d")
	ns_s=$(ns_per_call r_site r_plain "$c_s")
	ratio=$(fmt "$(div "$ns_d" "$ns_s")" 2)
	fast=$(fmt "$(div "$(ns_per_call r_detour r_plain "$c_d" fastest)" \
		"$(ns_per_call r_site r_plain "$c_s" fastest)")" 2)
	echo
	echo "reach (1): a traced call (function_graph, -F '*'), bench/micro.c"
	printf '  %-34s %10s %10s %12s\n' "" "ns/call" "fastest" "calls(diff)"
	printf '  %-34s %10s %10s %12s\n' "detour (plain -O2, no call sites)" "$(fmt "$ns_d" 1)" \
		"$(fmt "$(ns_per_call r_detour r_plain "$c_d" fastest)" 1)" "$c_d"
	printf '  %-34s %10s %10s %12s\n' "call site (fntrace cc)" "$(fmt "$ns_s" 1)" \
		"$(fmt "$(ns_per_call r_site r_plain "$c_s" fastest)" 1)" "$c_s"
	printf '  detour / call site: %s, of the fastest runs %s (target <= 1.10: %s)\n' \
		"$ratio" "$fast" "$(verdict "$ratio" 1.10)"
	[ "$c_d" = "$c_s" ] || echo "  the two recorded different numbers of calls: $c_d, $c_s"
	summary "detour / call site, ns per traced call ($(fmt "$ns_d" 1) / $(fmt "$ns_s" 1); fastest runs $fast)" \
		"$ratio" "<= 1.10" "$(verdict "$ratio" 1.10)"
	for label in r_plain_0 r_detour_0 r_site_0; do
		[ -z "${DEAD[$label]:-}" ] || echo "  $label: ${DEAD[$label]}"
	done
}

# bench/libcalls.c as $OUT/libcalls-FLAVOR: cc (fntrace cc), pg (for
# uftrace), plain (the untraced reference).
build_libcalls() {
	local cc=gcc flags="-O2 -fno-builtin" bin=$OUT/libcalls-$1
	case $1 in
	cc) cc="$FNTRACE cc" ;;
	pg) flags="$flags -pg" ;;
	esac
	[ "$bin" -nt "$top/bench/libcalls.c" ] && { [ "$1" != cc ] || [ "$bin" -nt "$FNTRACE" ]; } &&
		return 0
	$cc $flags -o "$bin" "$top/bench/libcalls.c"
}

# The calls the larger run of LABEL recorded beyond the smaller one's.
count_diff() {
	awk 'FNR == 1 { f++ } { s[f] += $2 } END { print s[2] - s[1] }' \
		"$OUT/$1_0.counts" "$OUT/$1_1.counts"
}

libcall_part() {
	local f i ns_f ns_u same
	local filter=(-F strlen -F memchr -F strtol)
	for f in plain cc pg; do
		build_libcalls $f || { log "reach: cannot build libcalls-$f"; return 1; }
	done
	add_sizes l_plain l_plain "$LIBC_SIZES" "$OUT/libcalls-plain"
	add_sizes l_fntrace l_plain "$LIBC_SIZES" "$FNTRACE" record "${filter[@]}" -o @DIR@ -- \
		"$OUT/libcalls-cc"
	add_sizes l_uftrace l_plain "$LIBC_SIZES" uftrace record "${filter[@]}" -d @DIR@ \
		"$OUT/libcalls-pg"
	log "reach: library calls, fntrace against uftrace, $LIBC_SIZES, $REPS runs each"
	run_group "$REPS" l_plain_0 l_plain_1 l_fntrace_0 l_fntrace_1 l_uftrace_0 l_uftrace_1
	for i in 0 1; do
		fntrace_counts "$OUT/l_fntrace_$i.dir" >"$OUT/l_fntrace_$i.counts"
		uftrace_counts "$OUT/l_uftrace_$i.dir" >"$OUT/l_uftrace_$i.counts"
	done
	same=MISS
	[ -s "$OUT/l_fntrace_1.counts" ] && cmp -s "$OUT/l_fntrace_1.counts" "$OUT/l_uftrace_1.counts" &&
		same=PASS
	ns_f=$(ns_per_call l_fntrace l_plain "$(count_diff l_fntrace)")
	ns_u=$(ns_per_call l_uftrace l_plain "$(count_diff l_uftrace)")
	echo
	echo "reach (2): library calls (strlen, memchr, strtol), bench/libcalls.c"
	echo "  calls counted, fntrace | uftrace:"
	join -a 1 -a 2 -e - -o 0,1.2,2.2 "$OUT/l_fntrace_1.counts" "$OUT/l_uftrace_1.counts" |
		awk '{ printf "    %-10s %12s %12s\n", $1, $2, $3 }'
	echo "  the same counts: $same"
	printf '  ns per traced library call: fntrace %s, uftrace %s\n' \
		"$(fmt "$ns_f" 1)" "$(fmt "$ns_u" 1)"
	summary "library calls counted as uftrace counts them" "$same" PASS "$same"
	summary "ns per traced library call, fntrace (uftrace $(fmt "$ns_u" 1))" \
		"$(fmt "$ns_f" 1)" "measured" "-"
	for label in l_plain_0 l_fntrace_0 l_uftrace_0; do
		[ -z "${DEAD[$label]:-}" ] || echo "  $label: ${DEAD[$label]}"
	done
}

lua_bin() { echo "${FNTRACE_CACHE:-$top/cache}/build/lua-$1/lua"; }

# "NAME HITS" of every function two csv reports share, and of those whose
# hits differ, into $OUT/r_lua.diff.
lua_part() {
	local f share n_both n_diff
	for f in plain cc; do
		"$top/scripts/build-lua.sh" $f >/dev/null || { log "reach: cannot build lua-$f"; return 1; }
	done
	share=$("$FNTRACE" list --detours "$(lua_bin plain)" |
		sed -n 's/.* can be patched (\([0-9.]*\)%).*/\1/p')
	FNTRACE_CACHE=$PLANS "$FNTRACE" record -F '*' -o "$OUT/r_lua_detour.dir" -- \
		"$(lua_bin plain)" "$WORKLOAD" 1 >"$OUT/r_lua_detour.out" 2>&1 || return 1
	FNTRACE_CACHE=$PLANS "$FNTRACE" record -F '*' -o "$OUT/r_lua_site.dir" -- \
		"$(lua_bin cc)" "$WORKLOAD" 1 >"$OUT/r_lua_site.out" 2>&1 || return 1
	fntrace_counts "$OUT/r_lua_detour.dir" >"$OUT/r_lua_detour.counts"
	fntrace_counts "$OUT/r_lua_site.dir" >"$OUT/r_lua_site.counts"
	join "$OUT/r_lua_detour.counts" "$OUT/r_lua_site.counts" >"$OUT/r_lua.both"
	awk '$2 != $3' "$OUT/r_lua.both" >"$OUT/r_lua.diff"
	n_both=$(wc -l <"$OUT/r_lua.both") n_diff=$(wc -l <"$OUT/r_lua.diff")
	echo
	echo "reach (3): Lua 5.4 built with plain -O2, tests/real/workload.lua 1, -F '*'"
	printf '  functions a detour can take: %s %% (target >= 95: %s)\n' "$share" \
		"$(verdict 95 "$share")"
	printf '  functions traced by both builds: %s, with other hits than the call sites give: %s\n' \
		"$n_both" "$n_diff"
	head -n 5 "$OUT/r_lua.diff" | awk '{ printf "    %s: %s by detour, %s by call site\n", $1, $2, $3 }'
	summary "Lua -O2: share of functions a detour can take" "$share %" ">= 95 %" \
		"$(verdict 95 "$share")"
	summary "Lua -O2: functions whose hits differ from the call sites' (of $n_both)" \
		"$n_diff" "0" "$(verdict "$n_diff" 0)"
}

mkdir -p "$OUT"
broken=0
for part in ${REACH_PARTS:-detour libcall lua}; do
	"${part}_part" || broken=1
done
exit $broken
