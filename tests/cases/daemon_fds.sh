# A service's start: it closes every descriptor it did not open (a close()
# loop, close_range, closefrom, CLOSE_RANGE_CLOEXEC and exec), puts its own
# over numbers it thinks free (dup2, dup3), listens where the runtime's
# socket was, uses its whole descriptor limit.  Under run, record, record -p
# and attach the control endpoint, the buffer and the recorder's files go
# on working, the program sees what it would see untraced (its first open()
# returns 3, its output and status are the same, every client it waits for
# reaches it), and the runtime's messages never land in its streams.
# The racy variant is daemon_fds_race.sh.

t_build gcc-nop -O2 daemon_fds "$top/tests/progs/daemon_fds.c"

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
	[ "$("$FNTRACE" ctl "$1" current_tracer)" = function ] &&
	"$FNTRACE" ctl "$1" trace_marker "after the closing" &&
	"$FNTRACE" ctl "$1" trace | grep -q "after the closing" &&
	"$FNTRACE" ctl "$1" current_tracer nop &&
	[ "$("$FNTRACE" ctl "$1" current_tracer)" = nop ]
}

# Requests that leave a recording as it is (record).
d_look() {
	[ "$("$FNTRACE" ctl "$1" current_tracer)" = function_graph ] &&
	[ "$("$FNTRACE" ctl "$1" tracing_on)" = 1 ] &&
	"$FNTRACE" ctl "$1" trace_marker "after the closing" &&
	"$FNTRACE" ctl "$1" available_filter_functions | grep -qx leaf
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
	case $how in
	run|attach|record-p) d_switch "$pid" >"$name.ctl" 2>&1 && echo ok >>"$name.ctl" ;;
	record) d_look "$pid" >"$name.ctl" 2>&1 && echo ok >>"$name.ctl" ;;
	esac
	case $how in record-p|attach) d_recorder "$pid" "$name" ;; esac
	touch "$d/go"
	if [ "$mode" = listen ]; then
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

for mode in loop range cloexec closefrom dup2 listen limit; do
	d_drive plain $mode
	t_eq "$mode: untraced, exit status" 7 "$(cat plain-$mode.rc)"
	for how in run record record-p attach; do
		d_drive $how $mode
		t_same "$mode, $how: the program's output as untraced" plain-$mode.prog $how-$mode.prog
		t_eq "$mode, $how: exit status as untraced" 7 "$(cat $how-$mode.rc)"
		t_eq "$mode, $how: every request after the closing served" ok \
			"$(tail -n 1 $how-$mode.ctl)"
		t_ok "$mode, $how: control never stopped" sh -c "! grep -q 'control:' $how-$mode.err"
		[ "$mode" = listen ] &&
			t_eq "$mode, $how: every client reached the program" 5 \
				"$(grep -c reached $how-$mode.clients)"
		[ "$how" = run ] && continue
		# Under record the exec'd image records too, into the buffer
		# whose descriptor survived CLOSE_RANGE_CLOEXEC.
		want=1000
		[ "$mode-$how" = cloexec-record ] && want=2000
		t_eq "$mode, $how: every call of leaf recorded" $want "$(d_leaf $how-$mode)"
	done
done
t_ok "plain: the first open() returns 3" grep -qx 'first open 3' plain-range.prog
t_ok "record: the marker sent after the closing is in the trace" \
	sh -c "'$FNTRACE' report -i record-range.data | grep -q 'after the closing'"

# The runtime's messages: never into the file the program put over its
# stderr; to the stderr it was started with, or under attach to the user
# who attached.
d_start_messages() {
	rm -rf msg.d && mkdir msg.d
	FNTRACE_DEBUG=1 "$@" ./daemon_fds stderr "$PWD/msg.d" >msg.out 2>msg.err &
	job=$!
	d_wait msg.out waiting && pid=$(cat msg.d/pid)
}
d_start_messages "$FNTRACE" run --
touch msg.d/close
d_wait msg.out closed
"$FNTRACE" ctl $pid current_tracer function
"$FNTRACE" ctl $pid messages >later.txt
touch msg.d/go
wait $job
t_eq "stderr: the program's data file has its own line only" "the program's own line" \
	"$(cat msg.d/data)"
t_ok "stderr: the runtime's later messages go to the stderr it started with" \
	grep -q 'fntrace: .*call sites from' msg.err
t_ok "stderr: ... and to ctl messages" grep -q 'fntrace: .*call sites from' later.txt

d_start_messages env
"$FNTRACE" attach $pid 2>attach.err
touch msg.d/close
d_wait msg.out closed
"$FNTRACE" ctl $pid current_tracer function
"$FNTRACE" ctl $pid messages >later.txt
touch msg.d/go
wait $job
t_ok "stderr, attach: the start-up's messages go to fntrace attach" \
	grep -q 'fntrace: .*call sites' attach.err
t_ok "stderr, attach: none into the target's stderr" sh -c '! grep -q fntrace: msg.err'
t_eq "stderr, attach: nor into its data file" "the program's own line" "$(cat msg.d/data)"
t_ok "stderr, attach: ctl messages hands each line out once" \
	sh -c '! grep -q "call sites" later.txt'
