# Crash snapshots under fntrace run --dump-on-oops=DIR (the kernel's
# ftrace_dump_on_oops): a program that dies of SIGSEGV, SIGBUS, SIGILL,
# SIGFPE or SIGABRT leaves DIR/snapshot.1, its ring's last window, which
# says "crash", the signal and the crashing thread; its pid is run's, and
# its output, wait status and core dump are those of the untraced run.
# The keeper that holds the ring is no child of the program, and ends with
# it; a program that ends well, or recovers in its own handler, leaves
# nothing.

. "$top/tests/crash_lib.sh"

# dumped DIR ARG...: crash_threads ARG... under fntrace run --dump-on-oops
# =DIR/dump, in DIR, function_graph switched on before its crash (held
# until DIR/go exists), to its end and its keeper's; its pid in $pid, the
# keeper's in $keeper if it outlived it by 10 s.
dumped() {
	local dir=$1 i
	shift
	(cd "$dir" && CRASH_THREADS_GO=$PWD/go exec ../wait_status "$FNTRACE" run \
		--dump-on-oops=dump -- ../crash_threads "$@" >out 2>err) &
	pid=
	for i in $(seq 400); do
		pid=$(sed -n 's/^fntrace: .* runs as pid //p' "$dir/err" 2>/dev/null)
		[ -n "$pid" ] && t_endpoint "$pid" && break
		sleep 0.05
	done
	"$FNTRACE" ctl "$pid" current_tracer function_graph
	oops=$("$FNTRACE" ctl "$pid" ftrace_dump_on_oops)
	touch "$dir/go"
	wait
	keeper=$(kept)
}

# kept: the keeper, until it ends (10 s at most): its pid, or nothing
# once it has ended.
kept() {
	local i
	for i in $(seq 200); do
		pgrep -f -- "--dump-on-oops=dump -- ../crash_threads" >/dev/null || return 0
		sleep 0.05
	done
	pgrep -f -- "--dump-on-oops=dump -- ../crash_threads"
}

for kind in segv bus ill fpe abrt; do
	mkdir "un-$kind" "tr-$kind"
	(cd "un-$kind" && ../wait_status ../crash_threads "$kind" >out 2>status)
	dumped "tr-$kind" "$kind"
	want=$(cat "un-$kind/status")
	sig=$(echo "$want" | awk '{ print $3 }')
	d=tr-$kind/dump/snapshot.1
	t_eq "$kind: ftrace_dump_on_oops on from the start" 1 "$oops"
	t_ok "$kind: untraced, it dies of a signal" test -n "$sig"
	t_same "$kind: its output as untraced" "un-$kind/out" "tr-$kind/out"
	t_eq "$kind: its wait status as untraced (the core dump bit too)" "$want" \
		"$(status_of "tr-$kind")"
	t_eq "$kind: a core file as untraced" "$(cores "un-$kind")" "$(cores "tr-$kind")"
	t_eq "$kind: the keeper ended with it" "" "$keeper"
	t_eq "$kind: one snapshot, its tables' place gone" "$d" \
		"$(ls -d "tr-$kind"/dump/snapshot.* "tr-$kind"/dump.tables-* 2>/dev/null)"
	t_eq "$kind: its reason is a crash" crash "$(sed -n 's/^snapshot_reason: //p' "$d/info")"
	why=$(sed -n 's/^snapshot_why: //p' "$d/info")
	t_ok "$kind: it names the signal, the crashing thread and run's pid ($why)" \
		expr "$why" : "$sig in thread [0-9]* (crasher) of pid $pid[, ]"
	t_eq "$kind: the flight file names run's pid" "$pid" \
		"$(sed -n 's/^pid: //p' "tr-$kind/dump/flight")"
	crash_exit_said "$kind" "$d" "$want"
	tid=$(echo "$why" | awk '{ print $4 }')
	crash_window "$kind" "$d" "$tid"
	t_ok "$kind: the keeper's line says where" \
		grep -q "^fntrace: snapshot 1 (a crash: $sig in thread $tid (crasher).* -> .*/tr-$kind/dump/snapshot.1\$" \
		"tr-$kind/err"
done

# A program that ends well: nothing written, nothing left running, no
# child of its own to find, no SIGCHLD.
mkdir un-well tr-well
(cd un-well && ../wait_status ../crash_threads children >out 2>status)
dumped tr-well children
t_eq "well: untraced, no child and no SIGCHLD" "wait: no child; SIGCHLD not pending" \
	"$(cat un-well/out)"
t_same "well: the same under the keeper" un-well/out tr-well/out
t_eq "well: its status" "status 0" "$(status_of tr-well)"
t_eq "well: the keeper ended with it" "" "$keeper"
t_eq "well: nothing written, nothing left" "" "$(ls -d tr-well/dump* 2>/dev/null)"

# Its own SIGSEGV handler (a GC's write barrier): every fault mended,
# nothing written.
mkdir un-recover tr-recover
(cd un-recover && ../wait_status ../crash_threads recover 300 >out 2>status)
dumped tr-recover recover 300
t_same "recover: its output as untraced" un-recover/out tr-recover/out
t_eq "recover: its status" "status 0" "$(status_of tr-recover)"
t_eq "recover: nothing written" "" "$(ls -d tr-recover/dump* 2>/dev/null)"

# A forked child's crash: its snapshot at its time; the program goes on,
# ends well, and writes nothing more.
mkdir un-child tr-child
(cd un-child && ../wait_status ../crash_threads child >out 2>status)
dumped tr-child child
d=tr-child/dump
t_same "child: the program's output as untraced" un-child/out tr-child/out
t_eq "child: its status" "status 0" "$(status_of tr-child)"
t_eq "child: one snapshot, for the crash" "$d/snapshot.1 crash" \
	"$(ls -d "$d"/snapshot.*) $(sed -n 's/^snapshot_reason: //p' "$d/snapshot.1/info")"
why=$(sed -n 's/^snapshot_why: //p' "$d/snapshot.1/info")
t_ok "child: ... of the child's thread ($why)" \
	expr "$why" : "SIGSEGV in thread \([0-9]*\) (crasher) of pid \1, address 0x0, "
t_ok "child: ... holding its last calls" \
	sh -c "'$FNTRACE' report -i '$d/snapshot.1' | grep -q -- '-$(echo "$why" | awk '{ print $4 }') *|.* do_segv()'"

# SIGSEGV while blocked: no thread could stamp; the kernel's exit status
# says it crashed.
mkdir un-blocked tr-blocked
(cd un-blocked && ../wait_status ../crash_threads blocked >out 2>status)
dumped tr-blocked blocked
t_eq "blocked: its wait status as untraced" "$(cat un-blocked/status)" "$(status_of tr-blocked)"
if [ "$kernel" -ge 6015 ]; then
	t_eq "blocked: a crash, no thread to say it" "crash SIGSEGV: no thread said it" \
		"$(sed -n 's/^snapshot_reason: //p; s/^snapshot_why: \(SIGSEGV: no thread said it\) (.*/\1/p' \
		   tr-blocked/dump/snapshot.1/info | tr '\n' ' ' | sed 's/ $//')"
else
	t_skip "blocked: a crash, no thread to say it" "Linux $(uname -r) keeps no exit status for a pidfd"
fi

mkdir mine
t_error "--dump-on-oops: a directory not fntrace's, refused" 1 \
	"mine exists and is not an fntrace recording" \
	"$FNTRACE" run --dump-on-oops=mine -- ./crash_threads children
t_ok "run --help: --dump-on-oops, with an example" sh -c \
	"'$FNTRACE' run --help | grep -q -- '--dump-on-oops=DIR' &&
	 '$FNTRACE' run --help | grep -q 'fntrace run --dump-on-oops=crash -- ./server &'"
