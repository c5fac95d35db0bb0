# Robustness (issue 5): the checks that fail today for want of a runtime
# feature.  tests/run.sh runs this file only with RUN_PENDING=1; a check
# that passes moves to the robust_*.sh file of its subject.
#
#  - pthread_exit(): the exiting thread's frames closed as unwound;
#  - exec: the calls made before an exec keep their names (the program
#    exec'd must not take its place in the trace), the frames the exec
#    ended are closed, and a program without call sites is said to be
#    untraced;
#  - longjmp: the frames it skipped closed right after the jump, before
#    the next call;
#  - C++ exceptions through traced frames (today: std::terminate);
#  - backtrace() from a traced frame: the real return addresses;
#  - coroutines switching from inside traced frames (today: SIGSEGV);
#  - recursion deeper than the shadow stack: how many calls were not
#    graphed.

. "$top/tests/robust_lib.sh"

# ---- pthread_exit ----
r_build robust_pthread_exit pexit
r_record pe ./pexit
tid=$(grep 'exiter() {' pe.txt >exiter.txt && r_tids exiter.txt)
r_graph pe.data "$tid" >got.txt
r_unwound_chain exiter level1 level2 level3 >want.txt
t_same "pending: pthread_exit: the exiting thread's frames closed as unwound" want.txt got.txt

# ---- exec ----
r_build robust_exec exec
r_build robust_exec_target target
r_record ex ./exec ./target
pid=$(sed -n 's/^pid //p' ex.out)
t_ok "pending: exec: the calls before the exec keep their names" \
	sh -c "grep -q 'exec-$pid .*|  *do_exec() {' ex.txt && grep -q 'exec-$pid .*|  *leaf();' ex.txt"
t_ok "pending: exec: the exec'd program's calls are not named as the first's" \
	sh -c "! grep -q 'exec-$pid .*target_' ex.txt"
t_ok "pending: exec: the frames the exec ended are closed (the pid nests)" r_nests ex.data "$pid"
r_record ee ./exec /bin/echo hello
pid=$(sed -n 's/^pid //p' ee.out)
# The path as exec'd, or as the kernel has it (/bin is /usr/bin on Debian).
t_ok "pending: exec /bin/echo: said to be untraced" \
	grep -Eq "^# pid $pid: (/bin/echo|$(readlink -f /bin/echo)) has no call sites: not traced$" ee.txt

# ---- longjmp, siglongjmp ----
r_build robust_longjmp lj
{
	echo 'main() {'
	for i in $(seq 100); do
		echo 'try_once() {'
		r_unwound_chain f1 f2 f3 | r_indent 1
		printf '  landed();\n} /* try_once */\n'
	done | r_indent 1
	echo '} /* main */'
} >want.txt
for mode in jmp sig; do
	r_record lj-$mode ./lj $mode
	t_graph_calls lj-$mode.txt >got.txt
	t_same "pending: longjmp ($mode): the skipped frames closed right after the jump" want.txt got.txt
done

# ---- C++ exceptions ----
r_build robust_exceptions exc g++-pg
./exc >want.out
r_record exc ./exc
t_eq "pending: C++ exceptions: exit status" 0 "$(cat exc.rc)"
t_same "pending: C++ exceptions: output as untraced" want.out exc.out
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
t_graph_calls exc.txt | sed -n '/^main() {$/,$p' >got.txt
t_same "pending: C++ exceptions: the frames thrown through closed as unwound" want.txt got.txt

# ---- backtrace() ----
r_build robust_backtrace bt gcc-pg-rdynamic
./bt >want.out
r_record bt ./bt
t_same "pending: backtrace: real return addresses (names, none in libfntrace.so)" want.out bt.out

# ---- coroutines switching from inside traced frames ----
r_build robust_context ctx
./ctx nested >want.out
r_record ctxn ./ctx nested
t_eq "pending: swapcontext (nested): exit status" 0 "$(cat ctxn.rc)"
t_same "pending: swapcontext (nested): output as untraced" want.out ctxn.out
t_ok "pending: swapcontext (nested): the graph consistent, or suspended with the marker" \
	r_graph_or_marker ctxn.data "$(r_tids ctxn.txt | head -n 1)"

# ---- deeper than the shadow stack ----
r_build robust_deep deep
r_record deep ./deep 3000
n=$(sed -n 's/^# shadow stack overruns: \([0-9]*\).*/\1/p' deep.txt)
t_ok "pending: deep recursion: the calls not graphed are counted (overruns > 0)" test "${n:-0}" -gt 0
