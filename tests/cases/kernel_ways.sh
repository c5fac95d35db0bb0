# Where the kernel has a behaviour, fntrace has the same: ctl trace under
# the nop tracer (the state fntrace run starts in) prints an empty trace,
# and the function tracer names the caller of main, outside any traced
# function, by its module and its address there.

t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
"$FNTRACE" run -- ./spin 10 >/dev/null 2>&1 &
pid=$!
for i in $(seq 50); do [ -S "/tmp/fntrace-$(id -u)/$pid" ] && break; sleep 0.1; done
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
cat >var.c <<'C'
#include <stdlib.h>
#include <unistd.h>
__attribute__((noinline)) void nap(int i) { usleep(i % 2 ? 22000 : 20000); }
int main(int argc, char **argv) { for (int i = 0; i < atoi(argv[1]); i++) nap(i); return 0; }
C
t_build gcc-pg -O2 var var.c
"$FNTRACE" run -- ./var 100 >/dev/null 2>&1 &
pid=$!
for i in $(seq 50); do [ -S "/tmp/fntrace-$(id -u)/$pid" ] && break; sleep 0.1; done
"$FNTRACE" ctl "$pid" function_profile_enabled 1
sleep 1
s2=$("$FNTRACE" ctl "$pid" trace_stat/function | awk '$1 == "nap" { printf "%d", $7 }')
kill "$pid"; wait
"$FNTRACE" record -o v.data -- ./var 40 >/dev/null 2>&1
rs2=$("$FNTRACE" report -i v.data --stat | awk '$1 == "nap" { printf "%d", $7 }')
t_ok "trace_stat s^2 of calls 2 ms apart: about 10^6 us^2 ($s2; report --stat: $rs2)" \
	test "${s2:-0}" -gt 500000 -a "${s2:-0}" -lt 50000000
t_ok "trace_stat s^2 and report --stat's agree within 4x" \
	test "${s2:-0}" -gt 0 -a "${rs2:-0}" -gt 0 -a $((s2 * 4)) -gt "${rs2:-0}" -a $((rs2 * 4)) -gt "${s2:-0}"
