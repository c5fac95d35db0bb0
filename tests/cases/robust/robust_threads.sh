# Robustness: threads.  50 threads started and ended in waves
# while traced, each with the same call tree: all appear, each nests and
# shows the same calls.  A thread that calls pthread_exit() three frames
# down: the program goes on, and the thread's frames are closed as
# unwound.  A thread cancelled three frames down: the same; in C++, the
# destructors of every frame run.

. "$top/tests/robust_lib.sh"

r_build robust_threads threads
./threads >want.out
r_record th ./threads
t_eq "threads: exit status" 0 "$(cat th.rc)"
t_same "threads: output as untraced" want.out th.out
grep 'worker() {' th.txt >workers.txt
tids=$(r_tids workers.txt)
t_eq "threads: all 50 threads traced" 50 "$(echo "$tids" | wc -w)"
cat >want.txt <<'W'
worker() {
  work() {
    branch() {
      leaf();
      leaf();
    } /* branch */
    leaf();
  } /* work */
} /* worker */
W
bad_nest="" bad_calls=""
r_threads th.txt th.threads
for tid in $tids; do
	r_nested <"th.threads/$tid" || bad_nest="$bad_nest $tid"
	cmp -s want.txt "th.threads/$tid" || bad_calls="$bad_calls $tid"
done
t_eq "threads: every thread nests" "" "${bad_nest# }"
t_eq "threads: every thread made the same calls" "" "${bad_calls# }"
t_eq "threads: main nests too" "" "$(r_all_nest th.txt)"

r_build robust_pthread_exit pexit
r_record pe ./pexit
t_eq "pthread_exit: exit status" 0 "$(cat pe.rc)"
t_eq "pthread_exit: the program goes on" "thread returned 7, after 14" "$(cat pe.out)"
t_ok "pthread_exit: the exiting thread's frames shown" grep -q 'level3() {' pe.txt
t_ok "pthread_exit: the main thread goes on traced" grep -q 'after();' pe.txt
t_ok "pthread_exit: ended normally" sh -c "tail -n 1 pe.txt | grep -qx '# program exited with status 0'"
grep 'exiter() {' pe.txt >exiter.txt
r_graph pe.data "$(r_tids exiter.txt)" >got.txt
r_unwound_chain exiter level1 level2 level3 >want.txt
t_same "pthread_exit: the exiting thread's frames closed as unwound" want.txt got.txt

# pthread_cancel: glibc unwinds the thread where no wrapper of ours sees
# it; the frames still open when the thread ends are closed as unwound.
r_build robust_cancel cancel
r_record ca ./cancel
t_eq "pthread_cancel: exit status" 0 "$(cat ca.rc)"
t_eq "pthread_cancel: cancelled, cleanup ran" "cancelled 1, cleanup saw 7" "$(cat ca.out)"
grep 'waiter() {' ca.txt >waiter.txt
r_graph ca.data "$(r_tids waiter.txt)" >got.txt
{ r_unwound_chain waiter level1 level2 level3 | sed '4a\        cleanup();'; } >want.txt
t_same "pthread_cancel: the cancelled thread's frames closed as unwound" want.txt got.txt

# The same in C++: glibc's forced unwinding steps through the frames the
# graph tracer hijacked, so every destructor runs.
r_build robust_cancel_cxx cancelcxx g++-pg
r_record cx ./cancelcxx
t_eq "pthread_cancel, C++: exit status" 0 "$(cat cx.rc)"
t_eq "pthread_cancel, C++: every destructor ran" "cancelled 1, destructors run 3" "$(cat cx.out)"
t_eq "pthread_cancel, C++: ... and is in the graph" 3 "$(grep -c 'Guard::~Guard();' cx.txt)"
t_eq "pthread_cancel, C++: the frames closed as unwound" 4 "$(grep -c ': unwound \*/' cx.txt)"
