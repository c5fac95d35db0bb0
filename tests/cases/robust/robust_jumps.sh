# Robustness: leaving frames without returning.  longjmp and
# siglongjmp out of three traced frames, 100 times: no crash, the skipped
# frames closed as unwound right after the jump, before the next call.
# C++ exceptions thrown through three traced frames with destructors:
# no std::terminate, the right output, the frames thrown through closed as
# unwound.  backtrace() from a traced frame: the real return addresses
# (-pg, and patchable entries).
# Two coroutines (swapcontext) switching from their own start functions
# and from inside traced frames: no crash, the right output, the graph
# consistent or suspended with the marker.

. "$top/tests/robust_lib.sh"

# ---- longjmp, siglongjmp ----
r_build robust_longjmp lj
{
	echo 'main() {'
	for _ in $(seq 100); do
		echo 'try_once() {'
		r_unwound_chain f1 f2 f3 | r_indent 1
		printf '  landed();\n} /* try_once */\n'
	done | r_indent 1
	echo '} /* main */'
} >want.txt
for mode in jmp sig; do
	r_record lj-$mode ./lj $mode
	t_eq "longjmp ($mode): exit status" 0 "$(cat lj-$mode.rc)"
	t_eq "longjmp ($mode): output" "100 jumps landed, sum 5250" "$(cat lj-$mode.out)"
	t_graph_calls lj-$mode.txt >got.txt
	t_same "longjmp ($mode): the skipped frames closed right after the jump" want.txt got.txt
	t_eq "longjmp ($mode): the graph nests" "" "$(r_all_nest lj-$mode.txt)"
done

# ---- C++ exceptions ----
# exc_case FLAVOUR NAME: robust_exceptions built so, recorded and checked.
# A patchable entry's return address is taken before the function saves
# it: where the slot floats (aarch64) the unwinder meets
# return_to_handler and steps through its frame description
# (src/core/fde_write.c), up to the handler in the frame above.
exc_case() {
	local fl=$1 n=$2
	r_build robust_exceptions "$n" "$fl"
	"./$n" >want.out
	r_record "$n" "./$n"
	t_eq "C++ exceptions ($fl): exit status" 0 "$(cat "$n.rc")"
	t_same "C++ exceptions ($fl): output as untraced" want.out "$n.out"
	{
		echo 'main() {'
		for i in 0 1 2 3 4 5 6 7 8 9; do
			echo 'catcher() {'
			if [ $((i % 2)) = 0 ]; then
				r_unwound_chain g1 g2 g3 | r_indent 1
				echo '  caught();'
			else
				printf '  g1() {\n    g2() {\n      g3();\n    } /* g2 */\n  } /* g1 */\n'
			fi
			echo '} /* catcher */'
		done | r_indent 1
		echo '} /* main */'
	} >want.txt
	t_graph_calls "$n.txt" | sed -n '/^main() {$/,$p' >got.txt
	t_same "C++ exceptions ($fl): the frames thrown through closed as unwound" want.txt got.txt
}
exc_case g++-pg exc
if [ -z "${R_RETURN_SITES:-}" ] && arch_flavor g++-patchable; then
	exc_case g++-patchable exc_patchable
fi

# ---- backtrace() ----
r_build robust_backtrace bt gcc-pg-rdynamic
./bt >want.out
r_record bt ./bt
t_eq "backtrace: exit status" 0 "$(cat bt.rc)"
t_ok "backtrace: the graph" grep -q 'bt_inner();' bt.txt
t_same "backtrace: real return addresses (names, none in libfntrace.so)" want.out bt.out
# Patchable entries: on aarch64 the function saves its return address
# after the hijack, where the runtime cannot give it back; the unwinder
# steps through a frame at return_to_handler, passed over.
if [ -z "${R_RETURN_SITES:-}" ] && arch_flavor gcc-patchable-rdynamic; then
	t_build gcc-patchable-rdynamic -O2 bt_patchable "$top/tests/progs/robust_backtrace.c"
	./bt_patchable >want.out
	r_record bt_patchable ./bt_patchable
	t_eq "backtrace, patchable entries: exit status" 0 "$(cat bt_patchable.rc)"
	t_ok "backtrace, patchable entries: the graph" grep -q 'bt_inner();' bt_patchable.txt
	t_same "backtrace, patchable entries: real return addresses" want.out bt_patchable.out
fi

# ---- swapcontext coroutines ----
r_build robust_context ctx
for mode in direct nested; do
	./ctx $mode >want.out
	r_record ctx-$mode ./ctx $mode
	t_eq "swapcontext ($mode): exit status" 0 "$(cat ctx-$mode.rc)"
	t_same "swapcontext ($mode): output as untraced" want.out ctx-$mode.out
	t_ok "swapcontext ($mode): the graph consistent, or suspended with the marker" \
		r_graph_or_marker ctx-$mode.data "$(r_tids ctx-$mode.txt | head -n 1)"
done
