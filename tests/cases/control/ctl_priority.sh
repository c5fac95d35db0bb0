# The control thread serves at the strongest nice it may take
# (src/core/control_self.c), so that an operator's request is not made to
# wait behind a program's busy threads: -20 for a program run by root,
# and for one that may not take it the nice it was made with, every
# request answered all the same.  fntrace attach lends the thread that
# loads the runtime nice -20 for the load, and gives its own back after.  (What
# it is for, 1000 spinning threads, is measured by bench/busy_ctl.sh.)

t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
chmod 755 .
touch hold
chmod 644 hold

# nice_of PID TID: the task's nice.  ctl_tid PID: its control thread's tid.
nice_of() { cut -d' ' -f19 /proc/"$1"/task/"$2"/stat; }
ctl_tid() { grep -l '^fntrace-ctl$' /proc/"$1"/task/*/comm | cut -d/ -f5; }

# ctl_nice NAME PREFIX...: ./spin run by fntrace run under PREFIX; its
# control thread's nice once it has answered a request, in NICE (empty
# if it never answered).
ctl_nice() {
	local name=$1 pid i; shift
	"$@" "$FNTRACE" run -- ./spin 6 hold >/dev/null 2>"$name.err" &
	pid=$!
	NICE=
	for i in $(seq 100); do
		if "$FNTRACE" ctl "$pid" current_tracer function >/dev/null 2>&1; then
			NICE=$(nice_of "$pid" "$(ctl_tid "$pid")")
			t_eq "$name: the switch took" function "$("$FNTRACE" ctl "$pid" current_tracer)"
			break
		fi
		sleep 0.1
	done
	kill "$pid"
	wait "$pid" 2>/dev/null
}

ctl_nice root
t_eq "root: the control thread serves at nice -20" -20 "$NICE"

as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
if $as_nobody true 2>/dev/null; then
	ctl_nice nobody $as_nobody
	t_eq "nobody: it keeps the nice it was made with" 0 "$NICE"
	ctl_nice "nobody at nice 5" nice -n 5 $as_nobody
	t_eq "nobody at nice 5: it is not made weaker" 5 "$NICE"
	t_eq "no warning from any of them" "" "$(cat nobody*.err | grep -v 'runs as pid')"
else
	t_fail "nobody" "setpriv cannot switch to nobody"
fi

nice -n 5 ./spin 6 hold >/dev/null &
pid=$!
t_running $pid spin
"$FNTRACE" attach $pid 2>attach.err
t_eq "attach: succeeds" 0 "$?"
t_eq "attach: the thread that loaded the runtime has its nice, 5, back" 5 "$(nice_of $pid $pid)"
t_eq "attach: the control thread serves at nice -20" -20 "$(nice_of $pid "$(ctl_tid $pid)")"
"$FNTRACE" detach $pid 2>/dev/null
kill $pid
wait $pid 2>/dev/null || :
