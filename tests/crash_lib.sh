# Helpers of the crash snapshot cases (tests/cases/record/crash_snapshot*.sh),
# which run tests/progs/crash_threads.c (a crasher thread beside workers)
# into directories un-KIND (untraced) and tr-KIND (traced).

t_build gcc-pg -O2 crash_threads "$top/tests/progs/crash_threads.c"
# How a program ended, as the kernel says it: built for the host, it runs
# the program (under qemu-user with T_ARCH) as the recorder does.
gcc -O2 -o wait_status "$top/tests/progs/wait_status.c"
ulimit -c unlimited 2>/dev/null

# The kernel keeps the wait status of a process that is not the asker's
# child from Linux 6.15 (PIDFD_INFO_EXIT): before, info says it ended.
# Its core dump bit is the thread group leader's, which may miss it when
# another thread dumped core to a file: not compared.
kernel=$(uname -r | awk -F. '{ print $1 * 1000 + $2 }')

# cores DIR: the core files the program left there (the core pattern may
# send them elsewhere: then none, traced or not).
cores() {
	ls "$1" | grep -c '^core\|^qemu_.*\.core$'
}

# status_of DIR: how it ended, as wait_status says it on the last of
# DIR/err's lines.
status_of() {
	grep -E '^(status|signal) ' "$1/err"
}

# crash_exit_said KIND DIR WANT: the snapshot's info says the exit as
# untraced (WANT, its core bit aside), where the kernel tells it.
crash_exit_said() {
	if [ "$kernel" -ge 6015 ]; then
		t_eq "$1: info says how it ended, as untraced" "${3% (core dumped)}" \
			"$(sed -n 's/^exit: //p' "$2/info" | sed 's/ (core dumped)$//')"
	else
		t_skip "$1: info says how it ended" "Linux $(uname -r) keeps no exit status for a pidfd"
	fi
}

# crash_window KIND DIR TID: the snapshot in DIR reports, and holds the
# crashing thread TID's last calls, those before them, and the other
# threads' windows.
crash_window() {
	"$FNTRACE" report -i "$2" >"tr-$1/report" 2>"tr-$1/report.err"
	t_eq "$1: reported" "0 " "$? $(cat "tr-$1/report.err")"
	t_ok "$1: the crashing thread's last calls" grep -q -- "-$3 *|.* do_$1()" "tr-$1/report"
	t_ok "$1: ... and those before them" grep -q -- "-$3 *|.* before_crash();" "tr-$1/report"
	t_ok "$1: the other threads' windows" grep -q " worker_tick();" "tr-$1/report"
}
