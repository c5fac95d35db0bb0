# A process started plainly, attached, traced with
# function_graph and detached behaves as under fntrace run.  Each
# robustness program waits before main() (tests/progs/attach_gate.c) for
# the test to attach and switch the tracer on, and after main() for it to
# read the trace and detach: its output and exit status are the untraced
# ones, and, single-threaded, its graph is the one fntrace record makes.
# Only the wrappers' redirection through the GOT (src/core/interpose.c)
# makes longjmp, C++ exceptions, swapcontext, signals, dlopen,
# pthread_exit and pthread_cancel right in an attached process.

. "$top/tests/robust_lib.sh"

gate_src=$top/tests/progs/attach_gate.c
t_examples "$PWD/ex"
lib=$PWD/ex/libcalc.so

# gated SRC OUT [FLAVOUR]: r_build, with the gate linked in.
gated() {
	local src="$top/tests/progs/$1.c"
	[ -f "$src" ] || src=$top/tests/progs/$1.cpp
	t_build "${3:-gcc-pg}" -O2 "$2" "$src" "$gate_src"
}

# attached NAME PROG [ARGS...]: run PROG plainly, attach to it before its
# main(), trace it with function_graph, detach after; its output goes to
# NAME.att.out, its status to NAME.att.rc, the trace to NAME.att.txt, what
# fntrace said to NAME.att.err.
attached() {
	local name=$1 pid i; shift
	rm -f gate gate.done
	ATTACH_GATE=$PWD/gate "$@" >"$name.att.out" 2>"$name.att.err" &
	pid=$!
	t_running $pid "$1"
	{ "$FNTRACE" attach $pid && "$FNTRACE" ctl $pid buffer_size_kb 16384 &&
	  "$FNTRACE" ctl $pid current_tracer function_graph; } 2>>"$name.att.err"
	touch gate
	for i in $(seq 600); do [ -e gate.done ] && break; sleep 0.05; done
	"$FNTRACE" ctl $pid trace >"$name.att.txt" 2>>"$name.att.err"
	"$FNTRACE" detach $pid 2>>"$name.att.err"
	rm -f gate
	wait $pid
	echo $? >"$name.att.rc"
}

# check NAME WHAT [graph]: against the untraced run and fntrace record.
check() {
	t_eq "attach, $2: exit status as untraced" "$(cat "$1.rc")" "$(cat "$1.att.rc")"
	t_same "attach, $2: output as untraced" "$1.out" "$1.att.out"
	t_eq "attach, $2: nothing said but attach and detach" "" \
		"$(grep -v 'fntrace: \(attached to\|detached from\) process' "$1.att.err")"
	[ "${3:-}" = graph ] || return 0
	# From main() on: a C++ program's static constructors ran before the
	# gate, before the attach.
	t_graph_calls "$1.rec.txt" | sed -n '/^main() {$/,$p' >"$1.want.graph"
	t_graph_calls "$1.att.txt" >"$1.got.graph"
	t_same "attach, $2: the graph fntrace record makes" "$1.want.graph" "$1.got.graph"
}

# plain NAME PROG [ARGS...]: the untraced run (NAME.out, NAME.rc) and
# fntrace record's (NAME.rec.*).
plain() {
	local name=$1; shift
	"$@" >"$name.out" 2>/dev/null
	echo $? >"$name.rc"
	r_record "$name.rec" "$@"
}

# both NAME WHAT graph|- PROG [ARGS...]: plain, attached, checked.
both() {
	local name=$1 what=$2 graph=$3; shift 3
	plain "$name" "$@"
	attached "$name" "$@"
	check "$name" "$what" "$graph"
}

gated robust_longjmp lj
for mode in jmp sig; do both lj-$mode "longjmp ($mode)" graph ./lj $mode; done
gated robust_exceptions exc g++-pg
both exc "C++ exceptions" graph ./exc
gated robust_context ctx
for mode in direct nested; do both ctx-$mode "swapcontext ($mode)" graph ./ctx $mode; done
gated robust_signal signal
for mode in stack altstack; do both sig-$mode "signals ($mode)" graph ./signal $mode; done
gated robust_dlopen dlo
both dlo "dlopen and dlclose x50" graph ./dlo "$lib"

# Several threads: their lines interleave as they ran.
gated robust_threads threads
both threads "50 threads" - ./threads
t_eq "attach, 50 threads: every worker traced" 50 "$(grep -c 'worker() {' threads.att.txt)"
gated robust_pthread_exit pexit
both pexit "pthread_exit" - ./pexit
t_ok "attach, pthread_exit: the exiting thread's frames closed" \
	grep -q 'unwound' pexit.att.txt
gated robust_cancel cancel
both cancel "pthread_cancel" - ./cancel
gated robust_cancel_cxx cancelcxx g++-pg
both cancelcxx "pthread_cancel, C++ destructors" - ./cancelcxx

# fork: the child fills the buffer it inherited under its own pid, and the
# trace describes it with the parent's functions.
pid_calls() { grep -- "-$2 *|" "$1" | cut -d'|' -f3- | sed 's/^  //'; }
no_pids() { sed 's/^\(child\|parent\) [0-9]*/\1 PID/' "$1"; }
gated robust_fork fork
plain fork ./fork
attached fork ./fork
t_eq "attach, fork: exit status as untraced" "$(cat fork.rc)" "$(cat fork.att.rc)"
t_eq "attach, fork: output as untraced" "$(no_pids fork.out)" "$(no_pids fork.att.out)"
t_eq "attach, fork: nothing said but attach and detach" "" \
	"$(grep -v 'fntrace: \(attached to\|detached from\) process' fork.att.err)"
child=$(sed -n 's/^child \([0-9]*\) status .*/\1/p' fork.att.out)
parent=$(sed -n 's/^parent \([0-9]*\) .*/\1/p' fork.att.out)
printf 'child_work() {\n  leaf();\n  leaf();\n} /* child_work */\n' >want.txt
pid_calls fork.att.txt "$child" >got.txt
t_same "attach, fork: the child's calls under the child's pid" want.txt got.txt
printf 'main() {\n  split();\n  parent_work() {\n    leaf();\n  } /* parent_work */\n} /* main */\n' >want.txt
pid_calls fork.att.txt "$parent" >got.txt
t_same "attach, fork: the parent's calls under the parent's pid" want.txt got.txt

# record -p through the fork and the process's end: the child's events
# named with the parent's functions, nothing lost when the process goes.
rm -f gate gate.done
ATTACH_GATE=$PWD/gate ./fork >rp.out &
pid=$!
t_running $pid ./fork
"$FNTRACE" attach $pid 2>rp.err
# The gate opens once record -p has set its tracer: a fixed wait was too
# short on a loaded machine, and the child's calls came before it.
tracer_is() { [ "$("$FNTRACE" ctl $pid current_tracer 2>/dev/null)" = "$1" ]; }
{ n=0; until tracer_is function_graph || [ $n -ge 300 ]; do sleep 0.1; n=$((n + 1)); done
  touch gate; sleep 0.5; rm gate; } &
"$FNTRACE" record -p $pid -d 30 -o rp.data 2>>rp.err
t_eq "record -p, fork: succeeds though the process ended" 0 "$?"
wait
child=$(sed -n 's/^child \([0-9]*\) status .*/\1/p' rp.out)
"$FNTRACE" report -i rp.data >rp.txt 2>>rp.err
t_ok "record -p, fork: the report says the process went" grep -q 'gone while recorded' rp.txt
printf 'child_work() {\n  leaf();\n  leaf();\n} /* child_work */\n' >want.txt
pid_calls rp.txt "$child" >got.txt
t_same "record -p, fork: the child's calls under the child's pid" want.txt got.txt

# The same under fntrace run: the child's table is its funcs file.
rm -f gate gate.done
ATTACH_GATE=$PWD/gate "$FNTRACE" run -- ./fork >run.out 2>run.err &
for i in $(seq 100); do
	pid=$(sed -n 's/.*runs as pid \([0-9]*\).*/\1/p' run.err)
	[ -n "$pid" ] && t_endpoint "$pid" && break; sleep 0.1
done
"$FNTRACE" ctl $pid current_tracer function_graph
touch gate
for i in $(seq 600); do [ -e gate.done ] && break; sleep 0.05; done
"$FNTRACE" ctl $pid trace >run.txt 2>ctl.err
t_eq "run, fork: ctl trace reads the child's events" "0 " "$? $(cat ctl.err)"
child=$(r_tids run.txt | grep -vx "$pid")
printf 'child_work() {\n  leaf();\n  leaf();\n} /* child_work */\n' >want.txt
pid_calls run.txt "$child" >got.txt
t_same "run, fork: the child's calls under the child's pid" want.txt got.txt
rm -f gate
wait
