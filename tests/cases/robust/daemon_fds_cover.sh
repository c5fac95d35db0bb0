# A service's start, continued (daemon_fds.sh has the closing): it puts
# /dev/null over numbers it did not open (dup2, dup3, F_DUPFD), listens
# where the runtime's socket was (after close_range, and after the raw
# system call), uses every descriptor its limit allows; and the
# runtime's messages never land in a file it put over its stderr.  With
# the runtime's descriptors below the limit (a hard limit with no room
# above: they are the last numbers below it) and above it.
. "$top/tests/daemon_lib.sh"

t_build gcc-nop -O2 daemon_fds "$top/tests/progs/daemon_fds.c"
d_check dup2 listen limit

# The raw system call close_range passes every wrapper, and the program
# listens on the number of the runtime's socket: the control thread never
# takes a client of the program's, and a recording goes on.
d_drive plain raw
for how in run record attach; do
	d_drive $how raw
	t_same "raw, $how: the program's output as untraced" plain-raw.prog $how-raw.prog
	t_eq "raw, $how: exit status as untraced" 7 "$(cat $how-raw.rc)"
	t_eq "raw, $how: every client reached the program" 5 "$(grep -c reached $how-raw.clients)"
done
t_eq "raw, record: every call of leaf recorded" 1000 "$(d_leaf record-raw)"

# Room above the soft limit: the runtime's descriptors past it, where the
# program's dup2() cannot reach them.
if [ "$(ulimit -Hn)" = unlimited ] || [ "$(ulimit -Hn)" -gt 1100 ]; then
	(
		ulimit -Sn 1024
		D_TAG="soft limit 1024: "
		for mode in dup2 listen; do
			d_drive plain $mode
			for how in run attach; do
				d_drive $how $mode
				d_check_one $how $mode
			done
		done
	)
else
	t_skip "the soft limit below the hard one" "the hard limit is $(ulimit -Hn)"
fi

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
