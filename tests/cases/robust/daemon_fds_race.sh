# A thread closes every descriptor in a loop (close_range, closefrom,
# /dev/null dup2'ed over 3..19) while fntrace ctl switches tracers and a
# recording goes on: every request is served, every call recorded, the
# program's output and status as untraced.  Under run, record and attach.
# In tests/stress.sh's default list.
. "$top/tests/daemon_lib.sh"

t_build gcc-nop -O2 daemon_fds "$top/tests/progs/daemon_fds.c"

# Tracers switched over and over, while the thread closes.
d_switch() {
	local i
	for i in 1 2 3 4 5 6 7 8; do
		"$FNTRACE" ctl "$1" current_tracer function &&
		"$FNTRACE" ctl "$1" current_tracer function_graph || return 1
	done
	"$FNTRACE" ctl "$1" current_tracer nop
}

# Requests that leave the recording alone.
d_look() {
	local i
	for i in 1 2 3 4 5 6 7 8; do
		"$FNTRACE" ctl "$1" trace_marker "racing $i" || return 1
	done
}

d_drive plain race
t_eq "race: untraced, exit status" 7 "$(cat plain-race.rc)"
for how in run record attach; do
	d_drive $how race
	d_check_one $how race
done
