# fntrace info and the line a recording ends with: what was recorded, and
# the same call counts as report --stat (a call: an entry in a
# function_graph trace, a hit in a function trace).

cat >counted.c <<'C'
#include <pthread.h>
#include <stdlib.h>
static volatile int sink;
__attribute__((noinline)) void f(int i) { sink = i; }
__attribute__((noinline)) void g(int n) { for (int i = 0; i < n; i++) f(i); }
static void *worker(void *arg) { g(500); return arg; }
int main(int argc, char **argv)
{
	pthread_t t;

	pthread_create(&t, NULL, worker, NULL);
	g(1000);
	pthread_join(t, NULL);
	return atoi(argv[1]);
}
C
t_build gcc-pg -O2 counted counted.c

# stat_hits DIR FUNC: the Hit column of FUNC in report --stat (all of
# them without FUNC).
stat_hits() {
	"$FNTRACE" report --csv -i "$1" | awk -F, -v f="${2:-}" \
		'NR > 1 && (f == "" || $1 == f) { n += $2 } END { print n + 0 }'
}
# info_field DIR NAME: the first word of info's NAME line.
info_field() {
	"$FNTRACE" info -i "$1" | sed -n "s/^$2  *\\([^ ]*\\).*/\\1/p"
}

for tracer in function_graph function; do
	"$FNTRACE" record -t $tracer -o $tracer.data -- ./counted 3 >/dev/null 2>$tracer.err
	t_eq "$tracer: exit status passed on" 3 "$?"
	line=$(cat $tracer.err)
	t_ok "$tracer: one summary line" sh -c "[ \$(wc -l <$tracer.err) -eq 1 ] && grep -q '^fntrace: recorded [0-9]* calls, [0-9]* events (.*) in 2 threads over [0-9.]* s, 0 lost -> $tracer.data\$' $tracer.err"
	said=$(echo "$line" | sed -n 's/^fntrace: recorded \([0-9]*\) calls.*/\1/p')
	t_eq "$tracer: f called 1500 times" 1500 "$(stat_hits $tracer.data f)"
	t_eq "$tracer: the summary's calls are report --stat's" "$(stat_hits $tracer.data)" "$said"
	t_eq "$tracer: info's calls are report --stat's" "$(stat_hits $tracer.data)" "$(info_field $tracer.data calls)"
	t_eq "$tracer: info's events are the summary's" \
		"$(echo "$line" | sed -n 's/.* calls, \([0-9]*\) events.*/\1/p')" \
		"$(info_field $tracer.data events)"
	t_eq "$tracer: info's tracer" "$tracer" "$(info_field $tracer.data tracer)"
done

# 1504 calls at least (main, g, 1000 f; worker, g, 500 f), and in a
# graph every call has its entry and its exit.
calls=$(info_field function_graph.data calls)
t_ok "graph: every call counted" test "$calls" -ge 1504
t_eq "graph: two events per call" $((2 * calls)) "$(info_field function_graph.data events)"

"$FNTRACE" info -i function_graph.data >info.txt
t_eq "info: exit status" "exit status 3" "$(sed -n 's/^program ended  *//p' info.txt)"
t_eq "info: sealed" "function_graph.data (sealed)" "$(sed -n 's/^data directory  *//p' info.txt)"
t_eq "info: two threads" 2 "$(info_field function_graph.data threads)"
t_ok "info: the program, by its path" grep -q "^ *[0-9]*  $PWD/counted\$" info.txt
# The threads' table: the worker thread made 502 calls.
t_ok "info: per thread, the worker's calls" \
	sh -c "awk '\$1 ~ /^[0-9]+\$/ && NF == 6 && \$5 == 502' info.txt | grep -q ."
t_eq "info: the threads' calls add up" "$calls" \
	"$(awk '$1 ~ /^[0-9]+$/ && NF == 6 { n += $5 } END { print n }' info.txt)"
size=$(stat -c %s function_graph.data/trace.dat)
t_ok "info: trace.dat's size" grep -q "^trace.dat  *$size bytes\|^trace.dat  *$(awk -v s=$size 'BEGIN { printf "%.1f KB", s / 1024 }') in" info.txt

# What was asked for: filters, notrace, depth, return values.
"$FNTRACE" record -F 'g' -F 'f*' -N 'main' -D 3 -r -o asked.data -- ./counted 0 >/dev/null 2>&1
"$FNTRACE" info -i asked.data >asked.txt
t_eq "info: filters, one per line" "g|f*" "$(sed -n '/^filter /,/^notrace/p' asked.txt | grep -v '^notrace' | awk '{ print $NF }' | paste -sd'|')"
t_eq "info: notrace" "main" "$(info_field asked.data notrace)"
t_eq "info: depth" 3 "$(sed -n 's/^max depth  *//p' asked.txt)"
t_eq "info: return values" yes "$(sed -n 's/^return values  *//p' asked.txt)"
t_eq "info: nothing asked: no filter" "-" "$(info_field function_graph.data filter)"

# A directory its recorder never sealed, and a program killed by a signal.
cat >dies.c <<'C'
#include <signal.h>
__attribute__((noinline)) void die(void) { raise(SIGTERM); }
int main(void) { die(); return 0; }
C
t_build gcc-pg -O2 dies dies.c
"$FNTRACE" record -o dies.data -- ./dies >/dev/null 2>&1
t_eq "info: killed by a signal" "signal 15 SIGTERM" "$("$FNTRACE" info -i dies.data | sed -n 's/^program ended  *//p')"
cp -r dies.data dies.data.tmp-1
sed -i 's/^state: sealed/state: recording/' dies.data.tmp-1/info
t_ok "info: never sealed" sh -c "'$FNTRACE' info -i dies.data.tmp-1 | grep -q '^data directory .*never sealed'"

# record -p: a running process, the same agreement.
t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
touch hold	# spin.c's HOLD: running until record -p is done
"$FNTRACE" run -- ./spin 4 hold >/dev/null 2>&1 &
pid=$!
for i in 1 2 3 4 5 6 7 8 9 10; do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" record -p $pid -d 1 -o p.data 2>p.err
rm hold
wait $pid
t_ok "record -p: one summary line" grep -q '^fntrace: recorded [0-9]* calls, .* in 1 thread over .* -> p.data$' p.err
t_eq "record -p: the summary's calls are report --stat's" "$(stat_hits p.data)" \
	"$(sed -n 's/^fntrace: recorded \([0-9]*\) calls.*/\1/p' p.err)"
t_eq "record -p: info's calls are report --stat's" "$(stat_hits p.data)" "$(info_field p.data calls)"
t_ok "record -p: some calls" test "$(stat_hits p.data)" -gt 0

# live says the summary too, with no directory (it keeps none).
"$FNTRACE" live -- ./counted 0 >/dev/null 2>live.err
t_ok "live: the summary, naming no directory" grep -q '^fntrace: recorded [0-9]* calls, .* 0 lost$' live.err

# Bad input: one line, non-zero.
"$FNTRACE" info -i nodata >out.txt 2>err.txt
t_eq "info: missing directory: status 1, one line" "1 1" "$? $(wc -l <err.txt)"
"$FNTRACE" info extra >/dev/null 2>&1
t_eq "info: stray argument: status 2" 2 "$?"
t_ok "info --help" sh -c "'$FNTRACE' info --help | grep -q '^usage: fntrace info'"
