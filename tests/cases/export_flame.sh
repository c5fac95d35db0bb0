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
printf 'main;(anonymous namespace)::helper\nmain;(anonymous namespace)::helper;geo::Shape::area\nmain;(anonymous namespace)::helper;geo::Shape::operator+=\n' >want.txt
stacks n.folded | grep -v '^main$' >got.txt
t_same "folded: C++ names demangled" want.txt got.txt

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

for fmt in folded; do
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
