# Robustness (issue 5): recursion deeper than the shadow stack (3000
# frames, it holds 1024): no crash, the right result, a nested graph, and
# the report says how many calls were too deep to graph.  Tail calls
# compiled into jumps: the graph stays nested.

. "$top/tests/robust_lib.sh"

r_build robust_deep deep
r_record deep ./deep 3000
t_eq "deep recursion: exit status" 0 "$(cat deep.rc)"
t_eq "deep recursion: output" "depth 3000 after 3000" "$(cat deep.out)"
t_eq "deep recursion: the graph nests" "" "$(r_all_nest deep.data deep.txt)"
t_graph_calls deep.txt >deep.calls
t_ok "deep recursion: the call after it traced" grep -q '^  after();$' deep.calls
n=$(sed -n 's/^# shadow stack overruns: \([0-9]*\).*/\1/p' deep.txt)
t_ok "deep recursion: the calls not graphed are counted (overruns > 0)" test "${n:-0}" -gt 0

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
