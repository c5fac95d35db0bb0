# Function triggers in set_ftrace_filter, the kernel's filter commands:
# set, listed and removed as in the kernel; a bad one refused in one line,
# changing nothing; counts exact when eight threads hit at once; live
# while the tracers are switched.  The function filter is never touched
# by a trigger, and a function it leaves out fires its trigger without
# being traced.  (tests/progs/triggers.c: threads calling
# outer -> inner -> hit -> leaf together, steps read from a FIFO.)

t_build gcc-pg "-O2 -fno-omit-frame-pointer" triggers "$top/tests/progs/triggers.c"
rm -f in && mkfifo in
"$FNTRACE" run -- ./triggers 8 <in >out.txt 2>err.txt &
pid=$!
exec 3>in
for i in $(seq 100); do t_endpoint "$pid" && break; sleep 0.1; done

ctl() { "$FNTRACE" ctl "$pid" "$@"; }
listing() { ctl set_ftrace_filter | tr '\n' ' ' | sed 's/ $//'; }
stacks() { ctl trace | grep -c '<stack trace>'; }
steps=0
# step WORDS: one step of the program, done once it says "ok".
step() {
	echo "$*" >&3
	steps=$((steps + 1))
	for i in $(seq 600); do
		[ "$(grep -c '^ok' out.txt)" -ge "$steps" ] && return 0
		sleep 0.05
	done
	echo "step '$*' never ended" >&2
	return 1
}

# ---- setting and listing ----
ctl set_ftrace_filter 'hit:stacktrace:5'
ctl set_ftrace_filter 'flip_off:traceoff flip_on:traceon:3'
t_eq "listed after the filter, as the kernel lists probes; not replaced by a write" \
	"#### all functions enabled #### hit:stacktrace:count=5 flip_off:traceoff:unlimited flip_on:traceon:count=3" \
	"$(listing)"
t_eq "with the tracer nop, only the triggers' sites are on" "flip_off (1) flip_on (1) hit (1)" \
	"$(ctl enabled_functions | sort | tr '\n' ' ' | sed 's/ $//')"

# ---- refusals: one line, nothing changed ----
before=$(listing)
while IFS='|' read -r bad why; do
	t_error "refused: '$bad'" 1 "set_ftrace_filter: $why" ctl set_ftrace_filter "$bad"
	t_eq "... nothing changed" "$before" "$(listing)"
done <<'EOF'
hit:bogus|no such command 'bogus'
hit:traceoff:x|bad count
hit:traceoff:-1|bad count
hit:stacktrace:99999999999|bad count
nosuch:traceoff|no such function: 'nosuch:traceoff'
leaf:mod:nosuchlib:traceoff|no such function
hit:snapshot_if_longer|bad duration (FUNC:snapshot_if_longer:USEC
hit:snapshot_if_longer:0|bad duration
hit:snapshot_if_longer:10:x|bad count
hit:dump:-1|bad count
!inner:traceon|no such trigger: '!inner:traceon'
:traceoff|empty filter
outer hit:bogus|no such command
hit:stacktrace:1 leaf:bogus|no such command
EOF
t_error "refused appended too" 1 "no such function" \
	"$FNTRACE" ctl --append "$pid" set_ftrace_filter 'leaf:traceon nosuch:traceon'
t_eq "... nothing changed" "$before" "$(listing)"

# ---- stacktrace: exact counts, eight threads at once ----
counts=
for round in 1 2 3 4 5; do
	ctl trace ''
	ctl set_ftrace_filter 'hit:stacktrace:5'	# set again: armed again
	step calls 40
	counts="$counts $(stacks)"
done
t_eq "stacktrace:5, 8 threads x 40 calls at once: 5 stacks, each round" " 5 5 5 5 5" "$counts"
t_ok "... and its count reads 0" sh -c "'$FNTRACE' ctl $pid set_ftrace_filter | grep -qx 'hit:stacktrace:count=0'"
# (mips keeps no chain: there, hit and the caller the hook was given.)
chain="=> hit => inner => outer => worker"
[ "${ARCH_FRAME_CHAIN:-1}" = 0 ] && chain="=> hit => inner"
t_eq "without a graph tracer, the frame-pointer chain: hit, its callers, the thread" \
	"$chain" \
	"$(ctl trace | awk 'n && $1 != "=>" { exit } /<stack trace>/ { n = 1; next } n { printf "%s%s %s", (n > 1) ? " " : "", $1, $2; if (++n > 4) exit }')"
ctl trace ''
ctl set_ftrace_filter 'hit:stacktrace'
step calls 3
t_eq "stacktrace with no count: every call" 24 "$(stacks)"
ctl set_ftrace_filter '!hit:stacktrace'
ctl trace ''
step calls 3
t_eq "removed with !: no more stacks" 0 "$(stacks)"
t_ok "... nor in the listing" sh -c "! '$FNTRACE' ctl $pid set_ftrace_filter | grep -q '^hit:'"

# ---- traceoff and traceon: the kernel's counts ----
ctl set_ftrace_filter 'flip_off:traceoff:2'
ctl tracing_on 0
step off
t_eq "traceoff:2 hit while tracing is off: nothing, the count kept" "0 flip_off:traceoff:count=2" \
	"$(ctl tracing_on) $(ctl set_ftrace_filter | grep '^flip_off')"
ctl tracing_on 1
step off
t_eq "... while on: off, one count taken" "0 flip_off:traceoff:count=1" \
	"$(ctl tracing_on) $(ctl set_ftrace_filter | grep '^flip_off')"
step on
t_eq "traceon:3 turns it on" "1 flip_on:traceon:count=2" \
	"$(ctl tracing_on) $(ctl set_ftrace_filter | grep '^flip_on')"
step off
step on
step off
t_eq "traceoff spent: tracing stays on" "1 flip_off:traceoff:count=0" \
	"$(ctl tracing_on) $(ctl set_ftrace_filter | grep '^flip_off')"
ctl set_ftrace_filter '!flip_off:traceoff:0 !flip_on:traceon'
ctl set_ftrace_filter 'hit:traceoff:3 leaf:traceon'
step calls 50
t_eq "hit:traceoff:3 against leaf:traceon from 8 threads: spent, never below 0, on at the end" \
	"1 hit:traceoff:count=0" "$(ctl tracing_on) $(ctl set_ftrace_filter | grep '^hit:')"
ctl set_ftrace_filter '!hit:traceoff !leaf:traceon'

# ---- the filter is the filter's ----
ctl set_ftrace_filter outer
ctl set_ftrace_filter 'hit:stacktrace:2'
t_eq "a write of triggers alone leaves the filter" "outer hit:stacktrace:count=2" "$(listing)"
ctl current_tracer function
ctl trace ''
step calls 1
ctl trace >function.txt
t_eq "function tracer: outer traced, hit not, hit's stacks there" "8 0 2" \
	"$(grep -c 'outer <-worker' function.txt) $(grep -c ' hit <-' function.txt) $(grep -c '<stack trace>' function.txt)"
ctl current_tracer function_graph
ctl set_ftrace_filter 'hit:stacktrace:2'
ctl trace ''
step calls 1
ctl trace >graph.txt
t_eq "function_graph: the shadow stack's frames, hit and outer, in a comment" \
	"=> hit|=> outer */" "$(awk '/<stack trace>/ { getline a; getline b; print a "|" b; exit }' graph.txt | sed 's/^ //; s/| /|/')"
t_eq "... and hit, inner, leaf not traced" 0 "$(grep -Ec '(hit|inner|leaf)\(\)' graph.txt)"
t_eq "... outer is, with the stacks inside two" "8 2" \
	"$(grep -Ec 'outer\(\)( \{|;)' graph.txt) $(grep -c 'outer() {' graph.txt)"
ctl set_ftrace_filter ''
t_eq "emptying the filter leaves the triggers" \
	"#### all functions enabled #### hit:stacktrace:count=0" "$(listing)"

# ---- live while the tracers switch, the threads calling ----
# A trigger is spent once its count reads 0: the trace itself, 16 MB of
# calls a second, soon holds other calls than its stacks.
ctl set_ftrace_filter 'outer hit:stacktrace inner:traceon'
touch hold
echo "hold hold" >&3
steps=$((steps + 1))
seen= nop_stacks=
for t in function function_graph nop function_graph function nop function function_graph; do
	ctl current_tracer $t
	ctl set_ftrace_filter 'hit:stacktrace:50'
	for i in $(seq 100); do
		ctl set_ftrace_filter | grep -qx 'hit:stacktrace:count=0' && break
		sleep 0.05
	done
	seen="$seen $t:$(ctl set_ftrace_filter | sed -n 's/^hit:stacktrace://p')"
	[ $t = nop ] && nop_stacks="$nop_stacks $(stacks)"
done
rm hold
for i in $(seq 600); do [ "$(grep -c '^ok' out.txt)" -ge "$steps" ] && break; sleep 0.05; done
t_eq "switched live, threads calling: stacktrace:50 spent under every tracer" \
	" function:count=0 function_graph:count=0 nop:count=0 function_graph:count=0 function:count=0 nop:count=0 function:count=0 function_graph:count=0" \
	"$seen"
t_eq "... with the tracer nop, the trace holds them" " 50 50" "$nop_stacks"
t_eq "... the program's round ended" "$steps" "$(grep -c '^ok' out.txt)"
ctl current_tracer nop
ctl set_ftrace_filter '!*:stacktrace !*:traceon'
t_eq "every trigger removed: the filter's words alone" "outer" "$(listing)"
t_eq "... and no site on" "" "$(ctl enabled_functions)"

# fntrace detach takes the triggers with the tracers: attached again, the
# process has none.  (Native only: qemu-user has no ptrace of a guest.)
if [ -z "$T_ARCH" ]; then
	ctl set_ftrace_filter 'hit:stacktrace:2 flip_off:traceoff'
	"$FNTRACE" detach $pid 2>/dev/null && "$FNTRACE" attach $pid 2>/dev/null
	t_eq "detach takes the triggers away: attached again, none, no site on" \
		"outer|" "$(listing)|$(ctl enabled_functions)"
fi

exec 3>&-
wait $pid
t_eq "the program ends as its own, every call made once" \
	"0 calls $(awk '$1 == "ok" { n += $3 } END { print n }' out.txt)" "$? $(tail -n 1 out.txt)"
