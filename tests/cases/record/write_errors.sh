# Output that cannot be written (/dev/full: a full disk) is said in one
# line and ends the command with a non-zero status, for every command
# that prints; a reader that goes away early (| head) is not an error.

t_build gcc-pg -O2 prog "$top/tests/progs/graph.c"
t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
"$FNTRACE" record -o d -- ./prog >/dev/null 2>&1

# full NAME CMD...: fails, saying the output could not be written.
full() {
	name=$1; shift
	"$@" >/dev/full 2>err.txt
	rc=$?
	t_ok "$name into a full disk: non-zero exit" test "$rc" -ne 0
	t_ok "$name into a full disk: said" grep -q "cannot write the output: No space left on device" err.txt
}

full "report" "$FNTRACE" report -i d
full "report --stat" "$FNTRACE" report -i d --stat
full "report --csv" "$FNTRACE" report -i d --csv
full "info" "$FNTRACE" info -i d
full "list" "$FNTRACE" list ./prog
full "live" "$FNTRACE" live -- ./prog

"$FNTRACE" run -- ./spin 30 >run.out 2>&1 &
pid=$!
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" ctl "$pid" current_tracer function_graph
full "ctl available_filter_functions" "$FNTRACE" ctl "$pid" available_filter_functions
full "ctl trace" "$FNTRACE" ctl "$pid" trace
kill "$pid"; wait

"$FNTRACE" report -i d | head -1 >/dev/null 2>err.txt
t_eq "report | head: nothing said" "" "$(cat err.txt)"
