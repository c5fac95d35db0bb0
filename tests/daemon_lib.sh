# Helpers for the daemon_fds cases (tests/cases/robust/daemon_fds*.sh): the
# program of tests/progs/daemon_fds.c paced through a service's start,
# under each way fntrace can run it.  Sourced by the cases, after
# tests/lib.sh.

# d_wait FILE LINE: until FILE has the line (10 s).
d_wait() {
	for i in $(seq 400); do
		grep -qx "$2" "$1" 2>/dev/null && return 0
		sleep 0.025
	done
	echo "d_wait: no '$2' in $1" >&2
	return 1
}

# Requests that change the tracer and read the buffer (run, attach).
d_switch() {
	"$FNTRACE" ctl "$1" current_tracer function &&
	"$FNTRACE" ctl "$1" trace_marker "after the closing" &&
	"$FNTRACE" ctl "$1" trace | grep -q "after the closing" &&
	"$FNTRACE" ctl "$1" current_tracer nop
}

# Requests that leave a recording as it is (record).
d_look() {
	[ "$("$FNTRACE" ctl "$1" current_tracer)" = function_graph ] &&
	"$FNTRACE" ctl "$1" trace_marker "after the closing"
}

# d_recorder PID NAME: record -p into NAME.data until the process ends,
# started once the tracer is on.
d_recorder() {
	"$FNTRACE" record -p "$1" -o "$2.data" >"$2.rec.out" 2>"$2.rec" &
	rec=$!
	for i in $(seq 400); do
		[ "$("$FNTRACE" ctl "$1" current_tracer 2>/dev/null)" = function_graph ] && return 0
		sleep 0.025
	done
	return 1
}

# d_drive HOW MODE: the program through its steps, started as HOW says
# (plain, run, record, record-p, attach); results in HOW-MODE.*.
d_drive() {
	local how=$1 mode=$2 name=$1-$2 d=$PWD/$1-$2.d pid
	rm -rf "$d" "$name".* && mkdir -p "$d"
	rec=
	case $how in
	plain|attach) ./daemon_fds "$mode" "$d" >"$name.out" 2>"$name.err" & ;;
	run|record-p) "$FNTRACE" run -- ./daemon_fds "$mode" "$d" >"$name.out" 2>"$name.err" & ;;
	record) FNTRACE_CONTROL=1 "$FNTRACE" record -o "$name.data" -- ./daemon_fds "$mode" "$d" \
		>"$name.out" 2>"$name.err" & ;;
	esac
	job=$!
	d_wait "$name.out" waiting && pid=$(cat "$d/pid") || { kill $job; return 1; }
	[ "$how" = attach ] && "$FNTRACE" attach "$pid" 2>"$name.attach"
	touch "$d/close"
	d_wait "$name.out" closed
	# After a raw close_range the endpoint is gone until its thread wakes
	# (docs/design.md): no requests then.
	case $mode-$how in
	raw-*) ;;
	*-run|*-attach|*-record-p) d_switch "$pid" >"$name.ctl" 2>&1 && echo ok >>"$name.ctl" ;;
	*-record) d_look "$pid" >"$name.ctl" 2>&1 && echo ok >>"$name.ctl" ;;
	esac
	case $mode-$how in raw-*) ;; *-record-p|*-attach) d_recorder "$pid" "$name" ;; esac
	touch "$d/go"
	if [ "$mode" = listen ] || [ "$mode" = raw ]; then
		for i in 1 2 3 4 5; do ./daemon_fds client "$d/sock" && echo reached; done >"$name.clients"
	fi
	wait $job
	echo $? >"$name.rc"
	[ -z "$rec" ] || wait $rec
	grep -v '^#' "$name.out" >"$name.prog"
}

# d_leaf NAME: how many calls of leaf NAME.data holds.
d_leaf() {
	"$FNTRACE" report -i "$1.data" --stat 2>/dev/null | awk '$1 == "leaf" { print $2 }'
}

# d_check MODE...: each mode untraced, then under run, record, record -p
# and attach; the program must not tell the difference, and every request
# and every call must get through.
d_check() {
	local mode how
	for mode in "$@"; do
		d_drive plain $mode
		t_eq "${D_TAG:-}$mode: untraced, exit status" 7 "$(cat plain-$mode.rc)"
		for how in run record record-p attach; do
			d_drive $how $mode
			d_check_one $how $mode
		done
	done
}

# d_check_one HOW MODE: what d_drive HOW MODE left, checked.
d_check_one() {
	local how=$1 mode=$2 want
	t_same "${D_TAG:-}$mode, $how: the program's output as untraced" plain-$mode.prog $how-$mode.prog
	t_eq "${D_TAG:-}$mode, $how: exit status as untraced" 7 "$(cat $how-$mode.rc)"
	t_eq "${D_TAG:-}$mode, $how: every request after the closing served" ok \
		"$(tail -n 1 $how-$mode.ctl)"
	t_ok "${D_TAG:-}$mode, $how: control never stopped" sh -c "! grep -q 'control:' $how-$mode.err"
	{ [ "$mode" = listen ] || [ "$mode" = raw ]; } &&
		t_eq "${D_TAG:-}$mode, $how: every client reached the program" 5 \
			"$(grep -c reached $how-$mode.clients)"
	[ "$how" = run ] && return 0
	# Under record the exec'd image records too, into the buffer
	# whose descriptor survived CLOSE_RANGE_CLOEXEC.
	want=1000
	[ "$mode-$how" = cloexec-record ] && want=2000
	t_eq "${D_TAG:-}$mode, $how: every call of leaf recorded" $want "$(d_leaf $how-$mode)"
}
