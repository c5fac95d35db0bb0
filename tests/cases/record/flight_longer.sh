# The duration trigger under record --overwrite: FUNC:snapshot_if_longer:USEC
# takes a snapshot after a call of FUNC that lasted USEC or more, and it
# holds that call's whole subtree and every thread's window from before
# the call's entry.  A storm of slow calls becomes a few snapshots, as
# snapshot_interval_ms and the count say, and the rest a tally; the
# program is not held up.  (tests/progs/slow_request.c: threads handling
# requests, handle_request -> parse_request, compute -> [slow_step],
# reply; thread 0's every SLOW_EVERY-th one slow.)

t_build gcc-pg "-O2 -fno-omit-frame-pointer" slow_request "$top/tests/progs/slow_request.c"

# snapshots DIR: how many a trigger took (the end's aside).
snapshots() {
	grep -c "^fntrace: snapshot [0-9]* (trigger " "$1"
}

# ---- one rare slow request among four threads ----
"$FNTRACE" record --overwrite -o rare.data \
	--trigger=handle_request:snapshot_if_longer:20000 -- \
	./slow_request 4 200 150 30000 500 >out.txt 2>rec.err
t_eq "the program as its own" "0 requests 800 slow 1" "$? $(cat out.txt)"
t_eq "one snapshot for the slow call, one for the end" "1 2" \
	"$(snapshots rec.err) $(ls -d rare.data/snapshot.* | wc -l)"
t_ok "its line says why: the trigger, the call's length (the longest), the tallies" \
	grep -q "^fntrace: snapshot 1 (trigger handle_request:snapshot_if_longer thread [0-9]*: call [0-9]* us (max), 1 slow, 0 suppressed)" rec.err
tid=$(sed -n 's/^fntrace: snapshot 1 (trigger handle_request:snapshot_if_longer thread \([0-9]*\):.*/\1/p' rec.err)
us=$(sed -n 's/^fntrace: snapshot 1 (.*: call \([0-9]*\) us .*/\1/p' rec.err)
t_ok "... a call of 30 ms at least" test "${us:-0}" -ge 30000
t_ok "info says it too" sh -c "'$FNTRACE' info -i rare.data/snapshot.1 | grep -q 'handle_request:snapshot_if_longer thread $tid'"

"$FNTRACE" report -i rare.data/snapshot.1 --tid "$tid" >rare.txt
t_eq "the slow call's whole subtree: entry, every callee, exit" \
	"handle_request() { parse_request(); compute() { slow_step(); } reply(); }" \
	"$(awk '/handle_request\(\) \{/ { buf = ""; on = 1 }
		on { line = $0; sub(/.*\| +/, "", line); sub(/ \/\*.*/, "", line);
		     buf = buf (buf ? " " : "") line }
		on && /slow_step/ { slow = 1 }
		on && /\} \/\* handle_request \*\// { if (slow) { print buf; exit } on = 0 }' rare.txt)"

# Every worker's window starts before the slow call's entry: its FIRST
# (seconds from the snapshot) is further back than the call lasted.
first=$("$FNTRACE" info -i rare.data/snapshot.1 | awk '/^the window/ { on = 1; next }
	on && /^$/ { exit } on && $1 ~ /^[0-9]+$/ && $2 != $1 { print $4 }')
t_eq "four workers in it" 4 "$(echo "$first" | wc -l)"
t_eq "... each from before the call's entry" "" \
	"$(echo "$first" | awk -v us="$us" '$1 + us / 1e6 > 0')"

# ---- a ring too small for the call ----
# Its subtree, a million calls, overwrites the chunk its entry was in
# (a ring of 1 MB); a ring of 64 MB holds it.  (A request follows it: a
# snapshot asked for as the program exits is the end's.)
for kb in 1024 65536; do
	"$FNTRACE" record --overwrite -b $kb -o small.data \
		--trigger=handle_request:snapshot_if_longer:20000 -- \
		./slow_request 1 4 3 -1000000 100000 >out.txt 2>rec.err
	t_eq "a slow call of a million calls, a ring of $kb KB: snapshotted" "0 1" \
		"$? $(snapshots rec.err)"
	lost=no
	grep -q "^fntrace: snapshot 1 (trigger .*, start lost: ring too small)" rec.err && lost=yes
	t_eq "... its why says whether the ring lost the call's start" \
		"$([ $kb = 1024 ] && echo yes || echo no)" "$lost"
done

# The slow call the program's last: the control thread's copy must not
# be cut short by the exit that follows at once.
"$FNTRACE" record --overwrite -b 65536 -o last.data \
	--trigger=handle_request:snapshot_if_longer:20000 -- \
	./slow_request 1 3 3 -1000000 0 >out.txt 2>rec.err
t_eq "a slow call just before the program exits: snapshotted, then the end's" "0 1 2" \
	"$? $(snapshots rec.err) $(ls -d last.data/snapshot.* | wc -l)"
t_ok "... the snapshot holds the slow call's exit" \
	sh -c "'$FNTRACE' report -i last.data/snapshot.1 | grep -q '} /\* handle_request \*/'"

# ---- with a count ----
"$FNTRACE" record --overwrite -o count.data \
	--trigger=handle_request:snapshot_if_longer:2000:2 \
	--snapshot-interval=0 -- ./slow_request 2 12 3 5000 100000 >out.txt 2>rec.err
t_eq "snapshot_if_longer:USEC:2, four slow calls far apart: two snapshots" "0 2" \
	"$? $(snapshots rec.err)"
t_ok "... the later slow calls tallied" \
	grep -q "^fntrace: snapshot 2 (trigger .*: call [0-9]* us[^,]*, 2 slow, 0 suppressed)" rec.err

# ---- a storm: a slow call every millisecond ----
# As many as half seconds it ran, and the new maximums, "(max)", each a
# call an eighth longer than the one before: a few, however a loaded
# machine stretches some calls (geometric: ten times as long is 20).
start=$(date +%s%N)
"$FNTRACE" record --overwrite -o storm.data --snapshot-interval=500 \
	--trigger=handle_request:snapshot_if_longer:500 -- \
	./slow_request 2 2000 1 1000 0 >out.txt 2>rec.err
status=$?
ms=$((($(date +%s%N) - start) / 1000000))
n=$(snapshots rec.err)
t_eq "a storm: the program as its own" "0 requests 4000 slow 2000" "$status $(cat out.txt)"
t_ok "... a few snapshots: $n in $ms ms, one per interval besides new maximums" \
	awk -v paced_max=$((ms / 500 + 2)) -v n="$n" '
	/^fntrace: snapshot [0-9]* \(trigger / {
		match($0, /call [0-9]+ us/); us = substr($0, RSTART + 5, RLENGTH - 8) + 0
		if ($0 ~ / us \(max\)/) { if (max && (us + 1) * 8 < max * 9) bad = 1; max = us }
		else paced++ }
	END { exit !(n >= 2 && !bad && paced <= paced_max) }' rec.err
# The program may take the next snapshot as soon as one is read: each
# line says its own snapshot's why, as its info does.
t_eq "... each line says its own snapshot's trigger" "" "$(for d in storm.data/snapshot.*; do
	why=$(sed -n 's/^snapshot_why: //p' "$d/info")
	[ -z "$why" ] || grep -qF "(trigger $why): " rec.err || echo "${d##*/}: $why"
done)"
t_ok "... the rest tallied as suppressed" \
	sh -c "grep '^fntrace: snapshot $n (trigger ' rec.err | grep -Eq ', [0-9]{3,} suppressed'"
t_ok "... none half-written: each reads whole" \
	sh -c "for d in storm.data/snapshot.*; do '$FNTRACE' info -i \$d >/dev/null || exit 1; done"

t_error "a bad interval is a usage error" 2 "snapshot-interval" \
	"$FNTRACE" record --overwrite -o bad.data --snapshot-interval=x -- ./slow_request 1 1 1 1 0
t_ok "record --help shows snapshot_if_longer and --snapshot-interval, with examples" \
	sh -c "'$FNTRACE' record --help | grep -q 'snapshot_if_longer:' &&
	       '$FNTRACE' record --help | grep -q -- '--snapshot-interval=MS'"
