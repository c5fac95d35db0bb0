# record -e when the rings overflow: the recorder stopped (SIGSTOP) for a
# second while the program makes a storm of getppid calls.  What was lost
# is counted, the counts say they are short, and recorded and lost add up
# to the calls made, exactly; the program runs on as ever.

. "$top/tests/kev_lib.sh"
if ! kev_tracefs; then
	t_skip "kernel events" "no tracefs, and not root to mount it"
	return 0
fi
trap kev_untracefs EXIT

t_build gcc-pg -O2 kev_storm "$top/tests/progs/kev_storm.c"
n=1500000
"$FNTRACE" record -e syscalls:getppid -o s.data -- ./kev_storm $n 2>s.err &
rec=$!
# The recorder stopped once the storm is under way: the program past its
# exec (held at the gate until the recorder opened its events) with 50 ms
# of CPU time.  A fixed sleep stopped a slow recorder on a loaded machine
# before it opened the gate, and nothing was lost.
for i in $(seq 250); do
	p=$(pgrep -P $rec -x kev_storm) &&
		[ "$(awk '{ print $14 + $15 }' /proc/$p/stat 2>/dev/null || echo 0)" -ge 5 ] && break
	sleep 0.02
done
t_ok "the storm under way before the recorder stops" test -n "$p"
kill -STOP $rec
sleep 1
kill -CONT $rec
wait $rec
t_eq "exit status" 0 "$?"

"$FNTRACE" info -i s.data >info.txt
calls=$(sed -n 's/^kernel events *\([0-9]*\) system calls (\([0-9]*\) returned).*/\1 \2/p' info.txt)
lost=$(sed -n 's/^kernel lost *\([0-9]*\) events.*/\1/p' info.txt)
t_ok "some lost (${lost:-?})" test "${lost:-0}" -gt 0
t_ok "info says the counts are short" \
	grep -qE '^kernel lost +[0-9]+ events \(a CPU.s ring was full\): the counts above are short$' info.txt
t_eq "entries, returns and the lost add up to the calls made" $((2 * n)) \
	"$(echo "$calls $lost" | awk '{ print $1 + $2 + $3 }')"
t_ok "the recorder said them lost" grep -qE "^fntrace: kernel events: [0-9]+ system calls, .*; ${lost:-x} lost$" s.err
kev_graph s.data >graph.txt
t_ok "the report's header says so" \
	grep -qE "^# kernel events: .*; ${lost:-x} lost \(a CPU's ring was full\)$" graph.txt
t_eq "the function trace whole" "storm 1" "$("$FNTRACE" report -i s.data --stat --csv | awk -F, '$1 == "storm" { print $1, $2 }')"
