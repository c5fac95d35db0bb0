# A service's start: it closes every descriptor it did not open (a close()
# loop with /dev/null dup2'ed over 3..19, close_range, closefrom,
# CLOSE_RANGE_CLOEXEC and an exec).  Under run, record, record -p and
# attach, the control endpoint, the buffer and the recorder's files go on
# working, and the program sees what it would see untraced: its first
# open() returns 3, its output and status are the same.  The rest of a
# service's start is daemon_fds_cover.sh; the racy variant
# daemon_fds_race.sh.
. "$top/tests/daemon_lib.sh"

t_build gcc-nop -O2 daemon_fds "$top/tests/progs/daemon_fds.c"
d_check loop range cloexec closefrom
t_ok "plain: the first open() returns 3" grep -qx 'first open 3' plain-range.prog
t_ok "record: the marker sent after the closing is in the trace" \
	sh -c "'$FNTRACE' report -i record-range.data | grep -q 'after the closing'"
