# fntrace export --format folded and --format svg: the distinct stacks of
# programs whose call trees are known, their self times against the
# profile's totals, the SVG well formed and self-contained, C++ names
# demangled, and bad input refused with nothing written.

t_build gcc-pg -O2 flame "$top/tests/progs/flame.c"
t_build gcc-pg -O2 threads "$top/tests/progs/flame_threads.c"
t_build g++-pg -O2 names "$top/tests/progs/flame_names.cpp"
"$FNTRACE" record -o f.data -- ./flame >/dev/null 2>&1
"$FNTRACE" record -o t.data -- ./threads >/dev/null 2>&1
"$FNTRACE" record -o n.data -- ./names >/dev/null 2>&1

# The stacks of a folded file, without their weights (names may have spaces).
stacks() { sed 's/ [0-9]*$//' "$1"; }
# The sum of a folded file's weights.
weights() { awk '{ s += $NF } END { print s + 0 }' "$1"; }
# A function's total_ns in the profile.
stat_total() { "$FNTRACE" report -i "$1" --csv | awk -F, -v f="$2" '$1 == f { print $3 }'; }

# ---- folded ----

"$FNTRACE" export -i f.data --format folded -o f.folded
t_eq "folded: exit status" 0 "$?"
printf 'main\nmain;a\nmain;a;c\nmain;b\n' >want.txt
stacks f.folded >got.txt
t_same "folded: exactly the program's stacks" want.txt got.txt
t_ok "folded: every weight an integer above 0" awk '$NF !~ /^[1-9][0-9]*$/ { exit 1 }' f.folded
t_eq "folded: self times add up to main's total" "$(stat_total f.data main)" "$(weights f.folded)"
t_eq "folded: c's self time is its total" "$(stat_total f.data c)" "$(awk '$1 == "main;a;c" { print $2 }' f.folded)"
"$FNTRACE" export -i f.data --format folded >stdout.folded
t_same "folded: standard output without -o" f.folded stdout.folded

# Threads doing the same work share their stacks.
"$FNTRACE" export -i t.data --format folded -o t.folded
printf 'main\nmain;leaf\nworker\nworker;leaf\n' >want.txt
stacks t.folded >got.txt
t_same "folded: two threads' stacks merged" want.txt got.txt
t_eq "folded: threads' self times add up to the outermost totals" \
	"$(($(stat_total t.data main) + $(stat_total t.data worker)))" "$(weights t.folded)"
tid=$("$FNTRACE" report -i t.data | grep -m 1 'worker() {' | sed -E 's/.*-([0-9]+) +\|.*/\1/')
"$FNTRACE" export -i t.data --format folded --tid "$tid" -o one.folded
printf 'worker\nworker;leaf\n' >want.txt
stacks one.folded >got.txt
t_same "folded: --tid keeps one thread's stacks" want.txt got.txt
t_ok "folded: one thread's worker is less than both" \
	test "$(awk '$1 == "worker;leaf" { print $2 }' one.folded)" -lt "$(awk '$1 == "worker;leaf" { print $2 }' t.folded)"

# C++: demangled, without parameters; the space of "(anonymous namespace)"
# kept, since readers take the weight after the last space.
"$FNTRACE" export -i n.data --format folded -o n.folded
cat >names.txt <<'N'
main;(anonymous namespace)::helper
main;(anonymous namespace)::helper;geo::Shape::area
main;(anonymous namespace)::helper;geo::Shape::operator+=
main;(anonymous namespace)::helper;int geo::twice<int>
N
stacks n.folded | grep -v '^main$' >got.txt
t_same "folded: C++ names demangled" names.txt got.txt

# ---- svg ----

# svg_frames FILE FIELD: "STACK VALUE" for every frame but the root, its
# stack rebuilt from data-parent, VALUE its data-FIELD, sorted.
svg_frames() {
	python3 - "$1" "$2" <<'PY' | LC_ALL=C sort
import sys
import xml.etree.ElementTree as ET
svg = ET.parse(sys.argv[1]).getroot()
frames = {g.get('id'): g for g in svg.iter('{http://www.w3.org/2000/svg}g')
          if 'frame' in (g.get('class') or '').split()}
for g in frames.values():
    if g.get('id') == 'root':
        continue
    names, f = [], g
    while f.get('data-parent'):
        names.append(f.get('data-name'))
        f = frames[f.get('data-parent')]
    print(';'.join(reversed(names)), g.get('data-' + sys.argv[2]))
PY
}
svg_attr() { python3 -c 'import sys, xml.etree.ElementTree as ET; print(ET.parse(sys.argv[1]).getroot().get(sys.argv[2]))' "$@"; }

"$FNTRACE" export -i f.data --format svg -o f.svg
t_eq "svg: exit status" 0 "$?"
t_ok "svg: well-formed XML" xmllint --noout f.svg
printf 'main 1\nmain;a 3\nmain;a;c 3\nmain;b 1\n' >want.txt
svg_frames f.svg calls >got.txt
t_same "svg: a frame per stack, with its calls" want.txt got.txt
svg_frames f.svg self | awk '$NF != 0' >got.txt
LC_ALL=C sort f.folded >want.txt
t_same "svg: self times as the folded stacks'" want.txt got.txt
t_eq "svg: the total is main's" "$(stat_total f.data main)" "$(svg_attr f.svg data-total)"
t_eq "svg: the root frame" "all" "$(xmllint --xpath 'string(//*[@id="root"]/@data-name)' f.svg)"
t_ok "svg: a frame's tooltip" grep -q '<title>a: 3 calls, .* self ' f.svg
t_ok "svg: the script is inside" grep -q 'window.fntraceFlame' f.svg
t_ok "svg: the search box" grep -q '<input [^>]*id="search"' f.svg
t_eq "svg: nothing referenced (href, src, url(), @import)" "" "$(grep -Eo 'href|src=|url\(|@import' f.svg)"
t_eq "svg: http:// only in namespace names" "" "$(grep -o '[a-zA-Z:-]*="http://[^"]*"' f.svg | grep -v '^xmlns=')"
t_eq "svg: every http:// in a namespace name" "$(grep -o 'http://' f.svg | wc -l)" "$(grep -o 'xmlns="http://' f.svg | wc -l)"

# The script, run by a headless Chromium when there is one (the browser
# tests proper drive it with puppeteer): zoom to a, search "c", flip to
# icicle, through the page's own fntraceFlame, then read the DOM.
if command -v chromium >/dev/null 2>&1; then
	a=$(xmllint --xpath 'string(//*[@data-name="a"]/@id)' f.svg)
	b=$(xmllint --xpath 'string(//*[@data-name="b"]/@id)' f.svg)
	sed "s#</svg>#<script>fntraceFlame.zoom('$a'); fntraceFlame.search('c'); fntraceFlame.flip();</script></svg>#" \
		f.svg >drive.svg
	timeout 60 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
		--dump-dom "file://$PWD/drive.svg" >dom.txt 2>console.txt
	t_eq "svg script: no console messages" "" "$(grep CONSOLE console.txt)"
	t_ok "svg script: zoomed to a, icicle, searched" \
		grep -q "data-orientation=\"icicle\" data-zoomed=\"$a\" data-search=\"c\"" dom.txt
	t_ok "svg script: b hidden by the zoom" grep -q "id=\"$b\" [^>]*style=\"display: none;\"" dom.txt
	t_ok "svg script: main is an ancestor" grep -q 'class="frame ancestor"[^>]* data-name="main"' dom.txt
	t_ok "svg script: c matched" grep -q 'class="frame match"[^>]* data-name="c"' dom.txt
	share=$(awk -v c="$(xmllint --xpath 'string(//*[@data-name="c"]/@data-total)' f.svg)" \
		-v all="$(svg_attr f.svg data-total)" 'BEGIN { printf "%.2f", 100 * c / all }')
	t_ok "svg script: the matched share is c's" grep -q ">Matched: $share% (1 frame)<" dom.txt
else
	t_skip "svg script" "no chromium"
fi

"$FNTRACE" export -i t.data --format svg -o t.svg
printf 'main 1\nmain;leaf 1\nworker 2\nworker;leaf 2\n' >want.txt
svg_frames t.svg calls >got.txt
t_same "svg: two threads' stacks merged, calls added" want.txt got.txt

"$FNTRACE" export -i n.data --format svg -o n.svg
t_ok "svg: C++ names: well-formed XML" xmllint --noout n.svg
svg_frames n.svg calls | sed 's/ [0-9]*$//' | grep -v '^main$' >got.txt
t_same "svg: C++ names demangled" names.txt got.txt
t_ok "svg: '<' escaped" grep -q 'data-name="int geo::twice&lt;int&gt;"' n.svg

# ---- bad input ----

# expect_error NAME PATTERN CMD...: exit 1, one line on stderr matching
# PATTERN, nothing on stdout.
expect_error() {
	name=$1 pattern=$2; shift 2
	"$@" >out.txt 2>err.txt
	rc=$?
	if [ "$rc" -ne 1 ]; then t_fail "$name" "exit $rc, not 1"; return; fi
	if [ "$(wc -l <err.txt)" -ne 1 ] || ! grep -q "^fntrace: .*$pattern" err.txt; then
		t_fail "$name" "stderr: $(cat err.txt)"; return
	fi
	if [ -s out.txt ]; then t_fail "$name" "wrote to stdout"; return; fi
	t_pass "$name"
}

for fmt in folded svg; do
	expect_error "$fmt: missing data directory" "nodata" \
		"$FNTRACE" export -i nodata --format $fmt -o bad.$fmt
	t_eq "$fmt: no output after a missing data directory" "" "$(ls bad.$fmt* 2>/dev/null)"
	expect_error "$fmt: unwritable output" "cannot write" \
		"$FNTRACE" export -i f.data --format $fmt -o nodir/out.$fmt
	mkdir -p isdir.$fmt
	expect_error "$fmt: a directory as output" "isdir" \
		"$FNTRACE" export -i f.data --format $fmt -o isdir.$fmt
	t_eq "$fmt: nothing left beside a directory output" "isdir.$fmt" "$(ls -d isdir.$fmt* | tr '\n' ' ' | sed 's/ $//')"
	"$FNTRACE" record -t function -o fn.data -- ./flame >/dev/null 2>&1
	expect_error "$fmt: a function trace has no durations" "no durations" \
		"$FNTRACE" export -i fn.data --format $fmt -o fn.$fmt
	t_eq "$fmt: no output for a function trace" "" "$(ls fn.$fmt* 2>/dev/null)"
done
