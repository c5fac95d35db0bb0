# The function profiler counts every call its filter (set_ftrace_filter,
# set_ftrace_notrace) allows, whatever max_graph_depth, set_graph_function
# and set_graph_notrace say: as in the kernel, those shape function_graph's
# output only.  With function_graph on too, the graph still follows them
# exactly.  A build form of each kind of call site (mcount, return sites,
# patchable entries) this architecture has; the program says how many
# calls it made.

n=400
mkdir -p sync

# "fa A fb B fc C leaf L": the hits trace_stat/function (or report
# --stat) gives them in the file $1, less those in the file $2 if given.
profiled() {
	awk 'FNR == NR && ARGC == 3 { before[$1] = $2; next } { hits[$1] = $2 - before[$1] } END {
		printf "fa %d fb %d fc %d leaf %d\n", hits["fa"], hits["fb"], hits["fc"], hits["leaf"] }' "$@"
}

# The same of the entries in a function_graph text (run_round's first).
graphed() {
	t_graph_calls "$1" | grep -o '^ *[a-z_]*()' | tr -d ' ()' |
		awk '{ calls[$1]++ } END { printf "run_round %d fa %d fb %d fc %d leaf %d\n",
			calls["run_round"], calls["fa"], calls["fb"], calls["fc"], calls["leaf"] }'
}

pctl() { "$FNTRACE" ctl "$pid" "$@"; }

# One round of the program, traced from an empty buffer; its counts in
# done.txt, the profile before it in before.txt and after it in stat.txt
# (the profiler runs on: restarting it would patch every site each time),
# the graph in trace.txt.
round() {
	mv stat.txt before.txt && pctl trace '' && touch sync/go || return 1
	for i in $(seq 1500); do [ -e sync/done ] && break; sleep 0.02; done
	mv sync/done done.txt && pctl trace_stat/function >stat.txt && pctl trace >trace.txt
}

# check WHAT GRAPH: one round under the settings made before; the
# profile must be the program's own counts, and the graph GRAPH ("" for
# a tracer without a graph).
check() {
	if ! round; then
		t_fail "$flavor, $1: a round ran" "$(tail -n 2 run.err | tr '\n' ' ')"
		return
	fi
	t_eq "$flavor, $1: the profile counts every call" "$(cat done.txt)" \
		"$(profiled before.txt stat.txt)"
	[ -z "$2" ] || t_eq "$flavor, $1: the graph as the settings say" "$2" "$(graphed trace.txt)"
}

# The program's calls per round (tests/progs/profile_counts.c): fc is
# called n/2 times in fa and n/4 outside it, fb n/2 times in fa itself.
all="run_round 1 fa $n fb $((n * 5 / 4)) fc $((n * 3 / 4)) leaf $((n * 9 / 4))"
depth1="run_round 1 fa 0 fb 0 fc 0 leaf 0"
depth2="run_round 1 fa $n fb 0 fc $((n / 4)) leaf 0"
in_fa="run_round 0 fa $n fb $n fc $((n / 2)) leaf $((n * 2))"
in_fa_depth2="run_round 0 fa $n fb $((n / 2)) fc $((n / 2)) leaf $n"
no_fc="run_round 1 fa $n fb $((n / 2)) fc 0 leaf $((n * 3 / 2))"

# The first build form of each kind there is.
kinds=
for kind in '*-pg' '*-return' '*-patchable'; do
	for f in $FLAVORS; do
		case $f in $kind) kinds="$kinds $f"; break ;; esac
	done
done

for flavor in $kinds; do
	t_build "$flavor" -O2 "counts-$flavor" "$top/tests/progs/profile_counts.c" || {
		t_fail "$flavor: build"; continue; }
	rm -f sync/*
	"$FNTRACE" run -- "./counts-$flavor" $n "$PWD/sync" >/dev/null 2>run.err &
	pid=$!
	for i in $(seq 100); do t_endpoint "$pid" && break; sleep 0.1; done
	pctl function_profile_enabled 1 && pctl trace_stat/function >stat.txt

	pctl max_graph_depth 2 && pctl set_graph_function fa && pctl set_graph_notrace leaf
	check "nop, with every graph option set" ""
	pctl set_graph_notrace ''
	pctl current_tracer function
	check "function, max_graph_depth 2, set_graph_function fa" ""
	pctl current_tracer function_graph
	check "function_graph, max_graph_depth 2, set_graph_function fa" "$in_fa_depth2"
	pctl max_graph_depth 0
	check "function_graph, set_graph_function fa" "$in_fa"
	pctl set_graph_function ''
	check "function_graph, no graph option" "$all"
	pctl max_graph_depth 1
	check "function_graph, max_graph_depth 1" "$depth1"
	pctl max_graph_depth 2
	check "function_graph, max_graph_depth 2" "$depth2"
	pctl max_graph_depth 0 && pctl set_graph_notrace fc
	check "function_graph, set_graph_notrace fc" "$no_fc"
	# The profiler's own filter still decides what it counts.
	pctl set_graph_notrace '' && pctl set_ftrace_notrace leaf
	if round; then
		t_eq "$flavor, set_ftrace_notrace leaf: leaf is not profiled" \
			"$(sed 's/leaf [0-9]*/leaf 0/' done.txt)" "$(profiled before.txt stat.txt)"
	else
		t_fail "$flavor, set_ftrace_notrace leaf: a round ran"
	fi
	touch sync/stop
	wait $pid
	t_eq "$flavor: the program ended well" 0 $?
done

# A recording: the function tracer's hits ignore -D, the graph's follow it.
t_build gcc-pg -O2 counts "$top/tests/progs/profile_counts.c"
"$FNTRACE" record -t function -D 1 -o f.data -- ./counts $n >truth.txt 2>/dev/null
"$FNTRACE" report -i f.data --stat >fstat.txt
t_eq "record -t function -D 1: report --stat counts every call" "$(cat truth.txt)" \
	"$(profiled fstat.txt)"
"$FNTRACE" record -D 2 -o g.data -- ./counts $n >/dev/null 2>&1
"$FNTRACE" report -i g.data --stat >gstat.txt
t_eq "record -D 2: report --stat has the graph's two levels (main, run_round)" \
	"run_round 1 fa 0 fb 0 fc 0 leaf 0" \
	"$(awk '$1 == "run_round" { print $1, $2 }' gstat.txt) $(profiled gstat.txt)"
