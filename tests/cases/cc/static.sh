# Static programs.  fntrace cc -static links the runtime in
# (libfntrace.a), dormant unless fntrace starts it: record, run, ctl and
# record -p trace the program as a dynamic one; attach refuses it; and a
# static program without the runtime is refused by record and run,
# before it runs, in one line.  Under T_ARCH too (tests/arch/*.sh).

cc=$(t_cc gcc)
FNTRACE_CC=$cc "$FNTRACE" cc -O2 -static -o calls "$top/tests/progs/static_calls.c" \
	-lpthread 2>cc.err
t_eq "cc -static: builds" "" "$(cat cc.err)"
t_ok "cc -static: the program is static (no PT_INTERP)" \
	sh -c "! readelf -l calls | grep -q 'program interpreter'"
t_ok "cc -static: the runtime is linked in (its note)" \
	sh -c "readelf -n calls | grep -q fntrace"
# A fntrace without libfntrace.a beside it refuses at build time.
mkdir lone && cp "$FNTRACE" lone/
FNTRACE_CC=$cc lone/fntrace cc -O2 -static -o lone/calls "$top/tests/progs/static_calls.c" \
	2>lone.err
t_eq "cc -static, no libfntrace.a: refused" 1 "$?"
t_eq "cc -static, no libfntrace.a: in one line" 1 "$(wc -l <lone.err)"
t_ok "cc -static, no libfntrace.a: saying so" grep -q "libfntrace.a next to fntrace" lone.err
t_ok "cc -static, no libfntrace.a: no program made" test ! -e lone/calls
$cc -O2 -static -o plain "$top/tests/progs/static_calls.c" -lpthread
./plain >want.txt

# Dormant: the same output as without fntrace, and no control endpoint.
./calls >dormant.txt
t_eq "dormant: runs as the program built without fntrace" 0 "$?"
t_same "dormant: the same output" want.txt dormant.txt

# record: every call, with its count, in every thread and the child.
"$FNTRACE" record -o rec ./calls >out.txt 2>err.txt
t_eq "record: the program's exit status" 0 "$?"
t_same "record: the program's output" want.txt out.txt
t_ok "record: says the calls recorded" grep -q "recorded 3020 calls" err.txt
t_ok "record: in five threads (three, main and the child)" grep -q "in 5 threads" err.txt
"$FNTRACE" report -i rec --stat --csv >stat.csv
for want in work,3000 thread_main,3 leaf,10 in_handler,1 on_usr1,1 landed,1 in_child,1 main,1; do
	t_eq "record: ${want%,*} called ${want#*,} times" "$want" \
		"$(grep "^${want%,*}," stat.csv | cut -d, -f1,2)"
done

# Started by a traced program (fork and execv): it finds the recorder in
# the environment, as a dynamic one finds the preloaded runtime.
FNTRACE_CC=$cc "$FNTRACE" cc -O2 -static -o run_twice "$top/tests/progs/run_twice.c"
"$FNTRACE" record -o twice ./run_twice ./calls >/dev/null 2>&1
t_eq "exec'd by a traced program: record's exit status" 0 "$?"
t_eq "exec'd by a traced program: both runs traced" work,6000 \
	"$("$FNTRACE" report -i twice --stat --csv | grep '^work,' | cut -d, -f1,2)"
t_eq "exec'd by a traced program: the launcher traced" once,2 \
	"$("$FNTRACE" report -i twice --stat --csv | grep '^once,' | cut -d, -f1,2)"

# run, ctl and record -p: tracers switched live, then a recording.
# say_state FILE...: after a failed check, what the runtime says of its
# functions, the files and what it printed, to tell a failure's cause.
say_state() {
	echo "-- enabled_functions:"
	"$FNTRACE" ctl "$pid" enabled_functions
	for f in "$@" run.err; do echo "-- $f:"; head -n 20 "$f"; done
}
FNTRACE_CC=$cc "$FNTRACE" cc -O2 -static -I"$top/tests/progs" -o spin "$top/tests/progs/spin.c"
touch hold
./spin 0 hold >/dev/null &
dormant=$!
t_running $dormant ./spin
sleep 0.3
t_ok "dormant: no control endpoint" test ! -e "/tmp/fntrace-$(id -u)/$dormant"
rm hold
wait $dormant
touch hold
"$FNTRACE" run -- ./spin 1 hold >spin.out 2>run.err &
pid=$!
for i in $(seq 100); do t_endpoint "$pid" && break; sleep 0.1; done
t_ok "run: the control endpoint is open" test -S "/tmp/fntrace-$(id -u)/$pid"
"$FNTRACE" ctl "$pid" current_tracer function
sleep 0.5
"$FNTRACE" ctl "$pid" trace >function.txt
t_ok "ctl: function tracer's events" grep -q "leaf <-mid" function.txt
grep -q "leaf <-mid" function.txt || say_state function.txt
"$FNTRACE" ctl "$pid" current_tracer function_graph
sleep 0.5
"$FNTRACE" ctl "$pid" trace >graph.txt
t_ok "ctl: switched live to function_graph" grep -q "mid() {" graph.txt
"$FNTRACE" ctl "$pid" current_tracer nop
"$FNTRACE" record -p "$pid" -d 0.5 -o rp 2>rp.err
t_eq "record -p: exit status" 0 "$?"
"$FNTRACE" report -i rp --stat --csv >rp.csv
mids=$(awk -F, '$1 == "mid" { print $2 }' rp.csv)
leaves=$(awk -F, '$1 == "leaf" { print $2 }' rp.csv)
t_ok "record -p: mid recorded ($mids calls)" test "${mids:-0}" -gt 0
# The recording's two edges may each cut one call: switched on between
# a mid's entry and its leaf's (a leaf without its mid), or off between
# them (a mid without its leaf).  Under qemu-user, where a patch takes
# milliseconds, that happened.
t_ok "record -p: every mid with its leaf, but at the edges ($mids, $leaves)" \
	test "$((mids - leaves))" -ge -1 -a "$((mids - leaves))" -le 1
[ "$mids" = "$leaves" ] || say_state rp.csv rp.err

# attach: refused in one line, the program untouched.
"$FNTRACE" attach "$pid" 2>attach.err
t_eq "attach: refused" 1 "$?"
t_eq "attach: in one line" 1 "$(wc -l <attach.err)"
[ -n "$T_ARCH" ] ||
	t_ok "attach: saying it is statically linked" grep -q "statically linked" attach.err
rm hold
wait $pid
t_eq "run: the program ends normally" 0 "$?"

# C++: exceptions through traced frames, in a static program.
FNTRACE_CXX=$(t_cc g++) "$FNTRACE" c++ -O2 -static -o throwing "$top/tests/progs/throw_loop.cpp"
"$FNTRACE" record -o cxx ./throwing >cxx.out 2>/dev/null
t_eq "C++: record's exit status" 0 "$?"
t_eq "C++: every exception caught" 40 "$(cat cxx.out)"
t_eq "C++: every catcher traced" catcher,40 "$("$FNTRACE" report -i cxx --stat --csv |
	grep '^catcher,' | cut -d, -f1,2)"

# Static programs without the runtime: without call sites (plain), and
# with them (objects fntrace cc recorded, linked by the compiler alone).
FNTRACE_CC=$cc "$FNTRACE" cc -O2 -c -o calls.o "$top/tests/progs/static_calls.c"
$cc -static -o sites calls.o -lpthread
for prog in plain sites; do
	for cmd in record run; do
		if [ $cmd = record ]; then "$FNTRACE" record -o no ./$prog >no.out 2>no.err
		else "$FNTRACE" run ./$prog >no.out 2>no.err; fi
		t_eq "$cmd $prog: refused" 1 "$?"
		t_eq "$cmd $prog: in one line" 1 "$(wc -l <no.err)"
		t_ok "$cmd $prog: saying why" grep -q "statically linked without fntrace's runtime" no.err
		t_eq "$cmd $prog: before it runs" "" "$(cat no.out)"
	done
done
t_ok "record: nothing written for a refused program" test ! -e no
