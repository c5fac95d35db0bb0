# record --max-size=SIZE keeps the newest SIZE of trace: trace.dat as
# numbered segments, the oldest removed as the recording grows, the
# directory never much past SIZE; the report reads what is left as one
# trace, nested where it begins mid-call, and says, as info and the
# recorder's last line do, what was dropped.

t_build gcc-pg -O2 rotate "$top/tests/progs/rotate.c"
cap=1048576			# --max-size=1M
seg=$((262144 + 16))		# a segment: an eighth of that, a chunk at least

# segments_bytes DIR: the bytes of DIR's segments, added up.
segments_bytes() {
	cat "$1"/trace.dat.* 2>/dev/null | wc -c
}

# nests REPORT: "" if the graph of REPORT nests, else the first line that
# does not.  A call closes with its own name at its entry's indentation;
# a frame entered before the trace kept begins closes as "?", outside
# every frame the trace opened, each one level out from the one before.
# Events lost (a recorder that fell behind a program that never stops)
# close unseen the frames deeper than where the next line resumes, and
# may open unnamed ones above those still open; a frame open across the
# loss may end in "?", as the report pairs no entry before a loss with
# an exit after it.
nests() {
	awk -F'|' '/\[LOST ([0-9]+ )?EVENTS\]$/ { lost = 1; seen = 0; for (i = 1; i <= n; i++) ok[i] = 1; next }
		/^#/ || NF < 3 { next }
		{ f = $3; sub(/^  /, "", f); ind = match(f, /[^ ]/) - 1; f = substr(f, ind + 1)
		  closing = f ~ /^\}/
		  while (lost && n && (at[n] > ind || (!closing && at[n] == ind))) n--
		  lost = 0 }
		f ~ /\(\) \{$/ { name[++n] = substr(f, 1, index(f, "(") - 1); at[n] = ind; ok[n] = 0; next }
		closing {
			who = f; sub(/^\} \/\* /, "", who); sub(/ \*\/$/, "", who)
			if (who == "?" && n && ok[n] && at[n] < ind) next
			while (who == "?" && n && ok[n] && at[n] > ind) n--
			if (who == "?" && n && ok[n] && at[n] == ind) { n--; next }
			if (n) { if (who != name[n] || ind != at[n]) { print; exit } n--; next }
			if (who != "?" || (seen && ind >= outer)) { print; exit }
			seen = 1; outer = ind }
		END { if (n) print "still open: " name[n] }' "$1"
}

# The program writes some 16 MB of trace; 1 MB of it is kept.  The
# buffer holds it all, so that no event is lost whatever the machine's
# load: the one place the report resumes at is where what it kept
# begins.
"$FNTRACE" record -b 32768 --max-size=1M -o r.data -- ./rotate 1000000 >out.txt 2>err.txt
t_eq "a run past the cap: the program's status" 0 "$?"
t_eq "a run past the cap: the program's output" "done" "$(cat out.txt)"
t_eq "no trace.dat: segments" "" "$(ls r.data/trace.dat 2>/dev/null)"
bytes=$(segments_bytes r.data)
t_ok "the segments hold the cap at most, and one segment ($bytes bytes)" \
	test "$bytes" -le $((cap + seg)) -a "$bytes" -gt $((cap / 2))
t_ok "the oldest segments are gone" test ! -e r.data/trace.dat.0
t_ok "the recorder's last line says what was dropped" \
	grep -q "^fntrace: recorded .* -> r.data; oldest [0-9.]* MB ([0-9]* chunks, [0-9]* events) dropped by --max-size=1.0 MB$" err.txt

"$FNTRACE" report -i r.data >r.txt 2>rerr.txt
t_eq "report: reads the segments as one trace" 0 "$?"
t_eq "report: nothing to warn of" "" "$(cat rerr.txt)"
t_ok "report: its header says what was dropped" \
	grep -q "^# oldest [0-9.]* MB ([0-9]* chunks, [0-9]* events) dropped by --max-size=1.0 MB: the last [0-9.]* s of the recording kept$" r.txt
t_ok "report: the newest call is there" grep -q ' last();$' r.txt
t_eq "report: the oldest is not" "" "$(grep ' first();$' r.txt)"
t_eq "report: what it begins in the middle of still nests" "" "$(nests r.txt)"
t_eq "report: no events lost in what it kept" "" "$(grep 'LOST' r.txt)"
t_ok "report: the frames entered before it closed nested, unnamed" grep -q '^ [^|]*|[^|]*|  } /\* ? \*/$' r.txt
"$FNTRACE" report -i r.data --stat --csv >stat.csv
works=$(awk -F, '$1 == "work" { print $2 }' stat.csv)
t_ok "report --stat: only the newest calls ($works of work)" test "${works:-0}" -gt 1000 -a "${works:-0}" -lt 1000000

"$FNTRACE" info -i r.data >info.txt
t_ok "info: the segments" grep -q '^trace.dat .* chunks, in [0-9]* segments (trace.dat.[1-9][0-9]* to trace.dat.[0-9]*)$' info.txt
t_ok "info: what was dropped" grep -q '^max size  *oldest [0-9.]* MB ([0-9]* chunks, [0-9]* events) dropped by --max-size=1.0 MB$' info.txt
t_ok "info: the time kept" grep -q '^  *kept: the last [0-9.]* s of the recording$' info.txt
events=$(awk '$1 == "events" { print $2 }' info.txt)
t_ok "info counts the events kept, as the recorder's line does" \
	grep -q "^fntrace: recorded [0-9]* calls, $events events " err.txt

# A cap the recording never reaches drops nothing, and says so.
"$FNTRACE" record --max-size=64M -o small.data -- ./rotate 1000 >/dev/null 2>err.txt
t_eq "under the cap: nothing said dropped" "" "$(grep dropped err.txt)"
"$FNTRACE" info -i small.data >info.txt
t_ok "under the cap: info says nothing was" grep -q '^max size  *64.0 MB: nothing dropped$' info.txt
t_eq "under the cap: one segment" "trace.dat.0" "$(cd small.data && ls trace.dat*)"
"$FNTRACE" report -i small.data >small.txt
t_ok "under the cap: the whole trace" grep -q ' first();$' small.txt
t_eq "under the cap: nothing said in the report" "" "$(grep '^# oldest' small.txt)"

# A recorder killed while it drops: what it leaves is read as it is.
touch hold
"$FNTRACE" record -b 32768 --max-size=1M -o k.data -- ./rotate 0 hold >/dev/null 2>&1 &
rec=$!
biggest=0
for i in $(seq 100); do
	b=$(segments_bytes "k.data.tmp-$rec")
	[ "$b" -gt "$biggest" ] && biggest=$b
	grep -q '^max_size_dropped: [1-9]' "k.data.tmp-$rec/info" 2>/dev/null && [ "$i" -gt 10 ] && break
	sleep 0.05
done
kill -KILL $rec
wait $rec 2>/dev/null
prog=$(sed -n 's/^pid: //p' "k.data.tmp-$rec/info")
t_ok "while recording, within the cap and one segment ($biggest bytes)" \
	test "$biggest" -gt 0 -a "$biggest" -le $((cap + seg))
rm -f hold
for i in $(seq 100); do kill -0 "$prog" 2>/dev/null || break; sleep 0.1; done
"$FNTRACE" report -i "k.data.tmp-$rec" >k.txt 2>kerr.txt
t_eq "killed: the report reads what it left" 0 "$?"
t_ok "killed: and says it was never sealed" grep -q 'was never sealed' kerr.txt
t_ok "killed: what was dropped is said" grep -q '^# oldest .* dropped by --max-size=1.0 MB' k.txt
t_eq "killed: the oldest call is not there" "" "$(grep ' first();$' k.txt)"
t_ok "killed: what is there nests" test -z "$(nests k.txt)" -o \
	"$(nests k.txt)" = "still open: work" -o "$(nests k.txt)" = "still open: leaf"

# record -p with the cap: a running process, recorded for a second.  It
# writes some 300 MB/s of trace: a recorder held off the CPU for a fifth
# of a second loses events, and must count them; a gap it does not count
# is a hole in what it kept.  Under qemu-user on a loaded machine the
# program wrote under 1 MB in that second, and nothing was dropped to
# say: there it is recorded for three.
touch hold
"$FNTRACE" run -- ./rotate 0 hold >/dev/null 2>&1 &
pid=$!
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" ctl "$pid" buffer_size_kb 65536
secs=1
[ -n "${ARCH_EMULATED:-}" ] && secs=3
"$FNTRACE" record -p "$pid" -d $secs --max-size=1M -o p.data 2>perr.txt
t_eq "-p: recorded" 0 "$?"
rm -f hold
wait $pid

bytes=$(segments_bytes p.data)
t_ok "-p: the segments hold the cap at most, and one segment ($bytes bytes)" \
	test "$bytes" -le $((cap + seg)) -a "$bytes" -gt $((cap / 2))
t_ok "-p: the recorder's last line says what was dropped" \
	grep -q "^fntrace: recorded .* -> p.data; oldest .* dropped by --max-size=1.0 MB$" perr.txt
"$FNTRACE" report -i p.data >p.txt 2>/dev/null
t_ok "-p: the report says it too" grep -q '^# oldest .* dropped by --max-size=1.0 MB' p.txt
t_ok "-p: work and leaf, nested" grep -q '^ [^|]*|[^|]*|    leaf();$' p.txt
t_eq "-p: what is there nests" "" "$(nests p.txt | grep -v '^still open: \(work\|leaf\)$')"
t_eq "-p: no events lost uncounted" "" "$(grep 'LOST EVENTS' p.txt)"
said=$(sed -n 's/^fntrace: recorded .* over [0-9.]* s, \([0-9]*\) lost.*/\1/p' perr.txt)
kept=$(sed -n 's/.*\[LOST \([0-9]*\) EVENTS\]$/\1/p' p.txt | awk '{ n += $1 } END { print n + 0 }')
t_ok "-p: the losses in what it kept ($kept) are among those it said (${said:-none})" \
	test -n "$said" -a "$kept" -le "${said:-0}"

# A recorder stopped for a while, the buffer small (1 MB, sized before
# the first recording makes it): it loses events, counts them, and what
# it keeps of them after the cap nests.
touch hold
"$FNTRACE" run -- ./rotate 0 hold >/dev/null 2>&1 &
pid=$!
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
t_ok "-p stopped: a 1 MB buffer" "$FNTRACE" ctl "$pid" buffer_size_kb 1024
"$FNTRACE" record -p "$pid" --max-size=4M -o s.data 2>serr.txt &
rec=$!
# Stopped once it has written events (past trace.dat.0's header): tracing
# has begun; Ctrl-C ends it once it goes on.
for i in $(seq 100); do [ "$(segments_bytes "s.data.tmp-$rec")" -gt 4096 ] && break; sleep 0.05; done
kill -STOP $rec
sleep 1.2
kill -CONT $rec
kill -INT $rec
wait $rec
t_eq "-p stopped: recorded" 0 "$?"
rm -f hold
wait $pid
"$FNTRACE" report -i s.data >s.txt 2>/dev/null
said=$(sed -n 's/^fntrace: recorded .* over [0-9.]* s, \([0-9]*\) lost.*/\1/p' serr.txt)
cut=$(sed -n 's/.* events, \([0-9]*\) lost) dropped by --max-size=4.0 MB$/\1/p' serr.txt)
kept=$(sed -n 's/.*\[LOST \([0-9]*\) EVENTS\]$/\1/p' s.txt | awk '{ n += $1 } END { print n + 0 }')
t_ok "-p stopped: the loss said, of what it kept ($kept in the report of ${said:-none}) or of what the cap dropped (${cut:-none})" \
	test -n "$said" -a $((${said:-0} + ${cut:-0})) -gt 0 -a "$kept" -le "${said:-0}"
# What no LOST in the trace says (the thread lost events last, and then
# tracing stopped) the report's end says.
unsaid=$(sed -n 's/^# \([0-9]*\) more events lost in threads that ended, or were traced no more.*/\1/p' s.txt)
t_eq "-p stopped: the report's losses add up to the recorder's" "${said:-none}" $((kept + ${unsaid:-0}))
if [ -n "$cut" ]; then
	t_ok "-p stopped: the report's header says the loss the cap dropped" \
		grep -q "^# oldest .* events, $cut lost) dropped by --max-size=4.0 MB" s.txt
	"$FNTRACE" info -i s.data >sinfo.txt
	t_ok "-p stopped: so does info" grep -q "^max size .* events, $cut lost) dropped by" sinfo.txt
else
	t_eq "-p stopped: the cap dropped no loss, and none is said" "" "$(grep 'lost) dropped' s.txt)"
fi
t_eq "-p stopped: no events lost uncounted" "" "$(grep 'LOST EVENTS' s.txt)"
t_eq "-p stopped: what is there nests" "" "$(nests s.txt | grep -v '^still open: \(work\|leaf\)$')"

# Sizes it cannot take: said in one line, nothing recorded.
for bad in 0 x 1X 1.5M -1M 10T ''; do
	t_error "--max-size='$bad': refused" 2 "^fntrace record: bad --max-size: '$bad'" \
		"$FNTRACE" record --max-size="$bad" -o bad.data -- ./rotate 1
done
for small in 100K 262143; do
	t_error "--max-size=$small: smaller than a chunk, refused" 2 \
		"^fntrace record: --max-size=$small: smaller than one chunk of the buffer (256K)$" \
		"$FNTRACE" record --max-size="$small" -o bad.data -- ./rotate 1
done
t_eq "bad sizes: nothing written" "" "$(ls -d bad.data* 2>/dev/null)"
"$FNTRACE" record --max-size=256K -o least.data -- ./rotate 100000 >/dev/null 2>&1
t_eq "--max-size=256K, one chunk: taken" 0 "$?"
"$FNTRACE" report -i least.data >least.txt
t_ok "--max-size=256K: the newest call kept" grep -q ' last();$' least.txt
t_eq "--max-size=256K: and what is kept nests" "" "$(nests least.txt)"
