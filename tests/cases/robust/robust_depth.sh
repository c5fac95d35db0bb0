# Robustness: recursion deeper than the shadow stack (3000
# frames, it holds 1024): no crash, the right result, a nested graph, and
# the report says how many calls were too deep to graph.  Calls the graph
# cannot follow (too deep, or after swapcontext) are counted, and the
# count and the calls traced add up to the calls the program made, in the
# recorder's line, info and the report.  Tail calls compiled into jumps:
# the graph stays nested.

. "$top/tests/robust_lib.sh"

r_build robust_deep deep
r_record deep ./deep 3000
t_eq "deep recursion: exit status" 0 "$(cat deep.rc)"
t_eq "deep recursion: output" "depth 3000 after 3000" "$(cat deep.out)"
t_eq "deep recursion: the graph nests" "" "$(r_all_nest deep.txt)"
t_graph_calls deep.txt >deep.calls
t_ok "deep recursion: the call after it traced" grep -q '^  after();$' deep.calls
n=$(sed -n 's/^# shadow stack overruns: \([0-9]*\).*/\1/p' deep.txt)
t_ok "deep recursion: the calls not graphed are counted (overruns > 0)" test "${n:-0}" -gt 0

# The calls a program made (it counts them: tests/progs/robust_context_count.c)
# against those its recording traced and those it counted as not graphed.
r_build robust_context_count counted
# missed_adds_up NAME WHY ARGS...: record ./counted ARGS as NAME; the calls
# traced and those not graphed for WHY add up to the program's count.
missed_adds_up() {
	local name=$1 why=$2 truth line said missed info_calls info_missed report_missed; shift 2
	r_record "$name" ./counted "$@"
	t_eq "$name: exit status" 0 "$(cat "$name.rc")"
	truth=$(sed -n 's/^calls \([0-9]*\)$/\1/p' "$name.out")
	line=$(grep '^fntrace: recorded' "$name.err")
	said=$(echo "$line" | sed -n 's/^fntrace: recorded \([0-9]*\) calls.*/\1/p')
	missed=$(echo "$line" | sed -n "s/.* lost, \([0-9]*\) calls not graphed ($why) -> $name.data\$/\1/p")
	t_ok "$name: the recorder's line says calls were not graphed ($line)" test -n "$missed"
	t_eq "$name: traced + not graphed = the calls made" "${truth:-?}" "$((said + ${missed:-0}))"
	"$FNTRACE" info -i "$name.data" >"$name.info"
	info_calls=$(sed -n 's/^calls  *\([0-9]*\) .*/\1/p' "$name.info")
	info_missed=$(sed -n "s/^not graphed  *\([0-9]*\) calls ($why)\$/\1/p" "$name.info")
	t_eq "$name: info's calls and not graphed are the line's" "$said $missed" \
		"$info_calls $info_missed"
	report_missed=$(sed -n "s/^# $why: \([0-9]*\) calls .*/\1/p" "$name.txt")
	t_eq "$name: the report's count is the line's" "$missed" "$report_missed"
}
# A million deep (on a thread whose stack has room, whatever ulimit -s):
# the program unharmed, every call traced or counted.
missed_adds_up deep200k "shadow stack overruns" deep 200000
missed_adds_up deep1m "shadow stack overruns" deep 1000000
# The graph holds what the shadow stack holds, however deep the recursion.
t_eq "deep1m: as many calls graphed as at 200 000 deep" \
	"$(sed -n 's/^fntrace: recorded \([0-9]*\) calls.*/\1/p' deep200k.err)" \
	"$(sed -n 's/^fntrace: recorded \([0-9]*\) calls.*/\1/p' deep1m.err)"
# The deepest call exits: no frame returns to say the count, the exit does.
missed_adds_up deep_exit "shadow stack overruns" deep-exit 200000
# After swapcontext the thread's graph is suspended: 900 calls in the
# coroutine and 900 after it, and 9000 of each (past the 4096 calls
# after which the runtime says its count again).
missed_adds_up context900 "graph suspended after swapcontext" context 900
missed_adds_up context9000 "graph suspended after swapcontext" context 9000
# -D limits what is shown; what is counted stays the calls not graphed.
"$FNTRACE" report -i deep200k.data -D 3 >deep200k.d3.txt
t_eq "deep200k: -D 3 shows three levels" 3 \
	"$(t_graph_calls deep200k.d3.txt | awk '{ n = match($0, /[^ ]/) } n > m { m = n } END { print (m + 1) / 2 }')"

r_build robust_tail tail
# The arch's objdump and jump mnemonics (tests/arch/<arch>.sh: ARCH_JUMP).
${T_ARCH:+$ARCH_TRIPLE-}objdump -d --no-show-raw-insn tail >tail.dis
jumps() {
	awk -v f="<$1>:" '$2 == f { on = 1; next } /^$/ { on = 0 } on' tail.dis |
		grep -Ec "(${ARCH_JUMP:-jmp})[[:space:]].*<$2>"
}
t_eq "tail calls: tail_a jumps to tail_b" 1 "$(jumps tail_a tail_b)"
t_eq "tail calls: tail_b jumps to tail_leaf" 1 "$(jumps tail_b tail_leaf)"
r_record tail ./tail
t_eq "tail calls: exit status" 0 "$(cat tail.rc)"
t_eq "tail calls: output" 14 "$(cat tail.out)"
t_graph_calls tail.txt >got.txt
{
	printf 'main() {\n  caller() {\n'
	for _ in 1 2; do
		printf '    tail_a() {\n      tail_b() {\n        tail_leaf();\n'
		printf '      } /* tail_b */\n    } /* tail_a */\n'
	done
	printf '  } /* caller */\n} /* main */\n'
} >want.txt
t_same "tail calls: the graph nests, each callee inside its jumper" want.txt got.txt
