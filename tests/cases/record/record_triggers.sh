# --trigger on the command line: record and run set function triggers from
# the start, record -p for its recording alone (the process's own are put
# back after); a bad one is a usage error in one line, one naming no
# function is said and the others stand.  (tests/progs/triggers.c:
# threads calling outer -> inner -> hit -> leaf together.)

t_build gcc-pg "-O2 -fno-omit-frame-pointer" triggers "$top/tests/progs/triggers.c"

# ---- record ----
"$FNTRACE" record -o st.data --trigger=hit:stacktrace:3 -- ./triggers 8 calls 20 >out.txt 2>err.txt
t_eq "record --trigger: the program as its own" "0 calls 160" "$? $(tail -n 1 out.txt)"
"$FNTRACE" report -i st.data >st.txt
t_eq "stacktrace:3 from 8 threads at once: 3 stacks" 3 "$(grep -c '<stack trace>' st.txt)"
t_eq "... under function_graph, the shadow stack's frames, hit and its callers" \
	"=> hit => inner => outer => worker" \
	"$(awk 'n && $1 != "=>" { exit } /<stack trace>/ { n = 1; next } n { printf "%s%s %s", (n > 1) ? " " : "", $1, $2; if (++n > 4) exit }' st.txt)"

"$FNTRACE" record -o off.data --trigger=flip_off:traceoff -- ./triggers 4 calls 5 off calls 5 >out.txt 2>err.txt
t_eq "record --trigger=flip_off:traceoff: the program as its own" "0 calls 40" "$? $(tail -n 1 out.txt)"
t_eq "... the calls before flip_off recorded, none after" 20 \
	"$("$FNTRACE" report -i off.data | grep -Ec 'outer\(\)( \{|;)')"

"$FNTRACE" record -o some.data --trigger=nosuch:traceoff --trigger=hit:stacktrace:1 -- \
	./triggers 2 calls 2 >out.txt 2>err.txt
t_eq "a trigger naming no function: the recording goes on" "0 calls 4" "$? $(tail -n 1 out.txt)"
t_ok "... said in one line" grep -q "trigger not set: no such function: 'nosuch:traceoff'" err.txt
t_eq "... the other one stands" 1 "$("$FNTRACE" report -i some.data | grep -c '<stack trace>')"

while IFS='|' read -r bad why; do
	t_error "record --trigger='$bad' refused" 2 "fntrace record: bad trigger: $why" \
		"$FNTRACE" record -o bad.data --trigger="$bad" -- ./triggers 1 calls 1
done <<'EOF'
hit:bogus|no such command 'bogus'
hit:traceoff:x|bad count
hit:snapshot_if_longer:9999999999|bad duration
hit|not a command
hit[:traceoff|bad glob
EOF
t_error "record --trigger='!hit:traceoff' refused" 2 "removes none" \
	"$FNTRACE" record -o bad.data --trigger='!hit:traceoff' -- ./triggers 1 calls 1
t_ok "... nothing was recorded" test ! -e bad.data
t_ok "record --help shows --trigger, with an example" \
	sh -c "'$FNTRACE' record --help | grep -q -- '--trigger=FUNC:COMMAND' && '$FNTRACE' record --help | grep -q 'record --trigger='"

# ---- run: triggers from the start, tracing off ----
t_ok "run --help shows --trigger, with an example" \
	sh -c "'$FNTRACE' run --help | grep -q -- '--trigger=FUNC:COMMAND' && '$FNTRACE' run --help | grep -q 'run --trigger='"
t_error "run --trigger=hit:bogus refused" 2 "fntrace run: bad trigger: no such command" \
	"$FNTRACE" run --trigger=hit:bogus -- ./triggers 1 calls 1
rm -f in && mkfifo in
"$FNTRACE" run --trigger=hit:stacktrace:2 --trigger=flip_off:traceoff:1 -- ./triggers 4 <in >out.txt 2>err.txt &
pid=$!
exec 3>in
for i in $(seq 100); do t_endpoint "$pid" && break; sleep 0.1; done
t_eq "run --trigger: listed, the tracer nop" \
	"nop #### all functions enabled #### hit:stacktrace:count=2 flip_off:traceoff:count=1" \
	"$("$FNTRACE" ctl $pid current_tracer) $("$FNTRACE" ctl $pid set_ftrace_filter | tr '\n' ' ' | sed 's/ $//')"
echo "calls 5" >&3
for i in $(seq 100); do grep -q '^ok calls' out.txt && break; sleep 0.05; done
t_eq "... its stacks in the process's own buffer" 2 "$("$FNTRACE" ctl $pid trace | grep -c '<stack trace>')"

# ---- record -p: the recording's triggers, then the process's again ----
"$FNTRACE" ctl $pid set_ftrace_filter 'outer inner:stacktrace:7'
"$FNTRACE" record -p $pid -o p.data -d 1.5 --trigger=hit:stacktrace:3 2>rec.err &
rec=$!
for i in $(seq 100); do
	"$FNTRACE" ctl $pid set_ftrace_filter | grep -q '^hit:stacktrace:count=3' && break
	sleep 0.05
done
t_eq "record -p --trigger: its trigger alone while it records" \
	"#### all functions enabled #### hit:stacktrace:count=3" \
	"$("$FNTRACE" ctl $pid set_ftrace_filter | tr '\n' ' ' | sed 's/ $//')"
echo "calls 5" >&3
wait $rec
t_eq "... it recorded, 3 stacks" "0 3" "$? $("$FNTRACE" report -i p.data | grep -c '<stack trace>')"
t_eq "... and put the process's filter and triggers back (run's, spent, too)" \
	"outer hit:stacktrace:count=0 inner:stacktrace:count=7 flip_off:traceoff:count=1" \
	"$("$FNTRACE" ctl $pid set_ftrace_filter | tr '\n' ' ' | sed 's/ $//')"
t_error "record -p --trigger naming no function: refused" 1 "no such function" \
	"$FNTRACE" record -p $pid -o q.data -d 0.5 --trigger=nosuch:traceoff
t_eq "... the process's settings back as they were" \
	"outer hit:stacktrace:count=0 inner:stacktrace:count=7 flip_off:traceoff:count=1" \
	"$("$FNTRACE" ctl $pid set_ftrace_filter | tr '\n' ' ' | sed 's/ $//')"
exec 3>&-
wait $pid
t_eq "the program ends as its own" "0 calls 40" "$? $(tail -n 1 out.txt)"
