# Signals nest like interrupts: a handler that runs while its
# thread is inside the tracer is traced, in the thread's signal context,
# and where it cannot be (a signal inside a handler that interrupted the
# tracer, itself inside the tracer) its calls are counted lost: every
# call a handler made is in the report or in its lost count.  Main calls
# a tiny traced function in a tight loop, so most signals land in a hook;
# a handler may also jump out of the hook it interrupted.

. "$top/tests/robust_lib.sh"

# sn_hits REPORT FUNC: FUNC's hit count in a --stat report (0 if absent).
sn_hits() {
	awk -v f="$2" '$1 == f { n = $2 } END { print n + 0 }' "$1"
}

# sn_lost REPORT: the lost events a report states (0 if none).
sn_lost() {
	sed -n 's/^# lost events: //p' "$1" | grep . || echo 0
}

# sn_record NAME TRACER PROG [ARGS]: record, then the report and --stat.
# The buffer holds a whole run (tens of MB): a recorder starved on a busy
# machine must not drop main's events, whose loss, counted as it must be,
# would be mistaken for the handlers'.
sn_record() {
	local name=$1 tracer=$2; shift 2
	rm -rf "$name.data"
	"$FNTRACE" record -b 262144 -t "$tracer" -o "$name.data" -- "$@" \
		>"$name.out" 2>"$name.err"
	echo $? >"$name.rc"
	"$FNTRACE" report -i "$name.data" >"$name.txt" 2>&1
	"$FNTRACE" report -i "$name.data" --stat >"$name.stat" 2>&1
}

# sn_nested GRAPH_REPORT: every handler_call() sits right inside a handler
# (prints what does not).
sn_nested() {
	t_graph_calls "$1" | awk '
		/\(\) \{$/     { name[++d] = $1; next }
		/^ *\}/        { d--; next }
		/handler_call/ { if (name[d] != "on_alarm()" && name[d] != "on_prof()") print }'
}

# sn_check NAME TRACER: the run, and every call of the handlers reported.
sn_check() {
	local name=$1 tracer=$2 runs calls got
	runs=$(sed -n 's/^handler ran \([0-9]*\) times.*/\1/p' "$name.out")
	calls=$(sed -n 's/.* \([0-9]*\) traced calls in handlers$/\1/p' "$name.out")
	t_eq "$name: exit status" 0 "$(cat "$name.rc")"
	t_ok "$name: the handler ran" test "${runs:-0}" -ge 200
	got=$(( $(sn_hits "$name.stat" on_alarm) + $(sn_hits "$name.stat" on_prof) +
		$(sn_hits "$name.stat" handler_call) + $(sn_lost "$name.stat") ))
	t_eq "$name: every call in a handler reported or counted lost" "$calls" "$got"
	t_eq "$name: both reports count the same lost events" \
		"$(sn_lost "$name.stat")" "$(sn_lost "$name.txt")"
	[ "$tracer" = function_graph ] || return 0
	t_eq "$name: the graph nests" "" "$(r_all_nest "$name.txt")"
	t_eq "$name: handler calls nest in their handler" "" "$(sn_nested "$name.txt")"
}

# gcc-return: signals landing inside the hooks of return sites too.
for flavor in gcc-pg gcc-fentry gcc-nop gcc-patchable ${ARCH_RETURN_SITES:+gcc-return}; do
	t_build "$flavor" -O2 "sn-$flavor" "$top/tests/progs/signal_nesting.c" ||
		{ t_fail "signal nesting ($flavor): build"; continue; }
	for tracer in function function_graph; do
		name=sn-$flavor-$tracer
		sn_record "$name" "$tracer" "./sn-$flavor"
		sn_check "$name" "$tracer"
		# One level of nesting only: nothing may be lost.
		runs=$(sed -n 's/^handler ran \([0-9]*\) times.*/\1/p' "$name.out")
		t_eq "$name: every handler run traced" "${runs:-?}" "$(sn_hits "$name.stat" on_alarm)"
		t_eq "$name: five calls per run" "$(( ${runs:-0} * 5 ))" \
			"$(sn_hits "$name.stat" handler_call)"
		t_eq "$name: nothing lost" 0 "$(sn_lost "$name.stat")"
	done
done

# A second signal inside the first's handler: some calls counted lost.
for tracer in function function_graph; do
	sn_record "sn-deep-$tracer" "$tracer" ./sn-gcc-pg deep
	sn_check "sn-deep-$tracer" "$tracer"
done

# The handler jumps back into main (siglongjmp), abandoning the hook it
# interrupted: the abandoned event is counted lost, and the handler's
# calls, which ran in full, are all there, nested in the handler.
for tracer in function function_graph; do
	name=sn-jump-$tracer
	sn_record "$name" "$tracer" ./sn-gcc-pg jump
	runs=$(sed -n 's/^handler ran \([0-9]*\) times.*/\1/p' "$name.out")
	t_eq "$name: exit status" 0 "$(cat "$name.rc")"
	t_eq "$name: every handler run traced" "${runs:-?}" "$(sn_hits "$name.stat" on_alarm)"
	t_eq "$name: five calls per run" "$(( ${runs:-0} * 5 ))" \
		"$(sn_hits "$name.stat" handler_call)"
	[ "$tracer" = function ] ||
		t_eq "$name: handler calls nest in their handler" "" "$(sn_nested "$name.txt")"
done
