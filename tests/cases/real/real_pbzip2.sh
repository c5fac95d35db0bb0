# A real multi-threaded C++ program from Debian's
# sources, started plainly, attached and traced with function_graph while
# it works, detached: its output is byte-identical to an untraced run's.
# pbzip2 (scripts/build-pbzip2.sh) reads its input from a FIFO the test
# feeds, so that what it does while attached is known exactly: the second
# 10 MB arrive only after the attach (made while it compresses the
# first) and the tracer's start, 100 blocks of 100 kB, each handed by
# one of its two compressing threads to outputBufferAdd() once.
# Required: when something it needs is missing it fails, it never skips.

pb=$("$top/scripts/build-pbzip2.sh" 2>build.log) ||
	{ t_fail "real_pbzip2: build pbzip2 from Debian's sources" "$(tail -n 2 build.log)"; return 0; }
seq 1 4000000 >input
"$pb" -p2 -b1 -c <input >want.bz2
t_ok "real_pbzip2: compresses untraced" test -s want.bz2

# cpu PID: the clock ticks its threads have used.
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# idle PID: wait (up to 30 s) until it is waiting for input, using under
# two ticks of CPU in 0.3 s.
idle() {
	local a b i
	for i in $(seq 100); do
		a=$(cpu "$1"); sleep 0.3; b=$(cpu "$1")
		[ $((b - a)) -lt 2 ] && return 0
	done
	return 1
}

rm -f fifo
mkfifo fifo
"$pb" -p2 -b1 -c <fifo >got.bz2 2>pb.err &
pid=$!
exec 3>fifo
head -c 10000000 input >&3
"$FNTRACE" attach $pid 2>attach.err
t_eq "real_pbzip2: attached while it compresses the first 10 MB" 0 "$?"
t_ok "real_pbzip2: the first 10 MB compressed" idle $pid
"$FNTRACE" ctl $pid current_tracer function_graph
tail -c +10000001 input | head -c 10000000 >&3
t_ok "real_pbzip2: the next 10 MB compressed, traced" idle $pid
"$FNTRACE" ctl $pid trace >trace.txt 2>trace.err
t_eq "real_pbzip2: trace read" "0 " "$? $(cat trace.err)"
"$FNTRACE" detach $pid 2>>attach.err
t_eq "real_pbzip2: detached" 0 "$?"
tail -c +20000001 input >&3
exec 3>&-
wait $pid
t_eq "real_pbzip2: exit status as untraced" 0 "$?"
t_eq "real_pbzip2: nothing said" "" "$(cat pb.err)"
t_ok "real_pbzip2: output identical to the untraced run's" cmp -s want.bz2 got.bz2
t_eq "real_pbzip2: fntrace said only attached and detached" "" \
	"$(grep -v 'fntrace: \(attached to\|detached from\) process' attach.err)"

# calls NAME: how many calls of NAME the graph has.
calls() { cut -d'|' -f3 trace.txt | grep -c "^ *$1() {\$\|^ *$1();\$"; }
t_eq "real_pbzip2: each block traced once" 100 "$(calls outputBufferAdd)"
t_ok "real_pbzip2: by both compressing threads" test \
	"$(grep 'outputBufferAdd()' trace.txt | cut -d'|' -f1 | sed 's/.*-//' | sort -u | wc -l)" -eq 2
t_ok "real_pbzip2: the threads' waits traced" test "$(calls safe_cond_timed_wait)" -gt 0
