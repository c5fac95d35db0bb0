# export --format chrome: Trace Event JSON that parses, whose B and E
# events pair up per thread (each E closes the innermost open B, of the
# same name) and count every call, with thread names, markers whose odd
# bytes still make valid JSON, --split into files that each parse and
# nest and together hold every call, and errors that leave no file
# behind.

t_build gcc-pg -O2 prog "$top/tests/progs/export_threads.c"
"$FNTRACE" record -r -o r.data -- ./prog >/dev/null 2>&1
"$FNTRACE" export -i r.data --format chrome -o r.json 2>err.txt
t_eq "chrome: exit status" "0 " "$? $(cat err.txt)"
"$FNTRACE" report -i r.data --csv >stat.csv

# check.py FILE...: every file a whole Trace Event document; prints facts
# about their events taken together, one "key value" line each, for the
# checks below to compare.
cat >check.py <<'PY'
import collections, hashlib, json, sys

def load(path):
    # Strict UTF-8: a browser wants valid text, not just valid JSON.
    with open(path, encoding="utf-8", errors="strict") as f:
        doc = json.load(f)
    assert isinstance(doc, dict) and isinstance(doc["traceEvents"], list), "no traceEvents"
    assert doc.get("displayTimeUnit") == "ns", "displayTimeUnit"
    return doc["traceEvents"]

def well_formed(ev):
    for key, kind in (("ph", str), ("name", str), ("pid", int), ("tid", int)):
        assert isinstance(ev.get(key), kind), "bad %s in %r" % (key, ev)
    assert isinstance(ev.get("ts"), (int, float)) and ev["ts"] >= 0, "bad ts in %r" % ev
    assert ev["ph"] in "BEMi", "unexpected ph in %r" % ev
    assert ev.get("cat", "split") == "split", "unexpected cat in %r" % ev
    if ev["ph"] == "i":
        assert ev.get("s") == "t", "instant not thread-scoped: %r" % ev
    if ev["ph"] == "M":
        assert ev["name"] in ("process_name", "thread_name") and ev["args"]["name"], ev

def nests(track):
    # Every E closes the innermost open B, and has its name; nothing is
    # left open; times never go back, so that a viewer's stable sort by
    # time keeps the file's order where times are equal (a tail call's
    # callee and caller end in the same nanosecond).
    stack, last = [], 0
    for e in track:
        if e["ts"] < last:
            return False
        last = e["ts"]
        if e["ph"] == "B":
            stack.append(e["name"])
        elif not stack or stack.pop() != e["name"]:
            return False
    return not stack

# A call cut by --split is a B in each file it spans: "cat":"split"
# marks the ones a cut adds (and the E that closes a file's open calls),
# so a call counts once, by its unmarked B; and the events of the files
# together, the cuts' left out, are those of the whole.
def check(paths, say):
    events, nest, tracks, cuts = [], True, set(), 0
    for path in paths:
        evs = load(path)
        for ev in evs:
            well_formed(ev)
        named = {(e["pid"], e["tid"]) for e in evs if e["ph"] == "M" and e["name"] == "thread_name"}
        mine = collections.defaultdict(list)
        for e in evs:
            if e["ph"] != "M":
                assert (e["pid"], e["tid"]) in named, "%s: no thread_name for %r" % (path, e)
                if e["ph"] in "BE":
                    mine[(e["pid"], e["tid"])].append(e)
                if e.get("cat") == "split":
                    cuts += e["ph"] == "B"
                else:
                    events.append(json.dumps(e, sort_keys=True))
        nest = nest and all(nests(t) for t in mine.values())
        tracks |= set(mine)
        say("processes", len({e["pid"] for e in evs if e["name"] == "process_name"}))
        say("thread_names", len(named))
    decoded = [json.loads(e) for e in events]
    calls = collections.Counter(e["name"] for e in decoded if e["ph"] == "B")
    say("calls", " ".join("%s=%d" % kv for kv in sorted(calls.items())))
    say("nest", nest)
    say("tracks", len(tracks))
    say("cuts", cuts)
    marks = [e["name"] for e in decoded if e["ph"] == "i" and "work" in e["name"]]
    say("markers", len(marks), json.dumps(sorted(set(marks))))
    say("unwound", " ".join(sorted({e["name"] for e in decoded if e["ph"] == "E" and e.get("args", {}).get("end") == "unwound"})))
    say("leaf_retvals", " ".join(sorted({e["args"]["retval"] for e in decoded if e["name"] == "leaf" and e["ph"] == "E" and "args" in e})))
    say("events", len(events))
    say("digest", hashlib.sha1("\n".join(sorted(events)).encode()).hexdigest())

# --each FILE...: for every file, "FILE THREAD_NAMES NEST" as the checks
# above find them on that file alone, or "FILE error: WHY": what a run
# of this script per file says, in one process (a deep stack's --split
# writes hundreds of files, and each python start costs up to a second).
if sys.argv[1] == "--each":
    for path in sys.argv[2:]:
        facts = {}
        try:
            check([path], lambda key, *v: facts.setdefault(key, " ".join(map(str, v))))
            print(path, facts["thread_names"], facts["nest"])
        except Exception as e:
            print(path, "error:", repr(e).replace("\n", " "))
else:
    check(sys.argv[1:], print)
PY
fact() { sed -n "s/^$1 //p" "$2"; }
# each_alone COND FILE...: "yes" if every FILE, checked alone (check.py
# --each), has a line for which awk's COND holds; else the first that
# does not, and why.
each_alone() {
	local cond=$1; shift
	python3 check.py --each "$@" >each.txt 2>py.err
	[ "$(wc -l <each.txt)" -eq $# ] || { echo "check.py --each: $(tail -n 1 py.err)"; return; }
	awk "!($cond) { bad = \$0; exit } END { print bad == \"\" ? \"yes\" : bad }" each.txt
}

if python3 check.py r.json >facts.txt 2>py.err; then t_pass "chrome: well-formed, every event"
else t_fail "chrome: well-formed, every event" "$(tail -n 1 py.err)"; fi
want_calls=$(awk -F, 'NR > 1 { print $1 "=" $2 }' stat.csv | sort | tr '\n' ' ' | sed 's/ $//')
t_eq "chrome: one B event per call, as report --stat counts them" "$want_calls" "$(fact calls facts.txt)"
t_eq "chrome: B and E pair up and nest on every thread" True "$(fact nest facts.txt)"
t_eq "chrome: one track per thread" 4 "$(fact tracks facts.txt)"
t_eq "chrome: thread names" 4 "$(fact thread_names facts.txt)"
t_eq "chrome: the process's name" 1 "$(fact processes facts.txt)"
# The marker's bytes: quotes, a newline, a tab, UTF-8 (é) as it is, two
# bytes that are not UTF-8 as U+FFFD each, a backslash.
t_eq "chrome: markers, any bytes made valid JSON" \
	'4 ["work \"quoted\"\n\ttab \u00e9 \ufffd\ufffd bad \\ end"]' "$(fact markers facts.txt)"
t_eq "chrome: frames left by longjmp say so" deep_jump "$(fact unwound facts.txt)"
t_eq "chrome: return values" "0x1 0x10 0x13 0x16 0x4 0xd" "$(fact leaf_retvals facts.txt)"
t_ok "chrome: names quoted as they are, no mangling" grep -q '"name":"worker"' r.json

# --srcline: each call's source line, from the program's DWARF.
"$FNTRACE" export -i r.data --format chrome --srcline -o src.json 2>/dev/null
line=$(grep -n '^NOIPA int leaf' "$top/tests/progs/export_threads.c" | cut -d: -f1)
t_eq "chrome --srcline: where leaf is" "export_threads.c:$line" "$(python3 -c '
import json, sys
evs = json.load(open(sys.argv[1]))["traceEvents"]
print(" ".join(sorted({e["args"].get("srcline", "?") for e in evs if e["name"] == "leaf"})))' src.json)"
# speedscope names a frame by its B's name and args, and says on the
# console when an E's differ: a call that only returned says on its E
# what its B said.
t_eq "chrome --srcline: a plain end has its begin's args" 0 "$(python3 -c '
import json, sys
evs = json.load(open(sys.argv[1]))["traceEvents"]
opened, odd = {}, 0
for e in evs:
    if e["ph"] == "B":
        opened.setdefault((e["tid"], e["name"]), []).append(e.get("args"))
    elif e["ph"] == "E":
        begun = opened[(e["tid"], e["name"])].pop()
        odd += "end" not in e.get("args", {}) and "retval" not in e.get("args", {}) and e.get("args") != begun
print(odd)' src.json)"

# exit() from inside calls: the frames still open when the trace ends.
printf '#include <stdlib.h>\n__attribute__((noipa)) void bye(void) { exit(0); }\nint main(void) { bye(); return 1; }\n' >bye.c
t_build gcc-pg -O2 bye bye.c
"$FNTRACE" record -o bye.data -- ./bye >/dev/null 2>&1
"$FNTRACE" export -i bye.data --format chrome -o bye.json
t_eq "chrome: frames still running at the end say so" "bye=unfinished main=unfinished" "$(python3 -c '
import json, sys
evs = json.load(open(sys.argv[1]))["traceEvents"]
print(" ".join(sorted("%s=%s" % (e["name"], e.get("args", {}).get("end")) for e in evs if e["ph"] == "E")))' bye.json)"

# A name longer than the writer keeps inline (C++ templates make them).
long=$(printf 'f%.0s' $(seq 700))
printf 'int %s(int x) { return x + 1; }\nint main(void) { return %s(-1); }\n' "$long" "$long" >long.c
t_build gcc-pg -O0 long long.c
"$FNTRACE" record -o long.data -- ./long >/dev/null 2>&1
"$FNTRACE" export -i long.data --format chrome -o long.json
t_eq "chrome: a 700-byte name whole" "700 main" "$(python3 -c '
import json, sys
evs = json.load(open(sys.argv[1]))["traceEvents"]
print(" ".join(str(len(e["name"])) if len(e["name"]) > 4 else e["name"] for e in evs if e["ph"] == "E"))' long.json)"

# The same without -o, on standard output.
"$FNTRACE" export -i r.data --format chrome >stdout.json
t_same "chrome: standard output, the same document" r.json stdout.json

# A FIFO (or /dev/null) named by -o is written in place, not replaced by
# a regular file renamed over it.
mkfifo fifo
cat fifo >fifo.json &
"$FNTRACE" export -i r.data --format chrome -o fifo
wait
t_ok "chrome: -o FIFO written in place, still a FIFO" test -p fifo
t_same "chrome: ... with the whole document" r.json fifo.json

# --tid: one thread's track, and only its names.
tid=$("$FNTRACE" report -i r.data | sed -n 's/.* prog-\([0-9]*\) .*worker() {$/\1/p' | head -n 1)
"$FNTRACE" export -i r.data --format chrome --tid "$tid" -o t.json
python3 check.py t.json >t.txt 2>py.err
t_eq "chrome --tid: one track, one thread name" "1 1" "$(fact tracks t.txt) $(fact thread_names t.txt)"

# --split: small files, each a whole document with every track's names
# whose calls nest, the calls open at a cut closed at its end and opened
# again at the next file's start ("cat":"split"); together every event
# of the whole export, each call counted once.
"$FNTRACE" export -i r.data --format chrome --split 3k -o s.json
pieces=$(ls s.json s.json.* 2>/dev/null | wc -l)
t_ok "split: several files ($pieces)" test "$pieces" -gt 3
t_ok "split: each no bigger than about the size" sh -c 'for f in s.json*; do [ $(wc -c <$f) -lt 4096 ] || exit 1; done'
t_eq "split: every file parses alone and nests, with every thread's name" yes \
	"$(each_alone 'NF == 3 && $2 == 4 && $3 == "True"' s.json*)"
python3 check.py s.json* >s.txt 2>py.err
t_ok "split: some cuts left calls open ($(fact cuts s.txt))" test "$(fact cuts s.txt)" -gt 0
t_eq "split: together, every event of the whole" "$(fact events facts.txt) $(fact digest facts.txt)" \
	"$(fact events s.txt) $(fact digest s.txt)"
t_eq "split: together, every call once" "$want_calls" "$(fact calls s.txt)"

# A stack deeper than the split size: each file's calls opened again
# take more than SIZE, yet every file has an event of its own, so the
# export ends, and every file still nests.
printf '__attribute__((noipa)) int down(int n) { return n ? down(n - 1) + 1 : 0; }\nint main(void) { return down(300) - 300; }\n' >deep.c
t_build gcc-pg -O0 deep deep.c
"$FNTRACE" record -o deep.data -- ./deep >/dev/null 2>&1
"$FNTRACE" report -i deep.data --csv >dstat.csv
timeout 60 "$FNTRACE" export -i deep.data --format chrome --split 3k -o d.json
t_eq "split: a stack deeper than the size, exit status" 0 "$?"
t_eq "split: deep stack, every file nests" yes "$(each_alone 'NF == 3 && $3 == "True"' d.json*)"
python3 check.py d.json* >d.txt 2>py.err
t_eq "split: deep stack, every call once" \
	"$(awk -F, 'NR > 1 { print $1 "=" $2 }' dstat.csv | sort | tr '\n' ' ' | sed 's/ $//')" "$(fact calls d.txt)"

# The function tracer: each call an instant event, with its caller.
"$FNTRACE" record -t function -o f.data -- ./prog >/dev/null 2>&1
"$FNTRACE" export -i f.data --format chrome -o f.json
"$FNTRACE" report -i f.data --csv >fstat.csv
python3 - f.json >f.txt <<'PY'
import collections, hashlib, json, sys
evs = json.load(open(sys.argv[1], encoding="utf-8"))["traceEvents"]
hits = collections.Counter(e["name"] for e in evs if e["ph"] == "i" and "work \"" not in e["name"])
print(" ".join("%s=%d" % kv for kv in sorted(hits.items())))
print(sorted({e["args"]["caller"] for e in evs if e["name"] == "leaf"}))
PY
t_eq "function tracer: one instant per call" "$(awk -F, 'NR > 1 { print $1 "=" $2 }' fstat.csv | sort | tr '\n' ' ' | sed 's/ $//')" "$(sed -n 1p f.txt)"
t_eq "function tracer: callers named" "['fib', 'work']" "$(sed -n 2p f.txt)"

# Errors: one line, a non-zero exit, no file and no temporary file.
# expect_fail NAME PATTERN CMD...
expect_fail() {
	name=$1 pattern=$2; shift 2
	"$@" >../out.txt 2>../err.txt
	rc=$?
	if [ $rc -eq 0 ] || [ "$(wc -l <../err.txt)" -ne 1 ] || ! grep -q "^fntrace: .*$pattern" ../err.txt; then
		t_fail "$name" "exit $rc, stderr: $(cat ../err.txt)"
	else
		t_pass "$name"
	fi
}
mkdir errs && cd errs || exit 1
expect_fail "error: no data directory" nodata "$FNTRACE" export -i ../nodata --format chrome -o x.json
t_error "error: unknown format, a usage error" 2 "^fntrace export: unknown export format 'nosuch'" \
	"$FNTRACE" export -i ../r.data --format nosuch -o x.json
t_error "error: --split without -o, a usage error" 2 "^fntrace export: --split wants -o" \
	"$FNTRACE" export -i ../r.data --format chrome --split 1M
expect_fail "error: --split smaller than the track names" "too small" "$FNTRACE" export -i ../r.data --format chrome --split 100 -o x.json
expect_fail "error: -o in a missing directory" "cannot write nodir/x.json" "$FNTRACE" export -i ../r.data --format chrome -o nodir/x.json
# A write that fails halfway (a file size limit, its signal ignored).
expect_fail "error: a write that fails" "cannot write x.json: File too large" sh -c "ulimit -f 2; trap '' XFSZ; exec \"$FNTRACE\" export -i ../r.data --format chrome -o x.json"
# A piece that cannot be renamed into place: none of the set is left.
mkdir y.json.2
expect_fail "error: a piece that cannot be put in place" "cannot write y.json.2" "$FNTRACE" export -i ../r.data --format chrome --split 3k -o y.json
t_eq "errors: nothing left behind but what was there" "y.json.2" "$(ls)"
cd ..
