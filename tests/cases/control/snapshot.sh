# The snapshot file of a running process (fntrace run), as the kernel's:
# read before any is taken says so; 1 takes one, which holds the latest
# calls of every thread, a thread that ended before it too; 2 clears it;
# 0 frees it; any other value is refused in one line and changes
# nothing.  A thread of the program asks for one through its runtime
# (the control thread takes it); snapshots taken while the tracer and
# the filter are switched live leave a program that runs on and
# snapshots that read.

t_build gcc-pg -O2 flight "$top/tests/progs/flight.c"
touch hold
"$FNTRACE" run -- ./flight hold ended ask asked 20000 go >out.txt 2>run.err &
pid=$!
for i in $(seq 100); do t_endpoint "$pid" && break; sleep 0.1; done

# ctl_snap VALUE: write VALUE to the snapshot file, saying nothing.
ctl_snap() { "$FNTRACE" ctl "$pid" snapshot "$1" 2>>ctl.err; }

"$FNTRACE" ctl "$pid" snapshot >none.txt
t_eq "before any: the kernel's words" "# *** SNAPSHOT NOT ALLOCATED ***" "$(head -n 1 none.txt)"
t_error "1 with no tracer yet: refused, in one line" 1 \
	"snapshot: no trace buffer to take a snapshot of: start a tracer first" \
	"$FNTRACE" ctl "$pid" snapshot 1

# The ender thread ends before the snapshot; the workers and main go on.
"$FNTRACE" ctl "$pid" current_tracer function_graph
touch go
for i in $(seq 100); do [ -e ended ] && break; sleep 0.1; done
sleep 0.5
ctl_snap 1
t_eq "1: taken" "" "$(cat ctl.err)"
"$FNTRACE" ctl "$pid" snapshot >one.txt
t_ok "read: in function_graph's format" grep -q '^# tracer: function_graph' one.txt
for f in worker_tick main_tick ender_last; do
	t_ok "read: holds $f" grep -q " $f();" one.txt
done
t_eq "read: every thread of the program (main, two workers, the two that ended)" 5 \
	"$(grep -o 'flight-[0-9]*' one.txt | sort -u | wc -l)"
"$FNTRACE" ctl "$pid" snapshot >again.txt
t_ok "read twice: the same (a read takes nothing)" cmp -s one.txt again.txt

for bad in 3 x -1 "" "1 2"; do
	t_error "'$bad': refused, in one line" 1 \
		"snapshot: not 0 (free the snapshot), 1 (take one) or 2 (clear it)" \
		"$FNTRACE" ctl "$pid" snapshot "$bad"
done
"$FNTRACE" ctl "$pid" snapshot >after_bad.txt
t_ok "refused values changed nothing" cmp -s one.txt after_bad.txt

ctl_snap 2
"$FNTRACE" ctl "$pid" snapshot >cleared.txt
t_ok "2: cleared, the header still there" grep -q '^# tracer:' cleared.txt
t_eq "2: ... and no call" 0 "$(grep -c '();' cleared.txt)"
ctl_snap 0
t_eq "0: freed" "# *** SNAPSHOT NOT ALLOCATED ***" "$("$FNTRACE" ctl "$pid" snapshot | head -n 1)"
ctl_snap 1
"$FNTRACE" ctl "$pid" snapshot >re.txt
t_ok "1 after 0: allocated again, and taken" grep -q 'worker_tick' re.txt

# A thread of the program asks: its control thread takes it.
ctl_snap 2
touch ask
for i in $(seq 100); do [ -s asked ] && break; sleep 0.1; done
t_eq "a program thread asks: taken" ok "$(cat asked 2>/dev/null)"
"$FNTRACE" ctl "$pid" snapshot >asked.txt
t_ok "... and it holds the calls" grep -q 'worker_tick' asked.txt

# Snapshots while the tracer and the filter change: none fails, each reads.
: >ctl.err
fails=0
for round in $(seq 8); do
	for tracer in function function_graph; do
		"$FNTRACE" ctl "$pid" current_tracer "$tracer"
		"$FNTRACE" ctl "$pid" set_ftrace_filter "$([ $((round % 2)) = 0 ] && echo 'worker*' || echo '')"
		ctl_snap 1 || fails=$((fails + 1))
		"$FNTRACE" ctl "$pid" snapshot >live.txt 2>>ctl.err || fails=$((fails + 1))
		grep -q '^# tracer:' live.txt || fails=$((fails + 1))
	done
done
t_eq "switched live: every snapshot taken and read" "0 " "$fails $(cat ctl.err)"
"$FNTRACE" ctl "$pid" set_ftrace_filter 'worker*'
"$FNTRACE" ctl "$pid" current_tracer function
sleep 0.3
ctl_snap 1
"$FNTRACE" ctl "$pid" snapshot >fn.txt
t_ok "function tracer: its format" grep -q '^# tracer: function$' fn.txt
t_ok "... and the filter's functions only" sh -c "grep -q 'worker_tick <-worker' fn.txt &&
	! grep -q 'main_tick <-' fn.txt"

"$FNTRACE" ctl "$pid" current_tracer nop
rm -f hold
wait "$pid"
t_eq "the program ran on to its end" 0 "$?"
