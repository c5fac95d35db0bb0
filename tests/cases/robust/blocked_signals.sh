# Threads that block every signal (tests/progs/blocked_signals.c), under
# fntrace run, while current_tracer is switched live: where threads are
# synced by a signal (qemu-user; FNTRACE_NO_MEMBARRIER natively) the
# runtime keeps that signal deliverable whatever the program blocks, so
# every switch is made and the workers' calls are traced, as where
# membarrier syncs them; threads asleep in ppoll() (plain and
# fortified), pselect(), epoll_pwait() and sigsuspend() with every
# signal (but their bell's) blocked in the wait's mask, or in
# sigwaitinfo(), count as synced, no signal ends their waits (EINTR),
# and once woken their calls are traced; the
# program reads back the masks it set, its own real-time signals reach
# its handlers, and its output and status are its own.  A thread that
# blocks everything with the system call through syscall() is kept
# reachable as with sigprocmask(); one that makes the system call with
# its own instruction cannot be reached by any signal: a switch that
# needs it fails, says why, and changes nothing; once that thread is gone
# the next one works.

. "$top/tests/robust_lib.sh"

r_build blocked_signals bs
./bs </dev/null | sort >want.txt
echo | ./bs raw | sort >want_raw.txt
echo | ./bs asm | sort >want_asm.txt

syncs="membarrier signals"
[ -n "${ARCH_EMULATED:-}" ] && syncs=signals

# start NAME [ARGS...]: ./bs ARGS under fntrace run, its input a fifo this
# shell holds open on descriptor 3; pid in $pid.
start() {
	local name=$1; shift
	rm -f in && mkfifo in
	env $env "$FNTRACE" run -- ./bs "$@" <in >"$name.out" 2>"$name.err" &
	pid=$!
	exec 3>in
	for i in $(seq 100); do t_endpoint "$pid" && break; sleep 0.1; done
}

# finish NAME WANT: end the input, wait; output, status and stderr checked.
finish() {
	exec 3>&-
	wait $pid
	t_eq "$1: exit status" 0 "$?"
	sort "$1.out" >"$1.sorted"
	t_same "$1: output" "$2" "$1.sorted"
	t_eq "$1: nothing said" "" "$(grep -v 'runs as pid' "$1.err")"
}

# seen_in TRACER FUNC CALLER MIN: ctl trace shows FUNC (under the
# function tracer called from CALLER, an awk regex) in MIN threads at
# least, polled: the threads may not have run yet.
seen_in() {
	local i n
	for i in $(seq 50); do
		"$FNTRACE" ctl $pid trace >trace.txt 2>/dev/null
		if [ "$1" = function ]; then
			n=$(awk -v f="$2" -v c="$3" '$(NF - 1) == f && $NF ~ c { print $1 }' \
				trace.txt | sort -u | wc -l)
		else
			n=$(awk -F'|' -v f="$2() {" 'index($0, f) { k = split($1, w, " "); print w[k] }' \
				trace.txt | sort -u | wc -l)
		fi
		[ "$n" -ge "$4" ] && return 0
		sleep 0.1
	done
	echo "$2() seen in $n threads"
	return 1
}

# traced TRACER: work() in three workers at least (main only reads).
# Their work() is called from burst(), or from loop() where the compiler
# inlined burst() there, as it may or not (mips gcc does not once time_t
# is 64 bits).
traced() {
	"$FNTRACE" ctl $pid trace ''
	seen_in "$1" work '^<-(loop|burst)$' 3
}

# woken TRACER: a line of input rings the sleepers' bells; woken() then
# in all six.
woken() {
	"$FNTRACE" ctl $pid trace ''
	echo >&3
	seen_in "$1" woken '^<-sleeper$' 6
}

for sync in $syncs; do
	env=""
	[ $sync = signals ] && env="FNTRACE_NO_MEMBARRIER=1"
	name="blocking threads (sync by $sync)"
	start bs
	bad=""
	for round in 1 2 3; do
		for tracer in function_graph nop function nop; do
			"$FNTRACE" ctl $pid current_tracer $tracer 2>ctl.err ||
				bad="$bad $tracer($round): $(cat ctl.err)"
			[ $round = 1 ] && [ $tracer != nop ] && t_ok "$name: $tracer traces the workers" traced $tracer
			[ $round = 1 ] && [ $tracer != nop ] && t_ok "$name: $tracer traces the sleepers once woken" woken $tracer
		done
	done
	t_eq "$name: every switch made" "" "${bad# }"
	finish bs want.txt
done

# waitfor FILE TEXT: until FILE has a line with TEXT (10 s at most).
waitfor() {
	local i
	for i in $(seq 100); do grep -q "$2" "$1" && return 0; sleep 0.1; done
	return 1
}

# A thread that blocks the sync signal with the system call: through
# syscall() it is kept reachable, the switch made.  By its own
# instruction: membarrier needs no signal; a signal cannot reach it, and
# a switch that needs breakpoints is undone.  (The answer takes a second
# of waiting for it, and more on a loaded machine: a long timeout.)
for sync in $syncs; do
for kind in raw asm; do
	env=""
	[ $sync = signals ] && env="FNTRACE_NO_MEMBARRIER=1"
	name="$kind blocker (sync by $sync)"
	start $kind $kind
	t_ok "$name: it blocks" waitfor $kind.out "$kind: blocking"
	"$FNTRACE" ctl --timeout 60 $pid current_tracer function_graph 2>ctl.err
	rc=$?
	# aarch64's sites change by one store threads run through: no
	# breakpoint, and a thread not synced sees the old or the new.
	if [ $kind = raw ] || [ $sync = membarrier ] || [ -n "${ARCH_POKES_LIVE:-}" ]; then
		t_eq "$name: switch made" "0 " "$rc $(cat ctl.err)"
		t_ok "$name: function_graph traces the workers" traced function_graph
		"$FNTRACE" ctl $pid current_tracer nop
	else
		t_eq "$name: switch refused" 1 $rc
		# What it said instead, if not this, into the log.
		t_ok "$name: ... saying why" sh -c "grep -q 'current_tracer: cannot switch to function_graph, nothing changed: .* did not answer' ctl.err || ! cat ctl.err"
		t_eq "$name: ... changing nothing" "nop 1" "$("$FNTRACE" ctl $pid current_tracer) $("$FNTRACE" ctl $pid tracing_on)"
		t_eq "$name: ... no site enabled" "" "$("$FNTRACE" ctl $pid enabled_functions)"
	fi
	echo >&3
	t_ok "$name: it ends" waitfor $kind.out "$kind: not blocked:.*results right"
	"$FNTRACE" ctl $pid current_tracer function_graph 2>ctl.err
	t_eq "$name: then the switch is made" "0 " "$? $(cat ctl.err)"
	t_ok "$name: ... and traces the workers" traced function_graph
	"$FNTRACE" ctl $pid current_tracer nop
	finish $kind want_$kind.txt
done
done
