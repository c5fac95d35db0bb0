# tracing_thresh, the kernel's rule: function_graph records only the calls
# that lasted at least that long, each whole at its exit, printed as the
# kernel prints a return whose entry it never saw.  tests/progs/thresh.c:
# main -> outer -> nap (2 ms) every round, a hundred and three quick()
# calls around them.  With a threshold of 1 ms, main, outer and nap are
# kept; a quick() call is only if the machine held it up that long,
# which the checks allow (a few, each as long as the threshold).
# Then: every reader agrees (report, --stat, info, the exports, the
# flame graph), the option's and the control file's refusals, the file
# switched while the program runs, and record -p.

t_build gcc-pg -O2 thresh "$top/tests/progs/thresh.c"

# graph_lines FILE: "NAME DEPTH US" for each whole call of a graph view.
graph_lines() {
	awk -F'|' '/\} \/\* [a-z]+ \*\/$/ {
		name = $3; sub(/.*\/\* /, "", name); sub(/ \*\/$/, "", name)
		indent = $3; sub(/\}.*/, "", indent)
		us = $2; gsub(/[^0-9.]/, "", us)
		print name, (length(indent) - 2) / 2, us }' "$1"
}

start=$(date +%s%N)
"$FNTRACE" record --tracing-thresh=1000 -o t.data -- ./thresh 5 >out.txt 2>rec.err
t_eq "record: the program ran" "0 5 rounds" "$? $(cat out.txt)"
wall_us=$((($(date +%s%N) - start) / 1000))
"$FNTRACE" report -i t.data >graph.txt
graph_lines graph.txt >calls.txt
t_eq "graph: the slow calls, each after its callees, outermost last" \
	"nap outer nap outer nap outer nap outer nap outer main" \
	"$(awk '$1 != "quick" { print $1 }' calls.txt | tr '\n' ' ' | sed 's/ $//')"
t_eq "graph: at their depths" "main 0 outer 1 nap 2" \
	"$(awk '$1 != "quick" && !seen[$1]++ { print $1, $2 }' calls.txt | sort -k2n | tr '\n' ' ' | sed 's/ $//')"
t_eq "graph: no call shorter than the threshold" "" \
	"$(awk '$3 < 995 { print }' calls.txt)"
t_eq "graph: quick() only if held up past it, never most of them" 1 \
	"$(awk '$1 == "quick" { n++ } END { print (n < 50) }' calls.txt)"
# The clock's rate, as the durations case checks it: no nap shorter than
# its 2 ms, and main no longer than the recording took.
t_eq "graph: naps of 2 ms at least" "" "$(awk '$1 == "nap" && $3 < 1900 { print }' calls.txt)"
t_eq "graph: main within the recording's time" "" \
	"$(awk -v wall="$wall_us" '$1 == "main" && $3 > wall { print $0, "over", wall }' calls.txt)"
t_eq "graph: every line in the kernel's format" "" \
	"$(grep -v '^#' graph.txt | grep -Ev '^ +([0-9]+|\?)\) +thresh-[0-9]+ +\| [ +!#*@$] +[0-9.]{7,8} us +\|  ( {2})*\} /\* [a-z]+ \*/$')"

# Every reader counts the same calls.
info_calls=$("$FNTRACE" info -i t.data | awk '$1 == "calls" { print $2 }')
t_eq "info: every line a call" "$(wc -l <calls.txt)" "$info_calls"
t_ok "info: says the threshold" sh -c "'$FNTRACE' info -i t.data | grep -q '^tracing_thresh *1000 us'"
t_ok "record's line: the same calls" grep -q "recorded $info_calls calls" rec.err
"$FNTRACE" report -i t.data --csv >stat.csv
t_eq "--stat: hits" "main 1 nap 5 outer 5" \
	"$(awk -F, 'NR > 1 && $1 != "quick" { print $1, $2 }' stat.csv | sort | tr '\n' ' ' | sed 's/ $//')"
main_ns=$(awk -F, '$1 == "main" { print $3 }' stat.csv)
t_eq "--stat: main's time is its one call's" 1 \
	"$(awk -v ns="$main_ns" '$1 == "main" { d = $3 * 1000 - ns; print (d > -1000 && d < 1000) }' calls.txt)"
"$FNTRACE" export -i t.data -f chrome -o t.json
t_eq "chrome: a complete event per call" "$info_calls" "$(grep -c '"ph":"X"' t.json)"
t_eq "chrome: no other call events" 0 "$(grep -c '"ph":"[BE]"' t.json)"
t_ok "chrome: valid JSON" python3 -c "import json; json.load(open('t.json'))"
"$FNTRACE" export -i t.data -f perfetto -o t.pftrace
protoc -I"$top/tests/data" --decode=perfetto_min.Trace perfetto_min.proto <t.pftrace |
	python3 "$top/tests/data/perfetto_check.py" >facts.txt
t_eq "perfetto: TrackEvent's rules hold" 0 "$?"
t_eq "perfetto: a slice per call" "slices $info_calls" "$(grep '^slices' facts.txt)"
"$FNTRACE" export -i t.data -f folded >folded.txt
t_ok "flame graph: nap below outer below main" grep -q '^main;outer;nap [0-9]' folded.txt
t_eq "flame graph: the self times add up to main's" "$main_ns" \
	"$(awk '{ n += $NF } END { print n }' folded.txt)"

# A caller that never ends (main leaves by exit()): its calls go below a
# stand-in in the flame graph, and count in --stat all the same.
"$FNTRACE" record --tracing-thresh=1000 -o exit.data -- ./thresh 3 exit >/dev/null 2>&1
t_eq "no caller: below [unfinished]" "[unfinished];outer [unfinished];outer;nap" \
	"$("$FNTRACE" export -i exit.data -f folded | awk '$1 !~ /quick/ { print $1 }' | sort | tr '\n' ' ' | sed 's/ $//')"
t_eq "no caller: --stat counts them" "nap 3 outer 3" \
	"$("$FNTRACE" report -i exit.data --csv | awk -F, 'NR > 1 && $1 != "quick" { print $1, $2 }' | sort | tr '\n' ' ' | sed 's/ $//')"

# The report's rules: -F picks by name, and a range in the middle of the
# run still shows main, which began before it and ended long after.
t_eq "-F nap: the naps alone" "nap nap nap nap nap" \
	"$("$FNTRACE" report -i t.data -F nap | graph_lines /dev/stdin | awk '{ print $1 }' | tr '\n' ' ' | sed 's/ $//')"
t_ok "--time-range: main, which overlaps it" \
	sh -c "'$FNTRACE' report -i t.data --time-range 1us~2us | grep -q '} /\* main \*/'"

# Without a threshold, every call is there.
"$FNTRACE" record -o all.data -- ./thresh 5 >/dev/null 2>&1
t_eq "no threshold: quick() 515 times" 515 \
	"$("$FNTRACE" report -i all.data --csv | awk -F, '$1 == "quick" { print $2 }')"

# The option, refused in one line: junk, out of range, the wrong tracer,
# values a whole call has no room for.
for v in abc -1 4294967296 1e3; do
	t_error "record --tracing-thresh=$v: refused" 2 "^fntrace record: --tracing-thresh wants microseconds" \
		"$FNTRACE" record --tracing-thresh="$v" -o x.data -- ./thresh 1
done
t_error "record: the function tracer has no threshold" 2 "needs the function_graph tracer" \
	"$FNTRACE" record -t function --tracing-thresh=10 -o x.data -- ./thresh 1
t_error "record: no return values with it" 2 "without their arguments or return values" \
	"$FNTRACE" record -r --tracing-thresh=10 -o x.data -- ./thresh 1
t_error "run --tracing-thresh=x: refused" 2 "^fntrace run: --tracing-thresh wants microseconds" \
	"$FNTRACE" run --tracing-thresh=x -- ./thresh 1
t_ok "record --help: the option, with an example" sh -c "'$FNTRACE' record --help | grep -q 'record --tracing-thresh=1000 --'"
t_ok "run --help: the option, with an example" sh -c "'$FNTRACE' run --help | grep -q 'run --tracing-thresh=500 --'"

# The control file, on a program started with a threshold: read, refused
# junk that changes nothing, switched off and on while the program runs.
touch hold
"$FNTRACE" run --tracing-thresh=1000 -- ./thresh 0 hold >run.out 2>run.err &
pid=$!
for i in $(seq 100); do t_endpoint "$pid" && break; sleep 0.1; done
t_eq "ctl: run's threshold" 1000 "$("$FNTRACE" ctl $pid tracing_thresh)"
for v in abc -5 4294967296 99999999999999999999 ''; do
	"$FNTRACE" ctl $pid tracing_thresh "$v" 2>err.txt
	t_eq "ctl: '$v' refused, in one line" "1 1" "$? $(wc -l <err.txt)"
	t_ok "ctl: ... saying why" grep -q "^fntrace: tracing_thresh: not a number from 0 to 4294967295: '$v'\$" err.txt
done
t_eq "ctl: the refusals changed nothing" 1000 "$("$FNTRACE" ctl $pid tracing_thresh)"

# wait_for FUNC TEXT: until the trace has a line of FUNC's ending in TEXT
# (10 s at most), then the trace in live.txt.
wait_for() {
	for i in $(seq 100); do
		"$FNTRACE" ctl $pid trace >live.txt
		grep -q "$1$2\$" live.txt && return 0
		sleep 0.1
	done
	return 1
}
"$FNTRACE" ctl $pid current_tracer function_graph
t_ok "live: whole calls" wait_for "} /\* nap" " \*/"
t_eq "live: quick() kept only if held up" 1 "$(grep -c 'quick' live.txt | awk '{ print ($1 < 50) }')"
"$FNTRACE" ctl $pid tracing_thresh 0
"$FNTRACE" ctl $pid trace ''
t_ok "live: switched off, every call again" wait_for "quick" "();"
"$FNTRACE" ctl $pid tracing_thresh 1000
"$FNTRACE" ctl $pid trace ''
t_ok "live: switched on again, whole calls" wait_for "} /\* outer" " \*/"
t_eq "live: and no entry since" 0 "$(grep -c '() {$\|();$' live.txt)"

# record -p sets its own, and puts the process's back after.
"$FNTRACE" ctl $pid tracing_thresh 3000
"$FNTRACE" record -p $pid -d 1 --tracing-thresh=1000 -o p.data 2>p.err
t_eq "record -p: recorded" 0 "$?"
t_eq "record -p: naps at 1 ms, with the recording's threshold" 1 \
	"$("$FNTRACE" report -i p.data | graph_lines /dev/stdin | awk '$1 == "nap" { n++ } END { print (n > 0) }')"
t_eq "record -p: the process's threshold put back" 3000 "$("$FNTRACE" ctl $pid tracing_thresh)"
rm -f hold
wait $pid
t_eq "the program ran to its end" 0 "$?"
