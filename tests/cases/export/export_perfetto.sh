# fntrace export --format perfetto: Perfetto's protobuf trace, decoded by
# protoc, raw and with our own minimal .proto (tests/data/perfetto_min.proto),
# then checked against TrackEvent's rules (tests/data/perfetto_check.py):
# tracks, nesting, interned names, each sequence's clock of deltas,
# markers; and its errors.

cat >prog.c <<'C'
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

__attribute__((noinline)) int leaf(int x) { return x * 2; }
__attribute__((noinline)) int fact(int n) { return n <= 1 ? leaf(1) : n * fact(n - 1); }

__attribute__((noinline)) void *worker(void *arg)
{
	long s = 0;

	for (int i = 0; i < 3; i++)
		s += fact(4);
	return (void *)s;
}

/* Not traced: the thread has its name before its first event. */
__attribute__((no_instrument_function)) void *start(void *name)
{
	pthread_setname_np(pthread_self(), name);
	return worker(name);
}

/* Says its pid, then waits (10 s at most) for a file "go": the test
 * writes a trace_marker meanwhile. */
__attribute__((noinline)) void wait_for_go(void)
{
	FILE *f = fopen("pid", "w");
	struct stat st;

	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	for (int i = 0; i < 1000 && stat("go", &st); i++)
		usleep(10000);
}

int main(void)
{
	static char *names[] = { "pf-alpha", "pf-beta" };
	pthread_t t[2];
	long sum = 0;
	void *r;

	wait_for_go();
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, start, names[i]);
	for (int i = 0; i < 2; i++) {
		pthread_join(t[i], &r);
		sum += (long)r;
	}
	printf("%ld\n", sum + fact(3));
	return 0;
}
C
t_build gcc-pg -O0 prog prog.c

FNTRACE_CONTROL=1 "$FNTRACE" record -o p.data -- ./prog >out.txt 2>rec.err &
rec=$!
for i in $(seq 100); do [ -s pid ] && break; sleep 0.1; done
pid=$(cat pid)
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" ctl "$pid" trace_marker "hello from the test"
touch go
wait $rec
t_eq "record: the program ran" 300 "$(cat out.txt)"

proto_dir=$top/tests/data
decode() { protoc -I"$proto_dir" --decode=perfetto_min.Trace perfetto_min.proto; }
check() { python3 "$proto_dir/perfetto_check.py"; }

"$FNTRACE" export -i p.data --format perfetto -o p.pftrace 2>export.err
t_eq "export: exit status" 0 "$?"
t_eq "export: says nothing" "" "$(cat export.err)"
t_eq "export: no temp file left" "" "$(ls p.pftrace.tmp-* 2>/dev/null)"

protoc --decode_raw <p.pftrace >raw.txt
t_eq "decode_raw: a valid protobuf" 0 "$?"
decode <p.pftrace >named.txt 2>decode.err
t_eq "decode: valid by our .proto" 0 "$?"
t_eq "decode: every field is one of the .proto's, with its type" 0 "$(grep -c '^ *[0-9]' named.txt)"
t_eq "decode_raw and decode see the same packets" "$(grep -c '^1 {' raw.txt)" "$(grep -c '^packet {' named.txt)"

check <named.txt >facts.txt
t_eq "check: TrackEvent's rules hold" 0 "$?"
grep ERROR facts.txt | head -n 5
t_eq "process track: pid and name" "process $pid prog" "$(grep '^process' facts.txt)"
t_ok "thread track: the main thread" grep -qx "thread $pid $pid prog" facts.txt
t_eq "thread tracks: the workers by name" "pf-alpha pf-beta" \
	"$(awk -v p="$pid" '$1 == "thread" && $2 == p && $3 != p && $4 ~ /^pf-/ { print $4 }' facts.txt | sort | tr '\n' ' ' | sed 's/ $//')"
t_eq "names: the program's functions interned" "fact,leaf,main,wait_for_go,worker" "$(sed -n 's/^names //p' facts.txt)"
t_eq "times: every packet after the one before, on its sequence's clock" "backdated 0" \
	"$(grep '^backdated' facts.txt)"
"$FNTRACE" report -i p.data --csv >stat.csv
hits=$(awk -F, 'NR > 1 { n += $2 } END { print n }' stat.csv)
t_eq "slices: as many as report --stat's hits" "$hits" "$(sed -n 's/^slices //p' facts.txt)"
t_eq "slices: recursion, fact's 27 calls" 27 "$(awk -F, '$1 == "fact" { print $2 }' stat.csv)"
t_eq "slices: begins counted in the raw decode too" "$hits" "$(grep -c '^    9: 1$' raw.txt)"
t_ok "marker: an instant with its text" grep -q '^marker [0-9]* hello from the test$' facts.txt

# --srcline: each function's file:line, as report --srcline says it.
"$FNTRACE" export -i p.data -f perfetto --srcline 2>srcline.err | decode | check >src.txt
t_eq "srcline: the rules hold" 0 "$?"
"$FNTRACE" report -i p.data --srcline --stat | awk 'NR > 2 && $NF ~ /:/ { print "srcline", $1, $NF }' | sort >want.txt
grep '^srcline' src.txt >got.txt
t_same "srcline: as report --srcline" want.txt got.txt
t_ok "srcline: fact's among them" grep -qx 'srcline fact prog.c:8' got.txt
t_eq "srcline: every slice has its location" "$(sed -n 's/^slices //p' src.txt)" "$(sed -n 's/^located //p' src.txt)"

# The checker can fail: an end taken out is seen.
awk '/type: TYPE_SLICE_END/ && !done { done = 1; next } { print }' named.txt | check >bad.txt
t_eq "check: an end taken out is an error" 1 "$?"

# --tid: one thread's track and its process, nothing else.
worker=$(awk '$1 == "thread" && $4 == "pf-beta" { print $3 }' facts.txt)
"$FNTRACE" export -i p.data -f perfetto --tid "$worker" | decode | check >tid.txt
t_eq "--tid: one thread" "thread $pid $worker pf-beta" "$(grep '^thread' tid.txt)"
t_eq "--tid: its calls" "slices 16" "$(grep '^slices' tid.txt)"

# The function tracer: an instant per call, its caller annotated.
t_build gcc-pg -O2 graph "$top/tests/progs/graph.c"
"$FNTRACE" record -t function -o f.data -- ./graph >/dev/null 2>&1
"$FNTRACE" export -i f.data -f perfetto | decode | check >f.txt
t_eq "function: the rules hold" 0 "$?"
t_eq "function: an instant per hit" \
	"$("$FNTRACE" report -i f.data --csv | awk -F, 'NR > 1 { n += $2 } END { print n }')" \
	"$(sed -n 's/^instants //p' f.txt)"
t_ok "function: callers annotated" grep -qx 'annotation caller' f.txt
"$FNTRACE" report -i f.data | sed -n 's/.* \([0-9]*\.[0-9]\{6\}\): .*/\1/p' | paste -sd, >times.txt
t_eq "function: the report's eleven calls" 11 "$(tr ',' '\n' <times.txt | grep -c '[0-9]')"
t_eq "function: times, summed from deltas, as report prints them" \
	"$(cat times.txt)" "$(sed -n 's/^instant_times //p' f.txt)"

# Return values (-r) as an annotation of the slice's end.
"$FNTRACE" record -r -o r.data -- ./graph >/dev/null 2>&1
"$FNTRACE" export -i r.data -f perfetto | decode >r.txt
t_ok "retval: annotated" grep -q 'name: "retval"' r.txt

# Errors: one line, a non-zero exit, no file, no temp file.
"$FNTRACE" export -i nosuch.data -f perfetto -o bad.pftrace 2>err.txt
t_eq "bad -i: exit status" 1 "$?"
t_eq "bad -i: one line" 1 "$(grep -c '^fntrace: ' err.txt)"
t_ok "bad -i: no output file" test ! -e bad.pftrace
"$FNTRACE" export -i p.data -f perfetto -o nodir/x.pftrace 2>err.txt
t_eq "unwritable -o: exit status" 1 "$?"
t_ok "unwritable -o: says where" grep -q '^fntrace: cannot write nodir/x.pftrace' err.txt
script -qec "'$FNTRACE' export -i p.data -f perfetto" /dev/null >tty.txt
t_eq "a terminal: exit status" 1 "$?"
t_ok "a terminal: refused, in one line" grep -q "^fntrace: perfetto's format is binary" tty.txt
# A write that fails halfway (a file size limit): nothing is left.
(trap '' XFSZ; ulimit -f 1; "$FNTRACE" export -i p.data -f perfetto -o big.pftrace 2>err.txt)
t_eq "failed write: exit status" 1 "$?"
t_eq "failed write: one line" 1 "$(grep -c '^fntrace: cannot write' err.txt)"
t_eq "failed write: no file, no temp file" "" "$(ls big.pftrace* 2>/dev/null)"
