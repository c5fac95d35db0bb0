# Robustness: signals.  Handlers that call traced functions
# while the main code is inside traced frames nest inside the frame they
# interrupted, on the thread's stack or on a sigaltstack; a storm of
# SIGALRM at 1 kHz for a second while three threads call traced functions
# in a loop: no crash, the right result, every thread nests.

. "$top/tests/robust_lib.sh"

r_build robust_signal signal
cat >want.txt <<'W'
main() {
  handle();
  handle();
  outer() {
    wait_usr1() {
      on_usr1() {
        handler_work() {
          handler_leaf();
        } /* handler_work */
      } /* on_usr1 */
    } /* wait_usr1 */
    spin() {
      on_alarm() {
        handler_work() {
          handler_leaf();
        } /* handler_work */
      } /* on_alarm */
    } /* spin */
  } /* outer */
} /* main */
W
for mode in stack altstack; do
	r_record sig-$mode ./signal $mode
	t_eq "signals ($mode): exit status" 0 "$(cat sig-$mode.rc)"
	alt=0
	[ $mode = altstack ] && alt=2
	# handled: (SIGUSR1 + 2) + (SIGALRM + 2); SIGUSR1 is 16 on mips.
	t_eq "signals ($mode): output" "outer 2 handled $((${ARCH_SIGUSR1:-10} + 18)) on the alternate stack $alt" "$(cat sig-$mode.out)"
	t_graph_calls sig-$mode.txt >got.txt
	t_same "signals ($mode): handlers nest in the interrupted frames" want.txt got.txt
done

r_build robust_signal_storm storm
r_record storm ./storm
t_eq "signal storm: exit status" 0 "$(cat storm.rc)"
t_eq "signal storm: output" "ticks ok, results right" "$(cat storm.out)"
t_eq "signal storm: three threads traced" 3 "$(r_tids storm.txt | wc -l)"
t_ok "signal storm: the handler's calls traced" grep -q 'tick();' storm.txt
t_eq "signal storm: every thread nests" "" "$(r_all_nest storm.txt)"
