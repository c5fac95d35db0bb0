# Many threads writing at once: each holds a chunk of the buffer while
# it writes, and the buffer is cut into many small chunks (shm.h), so
# that 1 000 threads alive together lose nothing under record at the
# default size, and each keeps its latest calls in overwrite mode; a busy
# thread that overwrites the buffer leaves quiet threads, and threads
# that ended, their last calls (buffer.c: superseded chunks go first).

t_build gcc-pg -O2 mt "$top/tests/progs/many_threads.c"

# counts TEXT: per thread of a function_graph text (from report or ctl
# trace), "TID CALLS LASTS": its calls of tick or quiet, and of last or
# quiet_last, which each thread makes once after them.
counts() {
	awk '$NF == "tick();" || $NF == "quiet();" { split($2, a, "-"); n[a[2]]++ }
	     $NF == "last();" || $NF == "quiet_last();" { split($2, a, "-"); l[a[2]]++ }
	     END { for (t in n) print t, n[t], l[t] + 0 }' "$1"
}

# short ROLE OUT COUNTS CALLS [MIN]: how many of OUT's threads of ROLE
# ("ROLE TID" lines) show in COUNTS (counts' lines) other than CALLS
# calls and then one last call; with MIN, fewer than MIN calls or no last.
short() {
	awk -v role="$1" -v want="$4" -v min="${5:-}" '
		FNR == NR { if ($1 == role) tids[$2] = 1; next }
		{ n[$1] = $2; l[$1] = $3 }
		END {
			for (t in tids)
				if (l[t] != 1 || (min == "" ? n[t] != want : n[t] < min))
					bad++
			print bad + 0
		}' "$2" "$3"
}

# held NAME KB ARGS...: mt ARGS... GO HOLD under fntrace run, with a
# buffer of KB, function_graph on before its threads start; once it says
# ready, the counts of its trace into NAME.counts, then it ends.  Its
# lines in NAME.out.
held() {
	local name=$1 kb=$2 pid i; shift 2
	rm -f "$name.go"
	touch "$name.hold"
	"$FNTRACE" run -- ./mt "$@" "$name.go" "$name.hold" >"$name.out" 2>"$name.err" &
	pid=$!
	for i in $(seq 100); do t_endpoint "$pid" && break; sleep 0.1; done
	"$FNTRACE" ctl "$pid" buffer_size_kb "$kb"
	"$FNTRACE" ctl "$pid" current_tracer function_graph
	touch "$name.go"
	for i in $(seq 300); do grep -q '^ready$' "$name.out" && break; sleep 0.1; done
	"$FNTRACE" ctl "$pid" trace >"$name.txt"
	rm -f "$name.hold"
	wait "$pid"
	counts "$name.txt" >"$name.counts"
}

# record: 1 000 threads of 1 000 calls, all alive at once.
"$FNTRACE" record -o r.data -- ./mt 1000 1000 >r.out 2>r.err
t_eq "many threads, record: the program ran its 1000 threads" "0 1000" \
	"$? $(grep -c '^tid ' r.out)"
t_ok "many threads, record: nothing lost" grep -q ' in 1001 threads over .*, 0 lost -> r.data$' r.err
"$FNTRACE" report -i r.data >r.txt
counts r.txt >r.counts
t_eq "many threads, record: every thread's 1000 calls are there" 0 "$(short tid r.out r.counts 1000)"

# overwrite (no recorder), at the default size: the same, its trace read
# while they are alive.
held o 16384 1000 1000
t_eq "many threads, overwrite: the program ran its 1000 threads" "1000" "$(grep -c '^tid ' o.out)"
t_eq "many threads, overwrite: every thread's 1000 calls are in trace" 0 \
	"$(short tid o.out o.counts 1000)"

# overwrite, a 4 MB buffer: 50 quiet threads make 1 500 calls each (two
# chunks' worth), then half of them end and half idle; then one busy
# thread makes 2 million calls, four times what the buffer holds.
held q 4096 quiet 50 2000000
busy=$(awk '$1 == "busy" { print $2 }' q.out)
ticks=$(awk -v t="$busy" '$1 == t { print $2 }' q.counts)
t_ok "quiet threads: the busy one overwrote the buffer (${ticks:-none} of its calls left)" \
	test "${ticks:-0}" -gt 100000 -a "${ticks:-0}" -lt 2000000
t_eq "quiet threads: 25 idle, 25 ended" "25 25" "$(grep -c '^idle ' q.out) $(grep -c '^ended ' q.out)"
t_eq "quiet threads: the idle ones keep all their calls" 0 "$(short idle q.out q.counts 1500)"
t_eq "quiet threads: the ended ones keep their last calls" 0 \
	"$(short ended q.out q.counts 1500 100)"
