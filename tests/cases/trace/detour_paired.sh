# A detour the graph tracer takes returns through a call its stub made
# from just before return_to_handler (x86_64: FT_FRAME_PAIRED), so that
# the return stack predicts its return and return_to_handler's ret to
# the caller (docs/design.md "Detours in the running process").  Each
# return must still come back to its caller: detour_paired.cpp, built
# with plain -O2, recurses 10000 deep (deeper than the shadow stack:
# paired frames under unpaired ones), calls one function from 16 call
# sites and by a tail call from another, throws through two and
# longjmps out of one; its results must be the untraced run's, the
# calls counted and nested.  Its peek() reads the word its stub left
# 16 bytes below the return slot: the copy's address (stub + 39, low
# bits 7) on the paired path, the hook's return address (stub + 8) on
# the other, which the function tracer takes.

[ -n "$T_ARCH" ] && return 0
export FNTRACE_CACHE=$PWD/cache
# No .cold parts: the unwinder's landing pads stay in their functions.
t_build g++-plain "-O2 -fno-reorder-blocks-and-partition" paired \
	"$top/tests/progs/detour_paired.cpp"
./paired >want.out
grep -v '^stub' want.out >want.results

for tracer in function_graph function; do
	"$FNTRACE" record -t $tracer -F '*' -o $tracer.data -- ./paired >$tracer.out 2>$tracer.err
	t_eq "$tracer: exit status" 0 "$?"
	grep -v '^stub' $tracer.out >$tracer.results
	t_same "$tracer: every result as untraced" want.results $tracer.results
	"$FNTRACE" report -i $tracer.data --stat --csv >$tracer.csv
	t_eq "$tracer: leaf's calls from 16 call sites and a tail call" \
		"leaf,1700 tail_to,100 fan,100" \
		"$(for f in leaf tail_to fan; do grep "^$f," $tracer.csv | cut -d, -f1,2; done | tr '\n' ' ' | sed 's/ $//')"
	t_eq "$tracer: calls thrown through and jumped out of, each counted" \
		"through,30 thrower,30 over,40 jumper,40" \
		"$(for f in through thrower over jumper; do grep "^$f," $tracer.csv | cut -d, -f1,2; done | tr '\n' ' ' | sed 's/ $//')"
done
t_eq "function_graph: the stub paired the traced calls" "stub 7" "$(grep '^stub' function_graph.out)"
t_eq "function: ... and the function tracer's went on into the copy" "stub 8" \
	"$(grep '^stub' function.out)"
t_ok "function_graph: the recursion deeper than the shadow stack said" \
	grep -q 'calls not graphed (shadow stack overruns)' function_graph.err

# down's calls: 1 + 10000 of the first chain, as deep as the shadow stack
# takes them, then 501 whole.  Its exits close innermost first: each
# duration at least the one it encloses; one drop, between the chains.
"$FNTRACE" report -i function_graph.data >graph.txt
t_eq "function_graph: down's 500-deep chain whole" \
	"$(grep -c 'down() {' graph.txt)" "$(grep -c '} /\* down \*/' graph.txt)"
t_eq "function_graph: down's exits nested: longer outward, one drop between chains" 1 \
	"$(awk -F'|' '/} \/\* down \*\// { u = $2 ~ /ms/ ? 1000 : 1; gsub(/[^0-9.]/, "", $2); d = $2 * u
		if (n++ && d < last) drops++; last = d } END { print drops + 0 }' graph.txt)"
