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

# stalled_record DIR PROG OUT: record PROG with the smallest buffer and a
# recorder stopped for a while, so that the program must fill it and go
# on; the recorder's status.
stalled_record() {
	"$FNTRACE" record -b 1024 -o "$1" -- "$2" >"$3" 2>/dev/null &
	rec=$!
	sleep 0.2
	kill -STOP $rec
	sleep 0.5
	kill -CONT $rec
	wait $rec
}

stalled_record l.data ./flood out.txt
t_eq "lost: program finished normally" 0 "$?"
t_eq "lost: program output intact" 1 "$(cat out.txt)"
"$FNTRACE" report -i l.data >l.txt
lost=$(sed -n 's/^# lost events: \([0-9]*\).*/\1/p' l.txt)
t_ok "lost: the count is reported" test "${lost:-0}" -gt 0
t_ok "lost: per thread too" grep -q '^#   flood-[0-9]*: [0-9]' l.txt
t_ok "lost: marked in the trace" grep -q 'LOST [0-9]* EVENTS' l.txt

# Four threads flooding at once (tests/progs/robust_flood.c): every one
# of them loses events, each counted on its own line, adding up to the
# total.
t_build gcc-pg -O2 mflood "$top/tests/progs/robust_flood.c"
stalled_record m.data ./mflood mout.txt
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
t_eq "lost, 4 threads: the per-thread counts add up" \
	"$(sed -n 's/^# lost events: \([0-9]*\).*/\1/p' m.txt)" \
	"$(sed 's/.*: //' per.txt | awk '{ s += $1 } END { print s + 0 }')"
