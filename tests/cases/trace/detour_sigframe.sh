# A detour's entry does not change under a thread that a signal stopped
# inside its first bytes while the program's handler for it still runs
# (x86_64; aarch64's detour replaces one word, which has no inside).  The
# thread is at the handler then, but resumes inside those bytes: the
# runtime finds where from the signal's frame on its stack
# (src/core/sigframes.c).  detour_sigframe.c's held() faults in its
# second instruction, and its handler waits while a file exists, then
# lets the read run again.  Before that was looked at, the switch went
# through at once and the program ran into the middle of the jump.

[ -n "$T_ARCH" ] && return 0
export FNTRACE_CACHE=$PWD/cache
t_build plain -O2 sigframe "$top/tests/progs/detour_sigframe.c"

# start TAG: the program run, held inside held()'s first bytes.
start() {
	rm -f hold stop
	touch hold
	"$FNTRACE" run -- ./sigframe "$PWD/hold" "$PWD/stop" >"$1.out" 2>"$1.err" &
	pid=$!
	for i in $(seq 100); do grep -q held "$1.out" 2>/dev/null && break; sleep 0.1; done
	t_eq "$1: held inside the function's first bytes" held "$(cat "$1.out")"
	"$FNTRACE" ctl $pid set_ftrace_filter held
}

# finish TAG: the program stopped; it must have run well all along.
finish() {
	touch stop
	wait $pid
	t_eq "$1: exit status" 0 "$?"
	t_eq "$1: every call read what it should" "held back ok" "$(tr '\n' ' ' <"$1.out" | sed 's/ $//')"
}

# The handler returns half a second into the switch, which then goes on.
start waits
(sleep 0.5; rm -f hold) &
start_ns=$(date +%s%N)
"$FNTRACE" ctl $pid current_tracer function 2>waits.ctl
t_eq "waits: the switch done" 0 "$?"
t_ok "waits: ... once the handler returned" test $(( ($(date +%s%N) - start_ns) / 1000000 )) -ge 400
sleep 0.2
t_ok "waits: the calls traced" sh -c "\"$FNTRACE\" ctl $pid trace | grep -q 'held <-'"
finish waits

# A handler that outlasts the patience (2 s): the switch refused, in one
# line, nothing changed; once it returned, the switch goes through.
start refused
"$FNTRACE" ctl $pid current_tracer function 2>refused.ctl
t_eq "refused: the switch refused" 1 "$?"
t_eq "refused: ... in one line, saying why" \
	"fntrace: current_tracer: cannot switch to function, nothing changed: a thread stays inside a function's first bytes" \
	"$(cat refused.ctl)"
t_eq "refused: nothing changed" nop "$("$FNTRACE" ctl $pid current_tracer)"
rm -f hold
sleep 0.2
"$FNTRACE" ctl $pid current_tracer function
t_eq "refused: switched once the handler returned" 0 "$?"
finish refused
