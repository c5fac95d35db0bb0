# Crash snapshots (the kernel's ftrace_dump_on_oops): a multi-threaded
# program that dies of SIGSEGV, SIGBUS, SIGILL, SIGFPE or SIGABRT under
# record --overwrite leaves a last snapshot that says "crash", the
# signal and the crashing thread, and holds that thread's last calls and
# the other threads' windows; the program's output, exit status and core
# dump are those of the same program run untraced.  A program that
# recovers from SIGSEGV in its own handler runs as untraced, with no
# snapshot per fault.

. "$top/tests/crash_lib.sh"

for kind in segv bus ill fpe abrt; do
	mkdir "un-$kind" "tr-$kind"
	(cd "un-$kind" && ../wait_status ../crash_threads "$kind" >out 2>status)
	(cd "tr-$kind" && "$FNTRACE" record --overwrite -b 1024 -o fl.data -- ../crash_threads "$kind" \
		>out 2>rec.err; echo $? >rc)
	want=$(cat "un-$kind/status")
	sig=$(echo "$want" | awk '{ print $3 }')
	num=$(echo "$want" | awk '{ print $2 }')
	d=tr-$kind/fl.data/snapshot.1
	t_ok "$kind: untraced, it dies of a signal" test -n "$sig"
	t_same "$kind: its output as untraced" "un-$kind/out" "tr-$kind/out"
	t_eq "$kind: fntrace's status, 128 + the signal" "$((128 + num))" "$(cat "tr-$kind/rc")"
	t_eq "$kind: the program's wait status as untraced (the core dump bit too)" "$want" \
		"$(sed -n 's/^exit: //p' "$d/info")"
	t_eq "$kind: a core file as untraced" "$(cores "un-$kind")" "$(cores "tr-$kind")"
	t_eq "$kind: one snapshot, the last" "$d" "$(ls -d "tr-$kind"/fl.data/snapshot.*)"
	t_eq "$kind: its reason is a crash" crash "$(sed -n 's/^snapshot_reason: //p' "$d/info")"
	pid=$(sed -n 's/^pid: //p' "tr-$kind/fl.data/flight")
	why=$(sed -n 's/^snapshot_why: //p' "$d/info")
	t_ok "$kind: it names the signal, the crashing thread and its process ($why)" \
		expr "$why" : "$sig in thread [0-9]* (crasher) of pid $pid[, ]"
	[ "$kind" = segv ] && t_ok "segv: ... and the address it wrote to" expr "$why" : ".*, address 0x0, "
	tid=$(echo "$why" | awk '{ print $4 }')
	crash_window "$kind" "$d" "$tid"
	"$FNTRACE" info -i "$d" >"tr-$kind/info"
	t_ok "$kind: info says it crashed" grep -q "^why  *a crash: the ring's window once" "tr-$kind/info"
	t_ok "$kind: ... and how" grep -q "^  *$sig in thread $tid (crasher)" "tr-$kind/info"
	t_ok "$kind: ... and every thread's window (main, two workers, the crasher)" \
		test "$(awk '/^the window/ { on = 1; next } on && /^$/ { on = 0 } on && $1 ~ /^[0-9]+$/' \
			"tr-$kind/info" | wc -l)" -eq 4
	t_ok "$kind: the recorder's line says so" \
		grep -q "^fntrace: snapshot 1 (a crash: $sig in thread $tid (crasher)" "tr-$kind/rec.err"
done

# SIGSEGV while the thread blocks it: the kernel kills the process at
# once, no handler runs, and the snapshot says so from the wait status.
mkdir un-blocked tr-blocked
(cd un-blocked && ../wait_status ../crash_threads blocked >out 2>status)
(cd tr-blocked && "$FNTRACE" record --overwrite -b 1024 -o fl.data -- ../crash_threads blocked \
	>out 2>rec.err)
t_eq "blocked: the wait status as untraced" "$(cat un-blocked/status)" \
	"$(sed -n 's/^exit: //p' tr-blocked/fl.data/snapshot.1/info)"
t_eq "blocked: a crash, no thread to say it" "crash SIGSEGV: no thread said it" \
	"$(sed -n 's/^snapshot_reason: //p; s/^snapshot_why: \(SIGSEGV: no thread said it\) (.*/\1/p' \
	   tr-blocked/fl.data/snapshot.1/info | tr '\n' ' ' | sed 's/ $//')"
t_ok "blocked: still holds the crashing thread's last calls" \
	sh -c "'$FNTRACE' report -i tr-blocked/fl.data/snapshot.1 | grep -q ' do_blocked() {'"

# A forked child's crash does not end the program: its snapshot is taken
# at its time (the recorder's watcher wakes on the stamp), and the last
# one, at the program's end, recalls it.
mkdir un-child tr-child
(cd un-child && ../wait_status ../crash_threads child >out 2>status)
(cd tr-child && "$FNTRACE" record --overwrite -b 1024 -o fl.data -- ../crash_threads child \
	>out 2>rec.err; echo $? >rc)
d=tr-child/fl.data
t_same "child: the program's output as untraced" un-child/out tr-child/out
t_eq "child: its status" "status 0 0" "$(cat un-child/status) $(cat tr-child/rc)"
t_eq "child: a snapshot at the crash, then the last" "$d/snapshot.1 $d/snapshot.2" \
	"$(echo $(ls -d "$d"/snapshot.*))"
why=$(sed -n 's/^snapshot_why: //p' "$d/snapshot.1/info")
t_eq "child: the first for the crash" crash "$(sed -n 's/^snapshot_reason: //p' "$d/snapshot.1/info")"
t_ok "child: ... of the child's thread ($why)" \
	expr "$why" : "SIGSEGV in thread \([0-9]*\) (crasher) of pid \1, address 0x0, "
t_ok "child: ... holding its last calls" \
	sh -c "'$FNTRACE' report -i '$d/snapshot.1' | grep -q -- '-$(echo "$why" | awk '{ print $4 }') *|.* do_segv()'"
t_eq "child: the last one recalls it" "end an earlier crash: $why" \
	"$(sed -n 's/^snapshot_reason: //p; s/^snapshot_why: //p' "$d/snapshot.2/info" | tr '\n' ' ' |
	   sed 's/ $//')"

# A program with its own SIGSEGV handler, which mends the page and goes
# on (a GC's write barrier): it reads the default back while ours stands
# in, gets its own handler alone, and no snapshot is taken per fault.
mkdir un-recover tr-recover
(cd un-recover && ../wait_status ../crash_threads recover 500 >out 2>status)
(cd tr-recover && "$FNTRACE" record --overwrite -b 1024 -o fl.data -- ../crash_threads recover 500 \
	>out 2>rec.err; echo $? >rc)
t_eq "recover: untraced, it ends well" "status 0" "$(cat un-recover/status)"
t_same "recover: its output as untraced (the default read back)" un-recover/out tr-recover/out
t_eq "recover: its status" 0 "$(cat tr-recover/rc)"
t_eq "recover: one snapshot, at the end" "tr-recover/fl.data/snapshot.1" \
	"$(ls -d tr-recover/fl.data/snapshot.*)"
t_eq "recover: its reason is the end" end \
	"$(sed -n 's/^snapshot_reason: //p' tr-recover/fl.data/snapshot.1/info)"
t_eq "recover: every fault's call traced" 500 \
	"$("$FNTRACE" report -i tr-recover/fl.data/snapshot.1 --stat --csv |
	   awk -F, '$1 == "touch_guarded" { print $2 }')"

# --snapshot-signal=SIG: the program getting SIG takes a snapshot first,
# then what the program set happens: its handler, or the default action.
for how in signal handled; do
	mkdir "un-$how" "tr-$how"
	(cd "un-$how" && ../wait_status ../crash_threads "$how" USR2 >out 2>status)
	(cd "tr-$how" && "$FNTRACE" record --overwrite --snapshot-signal=USR2 -b 1024 -o fl.data -- \
		../crash_threads "$how" USR2 >out 2>rec.err; echo $? >rc)
	d=tr-$how/fl.data
	t_same "$how: the program's output as untraced" "un-$how/out" "tr-$how/out"
	t_eq "$how: its wait status as untraced" "$(cat "un-$how/status")" \
		"$(sed -n 's/^exit: //p' "$d/snapshot.2/info")"
	t_eq "$how: a snapshot for the signal, then the last" "$d/snapshot.1 $d/snapshot.2" \
		"$(echo $(ls -d "$d"/snapshot.*))"
	t_eq "$how: the first asked by the program" program \
		"$(sed -n 's/^snapshot_reason: //p' "$d/snapshot.1/info")"
	t_eq "$how: ... for the signal" "signal SIGUSR2" \
		"$(sed -n 's/^snapshot_why: //p' "$d/snapshot.1/info")"
	t_ok "$how: ... holding the calls before it" \
		sh -c "'$FNTRACE' report -i '$d/snapshot.1' | grep -q ' before_signal();'"
done
t_eq "handled: its status" 0 "$(cat tr-handled/rc)"
t_eq "signal: fntrace's status, 128 + the signal" "$((128 + $(awk '{ print $2 }' un-signal/status)))" \
	"$(cat tr-signal/rc)"

t_error "--snapshot-signal: a signal that cannot be one, refused" 2 \
	"bad --snapshot-signal: 'KILL' (one of HUP, INT, QUIT, USR1, USR2" \
	"$FNTRACE" record --overwrite --snapshot-signal=KILL -- ./crash_threads signal
t_error "--snapshot-signal: without --overwrite, refused" 2 \
	"--snapshot-signal needs --overwrite and a program to run" \
	"$FNTRACE" record --snapshot-signal=USR2 -- ./crash_threads signal
