# Under live switching: each robustness program runs under
# fntrace run while its tracer is switched between function_graph,
# function and nop as fast as fntrace ctl can, from before it starts
# working to its end.  Whatever the switches met (a longjmp, a throw, a
# signal, a fork, a dlopen, deep recursion), the program gives its
# untraced output and exit status, and the runtime says nothing.

. "$top/tests/robust_lib.sh"

t_examples "$PWD/ex"
r_build robust_deep deep
r_build robust_tail tail
r_build robust_dlopen dlo
r_build robust_longjmp lj
r_build robust_exceptions exc g++-pg
r_build robust_context ctx
r_build robust_fork fork
r_build robust_signal signal
r_build robust_signal_storm storm
r_build robust_threads threads
r_build robust_pthread_exit pexit

# toggle PID: switch tracers until the process ends (each switch is one
# connection, a few milliseconds).
toggle() {
	while kill -0 "$1" 2>/dev/null; do
		for tracer in function_graph nop function nop; do
			"$FNTRACE" ctl "$1" current_tracer $tracer 2>/dev/null || return 0
		done
	done
}

# live NAME PROG [ARGS...]: three runs switched live against an untraced one.
live() {
	local name=$1 i bad=""; shift
	"$@" >"$name.want" 2>/dev/null
	echo $? >"$name.want.rc"
	for i in 1 2 3; do
		"$FNTRACE" run -- "$@" >"$name.out" 2>"$name.err" &
		pid=$!
		toggle $pid
		wait $pid
		echo $? >"$name.rc"
		# pids differ from run to run
		sed 's/[0-9]\{3,\}/N/g' "$name.want" >"$name.want.n"
		sed 's/[0-9]\{3,\}/N/g' "$name.out" >"$name.out.n"
		cmp -s "$name.want.n" "$name.out.n" || bad="$bad output($i)"
		cmp -s "$name.want.rc" "$name.rc" || bad="$bad status($i)"
		grep -v "runs as pid" "$name.err" | grep -q . && bad="$bad said($i): $(grep -v 'runs as pid' "$name.err" | head -n 1)"
	done
	t_eq "live switching: $name" "" "${bad# }"
}

live deep ./deep 3000
live tail ./tail
live dlopen ./dlo "$PWD/ex/libcalc.so"
live longjmp ./lj jmp
live siglongjmp ./lj sig
live exceptions ./exc
live swapcontext ./ctx nested
live fork ./fork
live signals ./signal stack
live sigaltstack ./signal altstack
live signal-storm ./storm
live threads ./threads
live pthread_exit ./pexit
