# Flight recording: record --overwrite keeps the newest events in the
# program's ring, writes nothing and sleeps while it runs, and writes each
# snapshot (fntrace ctl PID snapshot 1, or one a thread of the program
# asks for) as a recording of its own, DIR/snapshot.N, and the last
# window when the program ends.  Each holds the latest calls of every
# thread, of threads that ended before it too, and says when and why it
# was taken.  record -p --overwrite does the same for a running process.

t_build gcc-pg -O2 flight "$top/tests/progs/flight.c"

# wait_for PATH: up to 20 s.
wait_for() {
	for i in $(seq 200); do [ -e "$1" ] && return 0; sleep 0.1; done
	return 1
}

# switches PID: its voluntary context switches so far (its wake-ups).
switches() {
	awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$1/status"
}

# window DIR NAME_PATTERN: the LAST column of info's window table for the
# threads whose name matches (seconds from the snapshot, one per line).
windows() {
	"$FNTRACE" info -i "$1" | awk '/^the window/ { on = 1; next }
		on && /^$/ { on = 0 } on && $1 ~ /^[0-9]+$/ { print $5 }'
}

touch hold
"$FNTRACE" record --overwrite -b 2048 -o fl.data -- ./flight hold ended ask asked \
	>out.txt 2>rec.err &
rec=$!
wait_for ended
pid=$(sed -n 's/^pid: //p' fl.data/flight 2>/dev/null)
for i in $(seq 100); do t_endpoint "$pid" && break; sleep 0.1; done
t_ok "the flight file names the program" test -n "$pid"

size=$(du -sb fl.data | cut -f1)
woken=$(switches "$rec")
sleep 1
t_eq "nothing written while the program runs" "$size" "$(du -sb fl.data | cut -f1)"
t_eq "the recorder sleeps meanwhile (no wake-up)" "$woken" "$(switches "$rec")"

"$FNTRACE" ctl "$pid" snapshot 1
t_ok "snapshot 1: written out" wait_for fl.data/snapshot.1
size=$(du -sb fl.data | cut -f1)
sleep 1
t_eq "nothing written between snapshots" "$size" "$(du -sb fl.data | cut -f1)"
"$FNTRACE" ctl "$pid" snapshot 1
t_ok "snapshot 2: written out" wait_for fl.data/snapshot.2
touch ask
wait_for asked
t_eq "a thread of the program asks for one" ok "$(cat asked 2>/dev/null)"
t_ok "... written out too" wait_for fl.data/snapshot.3

t_error "0 while recorded: refused, in one line" 1 \
	"snapshot: the snapshot buffer is the fntrace record that started the process's" \
	"$FNTRACE" ctl "$pid" snapshot 0
t_error "record -p of it: refused, in one line" 1 \
	"flight-recorded by the fntrace record that started it" \
	"$FNTRACE" record -p "$pid" -o other.data

rm -f hold
wait "$rec"
t_eq "the program's exit status passed on" 0 "$?"
t_ok "the last window when the program ended" test -d fl.data/snapshot.4
t_eq "... and no more" "" "$(ls -d fl.data/snapshot.5* 2>/dev/null)"
t_ok "one line per snapshot, and a summary" grep -q "^fntrace: 4 snapshots .* -> fl.data/snapshot.1 .. snapshot.4$" rec.err
t_ok "each line says what the ring lost so far" \
	test "$(grep -c '^fntrace: snapshot [1-4] (.*, [0-9]* lost so far -> fl.data/snapshot.[1-4]$' rec.err)" -eq 4

for n in 1 2 3 4; do
	d=fl.data/snapshot.$n
	"$FNTRACE" report -i "$d" >report.$n 2>report.$n.err
	t_eq "snapshot $n: reported" "0 " "$? $(cat report.$n.err)"
	for f in worker_tick main_tick ender_last burst_call; do
		t_ok "snapshot $n: holds $f" grep -q " $f();" report.$n
	done
	"$FNTRACE" info -i "$d" >info.$n
	t_eq "snapshot $n: every thread's window (main, two workers, two ended)" 5 \
		"$(windows "$d" | wc -l)"
done
# The live threads' last calls are the latest: each a moment before the
# snapshot (they call every few ms), none after it.
latest=$(windows fl.data/snapshot.1 | awk '$1 <= 0 && $1 > -2 { n++ } END { print n + 0 }')
t_ok "snapshot 1: main and the workers' last calls just before it ($latest threads)" \
	test "$latest" -ge 3
t_ok "snapshot 1: the burst overwrote older events" \
	grep -Eq '^overwritten +[1-9][0-9]* chunks' info.1
t_ok "snapshot 1: why (the pid of fntrace ctl)" grep -Eq '^why +1 written to the snapshot file, by pid [0-9]+' info.1
t_ok "snapshot 3: why (the thread that asked)" grep -Eq "^why +asked by thread $pid of the program" info.3
t_ok "snapshot 4: the program's end, said" grep -q "^why .*the program ended: the ring's last window" info.4
t_ok "snapshot 4: ... with its exit" grep -q '^program ended    exit status 0' info.4
t_ok "snapshot 2: when" grep -Eq '^snapshot +2, taken [0-9]{4}-' info.2
t_eq "snapshot 2: not overtaken, not said" "" "$(grep '^overtaken' info.2)"
# A copy the writers went round the ring during (test_snapshot makes one)
# says so: its info read from a copy of the snapshot given the line.
cp -r fl.data/snapshot.2 over.data && echo "snapshot_overtaken: 300" >>over.data/info
t_ok "overtaken: said, not counted as overwritten" sh -c "'$FNTRACE' info -i over.data |
	grep -Eq '^overtaken +300 chunks published while it was copied, a whole turn of the ring'"
"$FNTRACE" export -i fl.data/snapshot.2 --format chrome -o s2.json 2>export.err
t_eq "snapshot 2: exported" "0 " "$? $(cat export.err)"
t_error "the flight directory itself: which snapshots to read" 1 \
	"fl.data is a flight recording: read one of its snapshots, fl.data/snapshot.1 to fl.data/snapshot.4" \
	"$FNTRACE" report -i fl.data

# Another flight recording to the same place keeps this one as DIR.old.
touch hold
"$FNTRACE" record --overwrite -o fl.data -- ./flight hold ended ask asked 1000 >/dev/null 2>&1 &
rec=$!
sleep 0.5
rm -f hold
wait "$rec"
t_ok "again: the previous one kept as fl.data.old" test -d fl.data.old/snapshot.4
t_ok "again: its last window" test -d fl.data/snapshot.1

# record -p --overwrite: a running process, its settings back after.
rm -f ended asked
touch hold
"$FNTRACE" run -- ./flight hold ended ask asked 20000 >/dev/null 2>&1 &
pid=$!
wait_for ended
for i in $(seq 100); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" record -p "$pid" --overwrite -o fp.data 2>fp.err &
rec=$!
for i in $(seq 100); do
	[ "$("$FNTRACE" ctl "$pid" current_tracer)" = function_graph ] && break
	sleep 0.1
done
sleep 0.3
woken=$(switches "$rec")
sleep 1
t_eq "-p: the recorder sleeps (no wake-up)" "$woken" "$(switches "$rec")"
"$FNTRACE" ctl "$pid" snapshot 1
t_ok "-p: snapshot 1 written out" wait_for fp.data/snapshot.1
kill -INT "$rec"
wait "$rec"
t_eq "-p: Ctrl-C ends it well" 0 "$?"
"$FNTRACE" info -i fp.data/snapshot.2 >fp.info
t_ok "-p: the window then, as the last snapshot" grep -q "^why .*the recording stopped" fp.info
"$FNTRACE" report -i fp.data/snapshot.1 >fp.report
t_ok "-p: snapshot 1 holds the workers' calls" grep -q ' worker_tick();' fp.report
t_eq "-p: the tracer put back" nop "$("$FNTRACE" ctl "$pid" current_tracer)"
t_eq "-p: overwrite back on" 1 "$("$FNTRACE" ctl "$pid" options/overwrite)"
rm -f hold
wait "$pid"

t_error "live --overwrite: refused, saying what to use" 2 \
	"^fntrace live: --overwrite keeps snapshots: use 'fntrace record --overwrite -o DIR'" \
	"$FNTRACE" live --overwrite -- ./flight hold ended ask asked
t_ok "record --help: --overwrite, with an example" sh -c \
	"'$FNTRACE' record --help | grep -q -- '--overwrite  *flight recording' &&
	 '$FNTRACE' record --help | grep -q 'example:.*' &&
	 '$FNTRACE' record --help | grep -q 'fntrace record --overwrite -b 65536 -o flight'"
t_ok "ctl --help: the snapshot file, with an example" sh -c \
	"'$FNTRACE' ctl --help | grep -q 'snapshot (write 1: take one' &&
	 '$FNTRACE' ctl --help | grep -q 'fntrace ctl 4242 snapshot 1'"

# With --max-size, each snapshot keeps its newest SIZE, and its line
# counts what it kept and says what was dropped.
"$FNTRACE" record --overwrite --max-size=256K -o cap.data -- ./flight nohold e2 a2 q2 200000 \
	>/dev/null 2>cap.err
t_eq "--max-size: the program's status" 0 "$?"
kept=$("$FNTRACE" info -i cap.data/snapshot.1 | awk '$1 == "events" { print $2 }')
t_ok "--max-size: the line counts the events kept ($kept), says what went" \
	grep -q "^fntrace: snapshot 1 (.*: [0-9]* calls, $kept events .*; oldest .* dropped by --max-size=256" cap.err

# A previous flight directory is replaced only if nothing in it is the
# user's: a snapshot that is a link to the user's directory refuses the
# recording before anything is removed.
"$FNTRACE" record --overwrite -o cap.data -- ./flight nohold e3 a3 q3 10 >/dev/null 2>&1
mkdir mine && echo keep >mine/file
rm -rf cap.data.old/snapshot.1 && ln -s "$PWD/mine" cap.data.old/snapshot.1
t_error "a link in the old flight directory: refused" 1 "cap.data.old exists and is not an fntrace recording" \
	"$FNTRACE" record --overwrite -o cap.data -- ./flight nohold e4 a4 q4 10
t_eq "... the user's directory untouched" keep "$(cat mine/file)"
t_eq "... and nothing of the old directory removed" "flight shared snapshot.1" \
	"$(ls cap.data.old | tr '\n' ' ' | sed 's/ $//')"
