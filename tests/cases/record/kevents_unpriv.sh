# record -e where the kernel's events cannot be had: by nobody, with
# kernel.perf_event_paranoid at 2 for the case (put back after), then at
# -1 with tracefs root's; by root with no tracefs mounted (in a mount
# namespace of the case's own).  One line says what is missing and how to
# allow it; the function trace is recorded as without -e, and the
# program's exit status passed on.

. "$top/tests/kev_lib.sh"
if [ "$(id -u)" != 0 ]; then
	t_skip "kernel events refused" "not root: cannot run as nobody or set perf_event_paranoid"
	return 0
fi
kev_tracefs || { t_fail "tracefs" "could not be mounted"; return 0; }
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
trap 'echo "$paranoid" >/proc/sys/kernel/perf_event_paranoid; kev_untracefs' EXIT

t_build gcc-pg -O2 kev_waits "$top/tests/progs/kev_waits.c"
# nobody must reach the case's directory: the run's is private to root.
d=$PWD
while :; do
	chmod o+x "$d"
	case $d in "$RUN_TMP"|"$RUN_TMP"/) break ;; "$RUN_TMP"/*) d=${d%/*} ;; *) break ;; esac
done
mkdir -m 777 out
as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"

# kev_refused NAME PATTERN: record -e as nobody, the line matching PATTERN.
kev_refused() {
	local name=$1
	rm -rf out/k.data
	$as_nobody "$FNTRACE" record -e sched -e syscalls -o out/k.data -- ./kev_waits 1 \
		>"$name.out" 2>"$name.err"
	t_eq "$name: the program's exit status" 0 "$?"
	t_eq "$name: one line on what is missing, then the summary" 2 "$(wc -l <"$name.err")"
	t_ok "$name: it says what and how" grep -qE "$2" "$name.err"
	t_ok "$name: the summary as ever" grep -q '^fntrace: recorded 10 calls' "$name.err"
	t_ok "$name: no kevents file" test ! -e out/k.data/kevents
	"$FNTRACE" info -i out/k.data >"$name.info"
	t_ok "$name: info says none, and what was asked" grep -qE \
		'^kernel events +none: -e sched,syscalls was asked, and could not be had' "$name.info"
	t_eq "$name: the function trace recorded" "mutex_wait" \
		"$("$FNTRACE" report -i out/k.data --stat --csv | cut -d, -f1 | grep -x mutex_wait)"
	t_eq "$name: the program ran as ever" "nap pipe mutex" "$(cut -d' ' -f1 "$name.out" | xargs)"
}

echo 2 >/proc/sys/kernel/perf_event_paranoid
kev_refused "paranoid 2" "^fntrace: warning: kernel events not recorded: tracepoints need CAP_PERFMON, or kernel.perf_event_paranoid=-1 \(it is 2\): run as root, or 'sysctl kernel.perf_event_paranoid=-1'"

# Allowed by the sysctl, but tracefs is root's: said too.
echo -1 >/proc/sys/kernel/perf_event_paranoid
if $as_nobody test -r /sys/kernel/tracing/events/sched/sched_switch/id ||
   $as_nobody test -r /sys/kernel/debug/tracing/events/sched/sched_switch/id; then
	t_skip "tracefs refused" "this machine's tracefs is readable by nobody"
else
	kev_refused "paranoid -1, tracefs root's" "^fntrace: warning: kernel events not recorded: /sys/kernel(/debug)?/tracing/events/[a-z_/]+: Permission denied \(run as root, or let this user read tracefs"
fi

# No tracefs where fntrace looks (a mount namespace of the case's own,
# both places unmounted in it, the machine's left alone): said, and how
# to mount it; fntrace mounts nothing itself.
echo "$paranoid" >/proc/sys/kernel/perf_event_paranoid
unshare -m sh -c 'for d in /sys/kernel/tracing /sys/kernel/debug/tracing /sys/kernel/debug; do
		umount "$d" 2>/dev/null; done; exec "$@"' sh \
	"$FNTRACE" record -e sched -o nt.data -- ./kev_waits 1 >nt.out 2>nt.err
t_eq "no tracefs: the program's exit status" 0 "$?"
t_ok "no tracefs: one line, and how to mount it" grep -qx "fntrace: warning: kernel events not recorded: tracefs is not mounted at /sys/kernel/tracing or /sys/kernel/debug/tracing (as root: mount -t tracefs nodev /sys/kernel/tracing); the function trace is recorded as asked" nt.err
t_eq "no tracefs: that line and the summary, nothing else" 2 "$(wc -l <nt.err)"
t_ok "no tracefs: not mounted by fntrace" sh -c '! grep -q "^fntrace: kernel events: " nt.err'
t_ok "no tracefs: the function trace recorded" test -s nt.data/trace.dat
t_ok "no tracefs: the machine's still mounted" kev_tracefs
