# Acceptance (short form; bench/ has the long one): 8 threads call traced
# functions in tight loops while set_ftrace_filter flips between a_* and
# b_* LIVE_STRESS_FLIPS times (2000).  Under qemu-user (ARCH_EMULATED)
# threads are always synced by signals: that variant alone runs.  No crash, the right checksum, every thread's entries
# and exits nest, and no event for a function never enabled.

. "$top/tests/robust_lib.sh"

t_build gcc-pg -O2 stress "$top/tests/progs/stress.c"
./stress 8 100000 0 >want.txt

# only_a_b NAMES: some names, none but the a_* and b_* functions
only_a_b() {
	[ -n "$1" ] || return 1
	for f in $1; do
		case $f in a_one|a_two|b_one|b_two) ;; *) return 1 ;; esac
	done
}

# names REPORT: the functions that have events in a function_graph
# report ("NAME()" in the function column).  In awk: the reports have
# millions of lines.
names() {
	awk -F'|' '{ s = $3; while (match(s, /[a-z_]*\(\)/)) {
		n[substr(s, RSTART, RLENGTH - 2)]; s = substr(s, RSTART + RLENGTH) } }
		END { for (f in n) print f }' "$1" | sort | tr '\n' ' ' | sed 's/ $//'
}

# callees REPORT: the functions that have events in a function report
# ("TIMESTAMP: NAME <-CALLER").
callees() {
	awk '$NF ~ /^<-/ && $(NF - 2) ~ /[0-9]:$/ && $(NF - 1) ~ /^[a-z_]*$/ { print $(NF - 1) }' "$1" |
		sort -u | tr '\n' ' ' | sed 's/ $//'
}

# lossy DATA: the threads info counts lost events for.
lossy() {
	"$FNTRACE" info -i "$1" | awk '$1 == "PID" && $2 == "TID" { on = 1; next }
		on && NF >= 6 && $NF > 0 { print $2 }' | tr '\n' ' ' | sed 's/ $//'
}

# unsaid DATA: info's line for events lost in threads that ended before
# they could say so (none: "").
unsaid() {
	"$FNTRACE" info -i "$1" | grep 'before they could say so'
}

# without LIST DROP: the words of LIST not in DROP.
without() {
	for w in $1; do case " $2 " in *" $w "*) ;; *) printf '%s ' "$w" ;; esac; done | sed 's/ $//'
}

flips=${LIVE_STRESS_FLIPS:-2000}
syncs="membarrier signals"
[ -n "${ARCH_EMULATED:-}" ] && syncs=signals
for sync in $syncs; do
	env=""
	[ $sync = signals ] && env="FNTRACE_NO_MEMBARRIER=1"
	for tracer in function_graph function; do
		name="stress ($tracer, sync by $sync)"
		env $env "$FNTRACE" record -t $tracer -F 'a_*' -o s.data -- ./stress 8 100000 "$flips" >got.txt 2>err.txt
		t_eq "$name: exit status" 0 "$?"
		t_same "$name: checksum" want.txt got.txt
		t_eq "$name: nothing said" "" "$(grep -v 'recorded' err.txt)"
		"$FNTRACE" report -i s.data >r.txt
		if [ $tracer = function ]; then got=$(callees r.txt)
		else got=$(names r.txt); fi
		# Which of the two sets had calls depends on how the flips and the
		# workers were scheduled; that nothing else had any does not.
		t_ok "$name: only a_* and b_* functions" only_a_b "$got"
		[ $tracer = function ] && continue
		t_eq "$name: every loss said by its own thread" "" "$(unsaid s.data)"
		t_eq "$name: every thread that lost nothing nests" "" \
			"$(without "$(r_all_nest r.txt)" "$(lossy s.data)")"
	done
done

# The stop-the-world baseline of the benchmarks works too.
FNTRACE_PATCH=stop "$FNTRACE" record -F 'a_*' -o w.data -- ./stress 8 100000 500 >got.txt 2>/dev/null
t_same "stress (stop-the-world): checksum" want.txt got.txt

# A buffer far too small for eight busy threads: most events are lost,
# and every thread says how many in its own stream, the last ones as
# they end (the report then resumes each thread at the depth it gave).
# Natively: the recorder's logic, not the architecture's.  A recorder
# that keeps up loses nothing (a loaded machine slows the workers more
# than it), so it is stopped for half a second once all eight run: ten
# times the iterations keep them busy for seconds.
[ -n "${ARCH_EMULATED:-}" ] && return 0
./stress 8 1000000 0 >want.txt
"$FNTRACE" record -b 1024 -t function_graph -F 'a_*' -o small.data -- \
	./stress 8 1000000 "$flips" >got.txt 2>err.txt &
rec=$!
for i in $(seq 400); do
	prog=$(pgrep -P $rec)
	[ -n "$prog" ] && [ "$(ls /proc/$prog/task 2>/dev/null | wc -l)" -ge 9 ] && break
	sleep 0.01
done
kill -STOP $rec
sleep 0.5
kill -CONT $rec
wait $rec
t_eq "a 1 MB buffer: exit status" 0 "$?"
t_same "a 1 MB buffer: checksum" want.txt got.txt
t_ok "a 1 MB buffer: events lost" test -n "$(lossy small.data)"
t_eq "a 1 MB buffer: every loss said by its own thread" "" "$(unsaid small.data)"
