# Where the kernel has a behaviour, fntrace has the same: ctl trace under
# the nop tracer (the state fntrace run starts in) prints an empty trace,
# and the function tracer names the caller of main, outside any traced
# function, by its module and its address there.

t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
"$FNTRACE" run -- ./spin 10 >/dev/null 2>&1 &
pid=$!
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" ctl "$pid" trace >nop.txt 2>err.txt
t_eq "trace under nop: exit status" 0 "$?"
t_eq "trace under nop: the kernel's header" "# tracer: nop" "$(head -1 nop.txt)"
t_eq "trace under nop: no entry" "" "$(grep -v '^#' nop.txt)"
t_eq "trace under nop: nothing said" "" "$(cat err.txt)"
kill "$pid"; wait

t_build gcc-pg -O2 prog "$top/tests/progs/graph.c"
"$FNTRACE" record -t function -o f.data -- ./prog >/dev/null 2>&1
"$FNTRACE" report -i f.data >f.txt
line=$(grep ': main <-' f.txt)
caller=${line##*<-}
t_ok "function tracer: main's caller named by its module ($caller)" \
	sh -c "echo '$caller' | grep -Eq '^libc\.so\.6\+0x[0-9a-f]+$|^__libc_start'"
# The address is where main returns to in libc: after a call.
if echo "$caller" | grep -q '^libc'; then
	libc=$(awk '$NF ~ /libc\.so\.6$/ { print $NF; exit }' f.data/funcs-*)
	off=${caller#*+}
	prev=$(objdump -d --start-address=$((off - 8)) --stop-address=$off "$libc" | tail -1)
	t_ok "function tracer: libc's address follows a call ($prev)" sh -c "echo '$prev' | grep -q call"
fi

# trace_stat/function's s^2 is the variance of the calls' times, as the
# report's is: calls of 20 and 22 ms in turn vary by about 1 ms^2
# (10^6 us^2) and some scheduling noise; it read 0 while the runtime
# squared truncated times against a sum of exact ones.
# Both read the same calls: the program naps once ./go exists, and
# stays, napping no more, while ./hold does.
cat >var.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
__attribute__((noinline)) void nap(int i) { usleep(i % 2 ? 22000 : 20000); }
int main(int argc, char **argv)
{
	while (access("go", F_OK))
		usleep(1000);
	for (int i = 0; i < atoi(argv[1]); i++)
		nap(i);
	while (access("hold", F_OK) == 0)
		usleep(10000);
	return 0;
}
C
t_build gcc-pg -O2 var var.c
rm -f go && touch hold
FNTRACE_CONTROL=1 "$FNTRACE" record -o v.data -- ./var 40 >/dev/null 2>&1 &
rec=$!
for i in $(seq 100); do pid=$(pgrep -P $rec var) && t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" ctl "$pid" function_profile_enabled 1
touch go
for i in $(seq 300); do
	hits=$("$FNTRACE" ctl "$pid" trace_stat/function | awk '$1 == "nap" { print $2 }')
	[ "${hits:-0}" -ge 40 ] && break
	sleep 0.1
done
s2=$("$FNTRACE" ctl "$pid" trace_stat/function | awk '$1 == "nap" { printf "%d", $7 }')
rm -f hold
wait $rec
rs2=$("$FNTRACE" report -i v.data --stat | awk '$1 == "nap" { printf "%d", $7 }')
# (Scheduling noise on a loaded machine only adds to it.)
t_ok "trace_stat s^2 of calls 2 ms apart: 10^6 us^2 or more ($s2; report --stat: $rs2)" \
	test "${s2:-0}" -gt 500000
t_ok "trace_stat s^2 and report --stat's of the same 40 calls agree within 2x" \
	test "${s2:-0}" -gt 0 -a "${rs2:-0}" -gt 0 -a $((s2 * 2)) -gt "${rs2:-0}" -a $((rs2 * 2)) -gt "${s2:-0}"
