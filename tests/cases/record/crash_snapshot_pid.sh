# Crash snapshots under record -p PID --overwrite: while the recorder is
# attached, ftrace_dump_on_oops is on, and a program (started with fntrace
# run) that dies of SIGSEGV, SIGBUS, SIGILL, SIGFPE or SIGABRT leaves a
# last snapshot that says "crash", the signal and the crashing thread;
# its output, wait status and core dump are those of the untraced run.
# A program with its own SIGSEGV handler keeps it.  Once the recorder has
# detached, the program's dispositions are as the kernel held them before
# (not a bit of ours left), and a crash is the untraced one, with nothing
# written.

. "$top/tests/crash_lib.sh"

# started DIR ARG...: crash_threads ARG... under fntrace run, in DIR,
# holding its crash until DIR/go exists; its pid in $pid once its
# control endpoint is there.
started() {
	local dir=$1 i
	shift
	(cd "$dir" && CRASH_THREADS_GO=$PWD/go exec ../wait_status "$FNTRACE" run -- \
		../crash_threads "$@" >out 2>err) &
	pid=
	for i in $(seq 400); do
		pid=$(sed -n 's/^fntrace: .* runs as pid //p' "$dir/err" 2>/dev/null)
		[ -n "$pid" ] && t_endpoint "$pid" && return 0
		sleep 0.05
	done
	echo "started: crash_threads $* never ran" >&2
}

# attached DIR [OPTION...]: record -p --overwrite of $pid into DIR/fl.data,
# in $rec, once it traces.
attached() {
	local dir=$1 i
	shift
	"$FNTRACE" record -p "$pid" --overwrite -o "$dir/fl.data" "$@" 2>"$dir/rec.err" &
	rec=$!
	for i in $(seq 400); do
		[ "$("$FNTRACE" ctl "$pid" current_tracer 2>/dev/null)" = function_graph ] && return 0
		sleep 0.05
	done
}

for kind in segv bus ill fpe abrt; do
	mkdir "un-$kind" "tr-$kind"
	(cd "un-$kind" && ../wait_status ../crash_threads "$kind" >out 2>status)
	started "tr-$kind" "$kind"
	attached "tr-$kind"
	t_eq "$kind: ftrace_dump_on_oops on while recorded" 1 \
		"$("$FNTRACE" ctl "$pid" ftrace_dump_on_oops)"
	touch "tr-$kind/go"
	wait "$rec"
	t_eq "$kind: the recorder ends well" 0 "$?"
	wait
	want=$(cat "un-$kind/status")
	sig=$(echo "$want" | awk '{ print $3 }')
	d=tr-$kind/fl.data/snapshot.1
	t_ok "$kind: untraced, it dies of a signal" test -n "$sig"
	t_same "$kind: its output as untraced" "un-$kind/out" "tr-$kind/out"
	t_eq "$kind: its wait status as untraced (the core dump bit too)" "$want" \
		"$(status_of "tr-$kind")"
	t_eq "$kind: a core file as untraced" "$(cores "un-$kind")" "$(cores "tr-$kind")"
	t_eq "$kind: one snapshot, the last" "$d" "$(ls -d "tr-$kind"/fl.data/snapshot.*)"
	t_eq "$kind: its reason is a crash" crash "$(sed -n 's/^snapshot_reason: //p' "$d/info")"
	why=$(sed -n 's/^snapshot_why: //p' "$d/info")
	t_ok "$kind: it names the signal, the crashing thread and its process ($why)" \
		expr "$why" : "$sig in thread [0-9]* (crasher) of pid $pid[, ]"
	crash_exit_said "$kind" "$d" "$want"
	tid=$(echo "$why" | awk '{ print $4 }')
	crash_window "$kind" "$d" "$tid"
	t_ok "$kind: the recorder's line says so" \
		grep -q "^fntrace: snapshot 1 (a crash: $sig in thread $tid (crasher)" "tr-$kind/rec.err"
done

# Its own SIGSEGV handler, set before the recorder came (a GC's write
# barrier): left alone, every fault mended, no snapshot per fault.
mkdir un-recover tr-recover
(cd un-recover && ../wait_status ../crash_threads recover 300 >out 2>status)
started tr-recover recover 300
attached tr-recover
touch tr-recover/go
wait "$rec"
wait
t_eq "recover: untraced, it ends well" "status 0" "$(cat un-recover/status)"
t_same "recover: its output as untraced" un-recover/out tr-recover/out
t_eq "recover: its status" "status 0" "$(status_of tr-recover)"
t_eq "recover: one snapshot, at the end" "tr-recover/fl.data/snapshot.1" \
	"$(ls -d tr-recover/fl.data/snapshot.*)"
t_eq "recover: its reason is the end" end \
	"$(sed -n 's/^snapshot_reason: //p' tr-recover/fl.data/snapshot.1/info)"
t_eq "recover: every fault's call traced" 300 \
	"$("$FNTRACE" report -i tr-recover/fl.data/snapshot.1 --stat --csv |
	   awk -F, '$1 == "touch_guarded" { print $2 }')"

# A crash after the recorder detached (-d): its handler gone, the
# dispositions as the kernel held them (flags too), the crash the
# untraced one, nothing more written.
mkdir un-detached tr-detached
(cd un-detached && ../wait_status ../crash_threads detached >out 2>status)
started tr-detached detached
t_eq "detached: ftrace_dump_on_oops off before" 0 "$("$FNTRACE" ctl "$pid" ftrace_dump_on_oops)"
# Three seconds: the check below, an ASan build of fntrace on a loaded
# machine, came after a one-second recording had ended.
attached tr-detached -d 3
t_eq "detached: on while recorded" 1 "$("$FNTRACE" ctl "$pid" ftrace_dump_on_oops)"
wait "$rec"
t_eq "detached: the recorder ends well" 0 "$?"
t_eq "detached: off once it detached" 0 "$("$FNTRACE" ctl "$pid" ftrace_dump_on_oops)"
t_error "ftrace_dump_on_oops: a value it cannot be, refused" 1 \
	"not 0 (off) or 1 (a crash stamps the ring): '2'" \
	"$FNTRACE" ctl "$pid" ftrace_dump_on_oops 2
touch tr-detached/go
wait
t_ok "detached: untraced, the kernel holds the default" \
	grep -q "^SIGSEGV in the kernel: default; as libc reads it: default, flags 0\$" un-detached/out
t_same "detached: the same, every bit, after the recorder" un-detached/out tr-detached/out
t_eq "detached: its wait status as untraced" "$(cat un-detached/status)" "$(status_of tr-detached)"
t_eq "detached: a core file as untraced" "$(cores un-detached)" "$(cores tr-detached)"
t_eq "detached: nothing written after the recording's last window" \
	"tr-detached/fl.data/snapshot.1 stopped" \
	"$(ls -d tr-detached/fl.data/snapshot.*) $(sed -n 's/^snapshot_reason: //p' \
	   tr-detached/fl.data/snapshot.1/info)"

t_ok "record --help: a crash under -p --overwrite, with an example" sh -c \
	"'$FNTRACE' record --help | grep -q 'with -p, while it records: the process.s' &&
	 '$FNTRACE' record --help | grep -q 'if 4242 crashes meanwhile, flight/snapshot.N is its'"
t_ok "ctl --help: the ftrace_dump_on_oops file" sh -c \
	"'$FNTRACE' ctl --help | grep -q '^  ftrace_dump_on_oops (1: a crash tells'"
