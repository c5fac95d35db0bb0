# Robustness (issue 5): leaving frames without returning.  longjmp and
# siglongjmp out of three traced frames, 100 times: no crash, the skipped
# frames closed as unwound, the graph nested after.  backtrace() from a
# traced frame: no crash.  Two coroutines (swapcontext) switching from
# their own start functions: no crash, the right output, the graph
# consistent or suspended with the marker.  (Where the unwound frames are
# closed, C++ exceptions, what backtrace() returns, and coroutines that
# switch from inside traced frames: robust_pending.sh.)

. "$top/tests/robust_lib.sh"

r_build robust_longjmp lj
for mode in jmp sig; do
	r_record lj-$mode ./lj $mode
	t_eq "longjmp ($mode): exit status" 0 "$(cat lj-$mode.rc)"
	t_eq "longjmp ($mode): output" "100 jumps landed, sum 5250" "$(cat lj-$mode.out)"
	for f in f1 f2 f3; do
		t_eq "longjmp ($mode): $f closed as unwound 100 times" 100 \
			"$(grep -c "} /\* $f: unwound \*/" lj-$mode.txt)"
	done
	t_eq "longjmp ($mode): landed() traced 100 times" 100 "$(grep -c 'landed();' lj-$mode.txt)"
	t_eq "longjmp ($mode): the graph nests" "" "$(r_all_nest lj-$mode.data lj-$mode.txt)"
done

r_build robust_backtrace bt gcc-pg-rdynamic
r_record bt ./bt
t_eq "backtrace: exit status" 0 "$(cat bt.rc)"
t_ok "backtrace: the graph" grep -q 'bt_inner();' bt.txt

r_build robust_context ctx
./ctx direct >want.out
r_record ctx ./ctx direct
t_eq "swapcontext (direct): exit status" 0 "$(cat ctx.rc)"
t_same "swapcontext (direct): output as untraced" want.out ctx.out
t_ok "swapcontext (direct): the graph consistent, or suspended with the marker" \
	r_graph_or_marker ctx.data "$(r_tids ctx.txt)"
