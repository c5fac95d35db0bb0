# ctl PID trace, read again and again from the ring (16 MB) that four
# threads go round several times a second: every leaf call it shows is one call, its
# values the ones that call was given and returned (add3(a, 2a, 3a) =
# 6a).  A pass over the ring that sent the end of one chunk of a thread
# and the chunk after it, or an entry before a gap and an exit after it,
# paired two calls into one line (before the fix, 1 run in 3 of 40 reads
# here; make stress runs it more).

cat >pairs.c <<'C'
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
__attribute__((noipa)) long add3(long a, long b, long c) { return a + b + c; }
static atomic_int stop;
static void *loop(void *arg)
{
	long sink = 0;

	for (long i = 0; !atomic_load_explicit(&stop, memory_order_relaxed); i++)
		sink += add3(i, 2 * i, 3 * i);
	return (void *)sink;
}
int main(int argc, char **argv)
{
	pthread_t t[4];

	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, loop, NULL);
	sleep(atoi(argv[1]));
	atomic_store(&stop, 1);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}
C
t_build gcc-pg -O2 pairs pairs.c

# Ten minutes at most, killed once the reads are done: a sanitized
# fntrace on a loaded machine took more than a minute for ten.
"$FNTRACE" run -- ./pairs 600 >/dev/null 2>&1 &
pid=$!
for i in $(seq 100); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" ctl "$pid" set_ftrace_args 'add3@arg1,arg2,arg3,retval'
"$FNTRACE" ctl "$pid" set_ftrace_filter add3
"$FNTRACE" ctl "$pid" current_tracer function_graph
reads=${CTL_TRACE_PAIRS_READS:-10}
for i in $(seq "$reads"); do
	"$FNTRACE" ctl "$pid" trace >"read.$i" 2>>err.txt
done
kill "$pid"
wait "$pid" 2>/dev/null

# Each read's leaf lines: right, or wrong ones shown.
cat read.* | sed -n 's/.*| *add3(\(.*\)); \/\* = \(.*\) \*\/$/\1, \2/p' >leaves.txt
t_eq "every read answered" "" "$(cat err.txt)"
t_ok "leaf calls with their values in the reads ($(wc -l <leaves.txt))" \
	test "$(wc -l <leaves.txt)" -ge "$reads"
t_eq "every leaf line is one call's" "" "$(awk -F', ' \
	'$2 != 2 * $1 || $3 != 3 * $1 || $4 != 6 * $1' leaves.txt | head -n 3)"
# add3 is a leaf: a brace that names it closes an entry some events
# before, which only a pairing across a gap would give.
t_eq "no brace closes an add3 entered before a gap" 0 "$(cat read.* | grep -c '} /\* add3')"
