# When the recorder falls behind, the program keeps running, events are
# dropped and counted per thread, and the report says so.

cat >flood.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
__attribute__((noinline)) int tick(int x) { return x + 1; }
int main(int argc, char **argv)
{
	struct timespec end, now;
	long n = 0;
	printf("flooding\n");
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += 1;
	do {
		for (int i = 0; i < 10000; i++)
			n = tick(n);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
	printf("%ld\n", n > 0);
	return 0;
}
C
t_build gcc-pg -O2 flood flood.c

# stalled_record DIR PROG OUT [LINES]: record PROG with a small buffer
# (512 KB: 64 chunks, one for each thread and room to resume in, which
# even a program under qemu-user fills in a fraction of the stop) and a
# recorder stopped for a while, so that the program must fill it and go
# on; the recorder's status.  The stop comes 0.2 s in, and once PROG has
# printed LINES lines (it runs, and its threads do): on a loaded machine
# the program may start late.
stalled_record() {
	local i
	"$FNTRACE" record -b 512 -o "$1" -- "$2" >"$3" 2>/dev/null &
	rec=$!
	sleep 0.2
	for i in $(seq 50); do
		[ "$(wc -l <"$3")" -ge "${4:-0}" ] && break
		sleep 0.1
	done
	kill -STOP $rec
	sleep 0.5
	kill -CONT $rec
	wait $rec
}

stalled_record l.data ./flood out.txt 1
t_eq "lost: program finished normally" 0 "$?"
t_eq "lost: program output intact" "flooding 1" "$(tr '\n' ' ' <out.txt | sed 's/ $//')"
"$FNTRACE" report -i l.data >l.txt
lost=$(sed -n 's/^# lost events: \([0-9]*\).*/\1/p' l.txt)
t_ok "lost: the count is reported" test "${lost:-0}" -gt 0
t_ok "lost: per thread too" grep -q '^#   flood-[0-9]*: [0-9]' l.txt
t_ok "lost: marked in the trace" grep -q 'LOST [0-9]* EVENTS' l.txt
# main() was open all through the losses: its name and whole time kept.
# tick() is a leaf: a brace that names it paired an entry before a loss
# with the exit of a call after it.
t_ok "lost: the call open across the losses closes named" grep -q '} /\* main \*/$' l.txt
t_eq "lost: no exit after a loss taken for an entry before it" 0 "$(grep -c '} /\* tick' l.txt)"

# Four threads flooding at once (tests/progs/robust_flood.c): every one
# of them loses events, each counted on its own line, adding up to the
# total.
t_build gcc-pg -O2 mflood "$top/tests/progs/robust_flood.c"
stalled_record m.data ./mflood mout.txt 4
t_eq "lost, 4 threads: program finished normally" 0 "$?"
t_eq "lost, 4 threads: program output intact" "result 1" "$(tail -n 1 mout.txt)"
"$FNTRACE" report -i m.data >m.txt
# The per-thread lines are the "#   comm-tid: N" right below the total.
awk '/^# lost events:/ { on = 1; next } on && /^#   / { print; next } { on = 0 }' m.txt >per.txt
missing=""
for tid in $(sed -n 's/^tid //p' mout.txt); do
	grep -q "^#   mflood-$tid: [1-9]" per.txt || missing="$missing $tid"
done
t_eq "lost, 4 threads: every thread's loss counted" "" "${missing# }"
t_eq "lost, 4 threads: no loss left unsaid" "" "$(grep 'more events lost' m.txt)"
t_eq "lost, 4 threads: the per-thread counts add up" \
	"$(sed -n 's/^# lost events: \([0-9]*\).*/\1/p' m.txt)" \
	"$(sed 's/.*: //' per.txt | awk '{ s += $1 } END { print s + 0 }')"

# Threads that end while the recorder is stopped and every chunk is full:
# what they lost last is in no chunk, but in the shared count, and the
# report says it.  Every call is either in the report or counted lost:
# main, 4 workers, 4 x 100 000 ticks.  The recorder is stopped once the
# program says it starts its workers, and goes on once they are joined,
# however fast the program runs (under qemu-user, slowly).
cat >ends.c <<'C'
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
__attribute__((noinline)) int tick(int x) { return x + 1; }
__attribute__((noinline)) void *worker(void *arg)
{
	volatile int n = 0;
	for (int i = 0; i < 100000; i++)
		n = tick(n);
	return NULL;
}
int main(void)
{
	pthread_t t[4];
	setvbuf(stdout, NULL, _IOLBF, 0);
	puts("starting");
	usleep(300000);
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	puts("joined");
	usleep(300000);
	puts("done");
	return 0;
}
C
t_build gcc-pg -O2 ends ends.c
"$FNTRACE" record -t function -b 1024 -o e.data -- ./ends >eout.txt 2>erec.txt &
rec=$!
for i in $(seq 200); do grep -q starting eout.txt && break; sleep 0.05; done
kill -STOP $rec
for i in $(seq 400); do grep -q joined eout.txt && break; sleep 0.05; done
kill -CONT $rec
wait $rec
t_eq "lost at thread end: program finished normally" "0 starting joined done" \
	"$? $(tr '\n' ' ' <eout.txt | sed 's/ $//')"
"$FNTRACE" report -i e.data >e.txt
"$FNTRACE" report -i e.data --csv >e.csv
noted=$(sed -n 's/^# lost events: \([0-9]*\).*/\1/p' e.txt)
unsaid=$(sed -n 's/^# \([0-9]*\) more events lost in threads that ended.*/\1/p' e.txt)
hits=$(awk -F, 'NR > 1 { s += $2 } END { print s + 0 }' e.csv)
t_ok "lost at thread end: the report says what no thread could" test "${unsaid:-0}" -gt 0
t_eq "lost at thread end: every call reported or counted lost" 400005 \
	$((hits + ${noted:-0} + ${unsaid:-0}))
t_ok "lost at thread end: the recorder's line counts them" \
	grep -q " $((${noted:-0} + ${unsaid:-0})) lost -> e.data\$" erec.txt
t_eq "lost at thread end: info counts them too" "$((${noted:-0} + ${unsaid:-0}))" \
	"$("$FNTRACE" info -i e.data | sed -n 's/^lost  *\([0-9]*\) events.*/\1/p')"
t_eq "lost at thread end: info's calls are the report's hits" "$hits" \
	"$("$FNTRACE" info -i e.data | sed -n 's/^calls  *\([0-9]*\) .*/\1/p')"
