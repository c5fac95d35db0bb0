# Acceptance: a real multi-threaded program from Debian's sources, xz -T2,
# traced live.  (1) Under fntrace run, tracing goes on, off and on again
# with fntrace ctl while it compresses; (2) a process started without
# fntrace is attached, recorded with record -p, and detached.  Its output
# is byte-identical to an untraced run each time.

xz=$("$top/scripts/build-xz.sh" 2>xz-build.log) || { t_fail "real_xz: build xz from Debian sources" "$(tail -n 2 xz-build.log)"; return 0; }
awk 'BEGIN { srand(7); for (i = 0; i < 700000; i++)
	printf "%d line %d of the fntrace xz test %x\n", i, int(rand() * 1000), i * 2654435761 % 65536 }' >input
"$xz" -T2 -3 -c input >want.xz

wait_endpoint() {
	for i in $(seq 50); do t_endpoint "$1" && return 0; sleep 0.05; done
	return 1
}

# (1) fntrace run, switched by fntrace ctl.
"$FNTRACE" run -- "$xz" -T2 -3 -c input >got.xz 2>run.err &
pid=$!
t_ok "real_xz: control endpoint up" wait_endpoint $pid
# A small buffer: reading the graph back must not outlast xz's work (the
# ASan build of fntrace formats slowly).
"$FNTRACE" ctl $pid buffer_size_kb 1024
"$FNTRACE" ctl $pid available_filter_functions | wc -l >run.count
"$FNTRACE" ctl $pid current_tracer function_graph
sleep 0.4
"$FNTRACE" ctl $pid trace | cut -d'|' -f3 | grep -c '() {$\|();$' >graph.count
"$FNTRACE" ctl $pid current_tracer nop
sleep 0.2
"$FNTRACE" ctl $pid set_ftrace_filter 'lz*'
"$FNTRACE" ctl $pid current_tracer function
sleep 0.3
"$FNTRACE" ctl $pid trace >function.txt
t_ok "real_xz: switched while it was working" kill -0 $pid
"$FNTRACE" ctl $pid current_tracer nop
wait $pid
t_eq "real_xz: exit status under fntrace run" 0 "$?"
t_ok "real_xz: the graph had events" test "$(cat graph.count)" -gt 100
t_ok "real_xz: the function tracer had lz* events" grep -q 'lz[a-z_0-9]* <-' function.txt
t_eq "real_xz: only lz* functions then" 0 "$(sed -n 's/.*[0-9]: \([^ ]*\) <-.*/\1/p' function.txt | grep -vc '^lz')"
t_ok "real_xz: output identical after on, off, on" cmp -s want.xz got.xz

# (2) attach to a process fntrace did not start.
"$xz" -T2 -3 -c input >got2.xz &
pid=$!
# Its compressing threads block every signal, SIGTRAP too: attach lets
# them take it (every site can be switched), detach blocks it again.
# The main thread blocks every signal too while it makes a thread, for
# a moment: the masks are read once both threads are made and two
# readings 50 ms apart agree.
masks() { for t in $1; do awk '/^SigBlk:/ { print $2 }' /proc/$pid/task/$t/status; done; }
for i in $(seq 100); do
	tasks=$(ls /proc/$pid/task)
	masks "$tasks" >masks.before
	sleep 0.05
	[ "$(echo $tasks | wc -w)" -ge 3 ] && masks "$tasks" | cmp -s - masks.before && break
done
"$FNTRACE" attach $pid 2>attach.err
t_eq "real_xz: attach" 0 "$?"
t_eq "real_xz: attached, no site left out" "$(cat run.count)" \
	"$("$FNTRACE" ctl $pid available_filter_functions | wc -l)"
"$FNTRACE" record -p $pid -d 1 -F 'lzma_*' -o a.data 2>rec.err
t_eq "real_xz: record -p" 0 "$?"
t_ok "real_xz: still working while recorded" kill -0 $pid
t_eq "real_xz: no text left writable after the patching" "" \
	"$(awk '$2 ~ /w/ && $2 ~ /x/' /proc/$pid/maps)"
"$FNTRACE" detach $pid 2>detach.err
t_eq "real_xz: detach" 0 "$?"
masks "$tasks" >masks.after
t_same "real_xz: detach: the threads' signal masks as they were" masks.before masks.after
wait $pid
t_eq "real_xz: exit status after attach and detach" 0 "$?"
t_ok "real_xz: output identical after attach, record, detach" cmp -s want.xz got2.xz
"$FNTRACE" report -i a.data >a.txt
t_ok "real_xz: record -p got lzma_ functions" grep -q 'lzma_[a-z_0-9]*() {\|lzma_[a-z_0-9]*();' a.txt
t_eq "real_xz: only lzma_ functions" 0 "$(cut -d'|' -f3 a.txt | grep -o '[a-z_0-9.]*()' | grep -vc '^lzma_')"
"$FNTRACE" report -i a.data --csv | tail -n +2 | cut -d, -f1 | sort -u >threads_funcs.txt
t_ok "real_xz: both compressing threads seen" test "$(grep -o 'xz-[0-9]*' a.txt | sort -u | wc -l)" -ge 2

# (3) every function graph-traced from the start: output
# identical, and every thread's trace nests: no exit without its entry
# (frames may stay open at the end: xz calls exit() inside tuklib_exit()).
head -n 40000 input >small
"$xz" -T2 -3 -c small >want3.xz
"$FNTRACE" record -o full.data -- "$xz" -T2 -3 -c small >got3.xz 2>rec3.err
t_eq "real_xz: fully traced: exit status" 0 "$?"
t_ok "real_xz: fully traced: output identical" cmp -s want3.xz got3.xz
"$FNTRACE" report -i full.data >full.txt
t_eq "real_xz: fully traced: no event lost" "" "$(grep '^# lost' full.txt)"
# One pass over the whole report (four million lines): the threads it
# names ("xz-TID"), and those whose graph closes a frame it did not open,
# each thread's lines as r_threads splits them (tests/robust_lib.sh).
awk -F'|' '
	{ s = $0; while (match(s, / xz-[0-9]* /)) {
		seen[substr(s, RSTART + 4, RLENGTH - 5)]; s = substr(s, RSTART + RLENGTH) } }
	/^#/ || NF < 3 { next }
	{ tid = $1; sub(/ *$/, "", tid); sub(/.*-/, "", tid) }
	/\(\) \{$/   { d[tid]++ }
	$3 ~ /^ *\}/ { if (--d[tid] < 0) bad[tid] = 1 }
	END { for (t in seen) n++; print n + 0
		for (t in bad) if (t in seen) printf " %s", t; print "" }' full.txt >full.nest
n=$(sed -n 1p full.nest) bad=$(sed -n 2p full.nest)
t_ok "real_xz: fully traced: main and its worker" test "$n" -ge 2
t_eq "real_xz: fully traced: every thread nests" "" "$bad"
