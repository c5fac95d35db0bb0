# A fault switches tracing off for good (tests/progs/scribble.c changes a
# call site's byte behind the runtime's back, and the next live patch finds
# it): the ctl answer says so and why, tracing_on reads 0 from then on and
# cannot be set to 1, and the program runs on to its own end.

t_build gcc-pg -O2 scribble "$top/tests/progs/scribble.c"
func=0x$(nm scribble | awk '$3 == "unused" { print $1 }')
site=$("$FNTRACE" list -a scribble | awk '$4 == "unused" { print $1 }')

rm -f in && mkfifo in
"$FNTRACE" run -- ./scribble "$func" "$site" <in >out.txt 2>err.txt &
pid=$!
exec 3>in
for i in $(seq 100); do t_endpoint "$pid" && break; sleep 0.1; done

"$FNTRACE" ctl $pid current_tracer function
t_eq "before the fault: switches are made" "function 1" \
	"$("$FNTRACE" ctl $pid current_tracer) $("$FNTRACE" ctl $pid tracing_on)"
"$FNTRACE" ctl $pid current_tracer nop
echo >&3
for i in $(seq 100); do grep -q scribbled out.txt && break; sleep 0.1; done
"$FNTRACE" ctl $pid current_tracer function 2>ctl.err
t_eq "the fault: the switch is refused" 1 $?
t_ok "... saying tracing is off, and why" grep -q 'current_tracer: cannot switch to function, nothing changed: tracing is off: a patch failed' ctl.err
t_eq "... tracing_on reads 0" "nop 0" "$("$FNTRACE" ctl $pid current_tracer) $("$FNTRACE" ctl $pid tracing_on)"
"$FNTRACE" ctl $pid tracing_on 1 2>on.err
t_eq "tracing_on 1 is refused" 1 $?
t_ok "... saying why" grep -q 'tracing_on: cannot switch tracing on: tracing is off: a patch failed' on.err
exec 3>&-
wait $pid
t_eq "the program ends as its own" "0 scribbled ran" "$? $(cat out.txt | tr '\n' ' ' | sed 's/ $//')"
t_ok "the runtime said what it found" grep -q 'unexpected bytes at' err.txt
