# A name given to record (-F, -N, -A, -R; and to record -p) that matched
# no function of the program is said in one line each, as ctl's filter
# files refuse it; names that matched say nothing.

t_build gcc-pg -O2 prog "$top/tests/progs/graph.c"
"$FNTRACE" record -F nosuch -F 'fib*' -N '!zz_none' -A 'nothere@arg1' -A 'fib@arg1' \
	-o d -- ./prog >/dev/null 2>err.txt
t_eq "record: exit status" 0 "$?"
t_ok "record: -F nosuch said" grep -qx "fntrace: -F 'nosuch' matched no function of the program" err.txt
t_ok "record: -N '!zz_none' said" grep -q "'!zz_none' matched no function" err.txt
t_ok "record: -A nothere said" grep -q "'nothere@arg1' matched no function" err.txt
t_eq "record: the names that matched not said" "" "$(grep -e "'fib" err.txt)"
t_eq "record: one line each, and the summary" 4 "$(wc -l <err.txt)"
"$FNTRACE" record -F 'fib' -o d -- ./prog >/dev/null 2>err.txt
t_eq "record: all matched, only the summary" 1 "$(wc -l <err.txt)"

t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
"$FNTRACE" run -- ./spin 10 >/dev/null 2>&1 &
pid=$!
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
# record -p sets its filter in the running process, which refuses at once.
"$FNTRACE" ctl "$pid" current_tracer function
"$FNTRACE" record -p "$pid" -d 0.3 -F 'mid' -F 'nosuch_either' -o p 2>err.txt
t_eq "record -p: a name that matches nothing refused" 1 "$?"
t_ok "record -p: ... saying which" grep -q "no such function: 'nosuch_either'" err.txt
t_eq "record -p: ... in one line" 1 "$(wc -l <err.txt)"
t_eq "record -p: ... the process's tracer as it was" function "$("$FNTRACE" ctl "$pid" current_tracer)"
"$FNTRACE" record -p "$pid" -d 0.3 -F 'mid' -A 'nosuch_either@arg1' -o p 2>err.txt
t_eq "record -p: an -A name that matches nothing said" 1 "$(grep -c "'nosuch_either@arg1' matched no function" err.txt)"
"$FNTRACE" ctl "$pid" set_ftrace_filter nosuch 2>err.txt
t_eq "ctl set_ftrace_filter nosuch: refused" 1 "$?"
"$FNTRACE" ctl "$pid" buffer_size_kb 0 2>err.txt
t_eq "ctl buffer_size_kb 0: refused" 1 "$?"
t_ok "ctl buffer_size_kb 0: said" grep -q "0 KB" err.txt
kill "$pid"; wait
