# Recording never harms the program: a full disk, a recorder killed or
# stopped, the data directory removed, and the program still runs to its
# end with its output and exit status; what was stored stays readable,
# and what was not is counted and said.

# busy MS: calls tick() for MS milliseconds (some 70 MB of trace a
# second), then prints one line and exits with 3.
cat >busy.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
__attribute__((noinline)) int tick(int x) { return x + 1; }
static long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000L + t.tv_nsec / 1000000;
}
int main(int argc, char **argv)
{
	long end = now_ms() + atol(argv[1]), n = 0;
	while (now_ms() < end)
		for (int i = 0; i < 10000; i++)
			n = tick(n);
	printf("busy done: %d\n", n > 0);
	return 3;
}
C
t_build gcc-pg -O2 busy busy.c

# reap OUT CMD...: runs CMD as the subreaper of what it leaves behind,
# and writes "PID STATUS" to OUT for every process that ends, so that a
# program whose recorder was killed is still waited for.
cat >reap.c <<'C'
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	FILE *out = fopen(argv[1], "w");
	int status;
	pid_t pid;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (fork() == 0) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	while ((pid = wait(&status)) > 0)
		fprintf(out, "%d %d\n", (int)pid, WIFEXITED(status) ? WEXITSTATUS(status)
			: 128 + WTERMSIG(status));
	return fclose(out);
}
C
t_build plain -O2 reap reap.c

./busy 1000 >plain.out
plain_status=$?
t_eq "faults: the untraced program exits with 3" 3 "$plain_status"

# same_run NAME OUT STATUS: the program's output and status were as untraced.
same_run() {
	t_same "$1: program output as untraced" plain.out "$2"
	t_eq "$1: program status as untraced" "$plain_status" "$3"
}

# one_line NAME FILE PATTERN: FILE is one line, matching PATTERN.
one_line() {
	if [ "$(wc -l <"$2")" -eq 1 ] && grep -q "$3" "$2"; then t_pass "$1"
	else t_fail "$1" "$(head -c 600 "$2")"; fi
}

# recorder_of DIR: the pid of the recorder writing DIR.tmp-PID.
recorder_of() {
	for i in $(seq 50); do
		set -- "$1" "$1".tmp-*
		[ -e "$2" ] && { echo "${2##*.tmp-}"; return; }
		sleep 0.1
	done
}

# 1. A full disk: a small tmpfs, or failing that a file size limit (the
# recorder ignores SIGXFSZ: the write fails with EFBIG; the buffers'
# shared memory, a file too, must be smaller than the limit).
mkdir small
limit=unlimited full="disk full after [0-9]* bytes"
if ! mount -t tmpfs -o size=6m tmpfs small 2>/dev/null; then
	t_skip "faults: full disk" "cannot mount a tmpfs: a file size limit instead"
	limit=6144 full="file size limit reached after [0-9]* bytes"
fi
( ulimit -f $limit && "$FNTRACE" record -b 4096 -o small/f.data -- ./busy 1000 >full.out 2>full.err )
status=$?
same_run "faults: full disk" full.out "$status"
one_line "faults: full disk: one line says so and counts the dropped events" full.err \
	"recording stopped, $full: what fit is in small/f.data; [1-9][0-9]* events dropped"
t_eq "faults: full disk: the directory is sealed" "small/f.data" "$(ls -d small/f.data*)"
"$FNTRACE" report -i small/f.data >full.txt 2>full.report.err
t_eq "faults: full disk: the report reads it" "0 " "$? $(cat full.report.err)"
t_ok "faults: full disk: the report says how it ended" \
	grep -q "^# recording stopped: $full; [1-9][0-9]* events dropped" full.txt
t_ok "faults: full disk: the events that fit are there" grep -q 'tick();' full.txt
t_ok "faults: full disk: and the program's end" grep -q '^# program exited with status 3' full.txt
t_ok "faults: full disk: report --stat reads it" sh -c "'$FNTRACE' report --stat -i small/f.data | grep -q '^# recording stopped'"
# The runtime writes funcs-PID into the directory too: a line the full
# disk cut short is as if never written.  Cut here is one that, read,
# would rename tick() and change the report.
cp -r small/f.data cutfuncs.data
funcs=$(ls cutfuncs.data/funcs-* | head -n 1)
sed -n 's/^\(func [0-9]* [0-9a-fx]* [0-9]*\) tick$/\1 cut_tick/p' "$funcs" | head -n 1 | tr -d '\n' >cut.line
t_ok "faults: full disk: a funcs line to cut" grep -q cut_tick cut.line
cat cut.line >>"$funcs"
"$FNTRACE" report -i cutfuncs.data >cutfuncs.txt 2>cutfuncs.err
t_eq "faults: full disk: a funcs line cut short: the report reads the rest" "0 " \
	"$? $(cat cutfuncs.err)"
t_eq "faults: full disk: ... leaves the line out" "" "$(grep cut_tick cutfuncs.txt)"
t_same "faults: full disk: ... and keeps the rest" full.txt cutfuncs.txt
# Lazily if need be: a program left running may still hold a file there.
mountpoint -q small && { umount small 2>/dev/null || umount -l small; }

# 2. The recorder killed half-way: the program, left without anyone to
# drain its buffers, drops and counts events and runs on; what was
# written is read from the unsealed DIR.tmp-PID.
./reap reaped.txt "$FNTRACE" record -o k.data -- ./busy 1000 >killed.out 2>/dev/null &
reaper=$!
rec=$(recorder_of k.data)
sleep 0.5
kill -KILL "$rec"
wait $reaper
prog=$(sed -n 's/^pid: //p' "k.data.tmp-$rec/info")
same_run "faults: recorder killed" killed.out "$(sed -n "s/^$prog //p" reaped.txt)"
t_eq "faults: recorder killed: it was" 137 "$(sed -n "s/^$rec //p" reaped.txt)"
"$FNTRACE" report -i "k.data.tmp-$rec" >killed.txt 2>killed.err
t_eq "faults: recorder killed: the report reads what it wrote" 0 "$?"
one_line "faults: recorder killed: one line says it was never sealed" killed.err \
	"k.data.tmp-$rec was never sealed: its recorder was last heard of [0-9.]* s into the recording"
t_ok "faults: recorder killed: its events are there" grep -q 'tick();' killed.txt
# Killed mid-write, trace.dat ends inside a chunk: the same one line
# says that too, and the whole events before the cut are read.
cp -r "k.data.tmp-$rec" cut.data.tmp-1
size=$(stat -c %s cut.data.tmp-1/trace.dat)
truncate -s $((size - 1001)) cut.data.tmp-1/trace.dat
"$FNTRACE" report -i cut.data.tmp-1 >cut.txt 2>cut.err
t_eq "faults: recorder killed mid-chunk: the report reads it" 0 "$?"
one_line "faults: recorder killed mid-chunk: one line says both" cut.err \
	"never sealed: .*; trace.dat ends inside a chunk"
t_ok "faults: recorder killed mid-chunk: its events are there" grep -q 'tick();' cut.txt

# 3. The recorder stopped until the buffers fill: events are lost,
# counted, and said, and the program never waits.
"$FNTRACE" record -b 1024 -o s.data -- ./busy 1000 >stopped.out 2>stopped.err &
rec=$!
sleep 0.2
kill -STOP $rec
sleep 0.4
kill -CONT $rec
wait $rec
same_run "faults: recorder stopped" stopped.out "$?"
one_line "faults: recorder stopped: its line counts the lost events" stopped.err \
	"recorded [0-9]* calls, .* [1-9][0-9]* lost -> s.data$"
"$FNTRACE" report -i s.data >stopped.txt
lost=$(sed -n 's/^# lost events: \([0-9]*\)$/\1/p' stopped.txt)
t_ok "faults: recorder stopped: the report counts the lost events" test "${lost:-0}" -gt 0
t_ok "faults: recorder stopped: report --stat too" \
	sh -c "'$FNTRACE' report --stat -i s.data | grep -q '^# lost events: $lost\$'"

# 4. The data directory removed while recording, or just its trace.dat
# (writes into a file nobody can read any more would go on succeeding).
# removed_run NAME PATH: record, remove PATH in the directory meanwhile.
removed_run() {
	"$FNTRACE" record -o r.data -- ./busy 1000 >removed.out 2>removed.err &
	rec=$!
	dir=r.data.tmp-$(recorder_of r.data)
	sleep 0.3
	# Twice: the recorder may add a file while rm -r empties the directory.
	rm -rf "$dir$2" 2>/dev/null || rm -rf "$dir$2"
	wait $rec
	same_run "$1" removed.out "$?"
	one_line "$1: one line says so" removed.err \
		"recording stopped, trace.dat was removed after [0-9]* bytes: nothing kept"
	t_eq "$1: nothing left behind" "" "$(ls -d r.data* 2>/dev/null)"
}
removed_run "faults: directory removed" ""
removed_run "faults: trace.dat removed" /trace.dat
