# The lazy start: a program and a library built by fntrace cc have their
# sites as nops already, so with tracing off the runtime leaves them
# unread; they are read when first wanted.
#  - tracing off: both modules are left unread;
#  - a ctl filter on two functions of the library, then the function
#    tracer: those two traced, nothing else;
#  - under fntrace record, every function of the library traced.
# The timing is bench/startup.sh's, not a test's.

N=3000
sh "$top/bench/gen_many_funcs.sh" $N many.c lib
"$FNTRACE" cc -O2 -g -fPIC -shared -o libmany.so many.c >cc.out 2>&1 &&
	"$FNTRACE" cc -O2 -g -o startup_main "$top/tests/progs/startup_main.c" \
		-L. -lmany -Wl,-rpath,"$PWD" >>cc.out 2>&1
t_ok "startup: fntrace cc builds the program and its library" test -x startup_main
./startup_main spin 0 >want.txt

FNTRACE_DEBUG=1 LD_PRELOAD=$LIBFNTRACE ./startup_main spin 0 >off.txt 2>off.err
t_same "startup: tracing off, the program runs as without the runtime" want.txt off.txt
t_ok "startup: tracing off, the library's sites are left unread" \
	grep -q "libmany.so: nops already, call sites read when wanted" off.err
t_ok "startup: ... and so are the program's" \
	grep -q "startup_main: nops already, call sites read when wanted" off.err

"$FNTRACE" run -- ./startup_main spin 6 >run.out 2>run.err &
pid=$!
# Up to 10 s for the endpoint: on a loaded machine the start may be slow.
for i in $(seq 100); do t_endpoint "$pid" && break; sleep 0.1; done
t_eq "startup: ctl sees every function once asked" $((N + 1)) \
	"$("$FNTRACE" ctl $pid available_filter_functions | grep -c '^\(f[0-9]*\|main\)\b')"
"$FNTRACE" ctl $pid set_ftrace_filter 'f7 f9'
"$FNTRACE" ctl $pid current_tracer function
t_eq "startup: the filter's two functions enabled" "f7 [libmany.so] (1) f9 [libmany.so] (1)" \
	"$("$FNTRACE" ctl $pid enabled_functions | sort | tr '\n' ' ' | sed 's/ $//')"
sleep 0.3
"$FNTRACE" ctl $pid trace >trace.txt
t_ok "startup: f7 traced" grep -q ' f7 <-main' trace.txt
t_ok "startup: f9 traced" grep -q ' f9 <-main' trace.txt
t_eq "startup: nothing else traced" 0 \
	"$(grep -v '^#' trace.txt | grep -v ' f[79] <-main' | grep -c '<-')"
"$FNTRACE" ctl $pid current_tracer nop
wait $pid
t_eq "startup: the program ran to its end" 0 "$?"

"$FNTRACE" record -o all.data -- ./startup_main all >all.out 2>all.err
t_eq "startup: record: the program's output" "$(./startup_main all)" "$(cat all.out)"
"$FNTRACE" report -i all.data --csv >all.csv 2>/dev/null
t_eq "startup: record: every function of the library traced" $N \
	"$(grep -c '^f[0-9]*,1,' all.csv)"
