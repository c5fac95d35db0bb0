# report --srcline: each function's file:line from the program's DWARF,
# for gcc's and clang's; nothing (and one warning) without debug info.

src=$top/tests/progs/graph.c
# line_of FUNC: the line graph.c defines FUNC on.
line_of() {
	grep -n "^KEEP.* $1(\|^int $1(" "$src" | cut -d: -f1
}

for flavor in gcc-pg clang-pg; do
	t_build $flavor -O2 prog-$flavor "$src" || { t_fail "$flavor: build"; continue; }
	"$FNTRACE" record -o $flavor.data -- ./prog-$flavor >/dev/null 2>&1
	"$FNTRACE" report -i $flavor.data --srcline >$flavor.txt 2>$flavor.err
	t_eq "$flavor: nothing said" "" "$(cat $flavor.err)"
	t_ok "$flavor: a nested call, its line after the brace" \
		grep -q "compute() { /\\* graph.c:$(line_of compute) \\*/\$" $flavor.txt
	t_ok "$flavor: a leaf, its line after the call" \
		grep -q "leaf(); /\\* graph.c:$(line_of leaf) \\*/\$" $flavor.txt
	"$FNTRACE" report -i $flavor.data --csv --srcline >$flavor.csv
	t_eq "$flavor: csv: a srcline field" "function,hits,total_ns,self_ns,avg_ns,srcline" \
		"$(head -n 1 $flavor.csv)"
	t_eq "$flavor: csv: fib's line" "graph.c:$(line_of fib)" \
		"$(awk -F, '$1 == "fib" { print $6 }' $flavor.csv)"
	t_eq "$flavor: csv: main's line" "graph.c:$(line_of main)" \
		"$(awk -F, '$1 == "main" { print $6 }' $flavor.csv)"
	t_ok "$flavor: stat: a Source column" sh -c \
		"'$FNTRACE' report -i $flavor.data --stat --srcline | grep -q '^  scale  .*  graph.c:$(line_of scale)\$'"
done

# The function tracer's lines too.
"$FNTRACE" record -t function -o fn.data -- ./prog-gcc-pg >/dev/null 2>&1
t_ok "function tracer: the line after the caller" sh -c \
	"'$FNTRACE' report -i fn.data --srcline | grep -q ' fib <-compute /\\* graph.c:$(line_of fib) \\*/\$'"

# Without --srcline, nothing changes.
"$FNTRACE" report -i gcc-pg.data >plain.txt
t_eq "no --srcline: no line comments" 0 "$(grep -c 'graph.c' plain.txt)"

# Without debug info: no lines, no error, one warning that says why.
objcopy --strip-debug prog-gcc-pg stripped
"$FNTRACE" record -o stripped.data -- ./stripped >/dev/null 2>&1
"$FNTRACE" report -i stripped.data --srcline >stripped.txt 2>stripped.err
t_eq "no debug info: exit 0" 0 "$?"
t_eq "no debug info: no lines" 0 "$(grep -c 'graph.c' stripped.txt)"
t_ok "no debug info: the graph is whole" grep -q 'compute() {$' stripped.txt
t_ok "no debug info: said once" sh -c \
	"[ \$(wc -l <stripped.err) -eq 1 ] && grep -q 'stripped has no debug information' stripped.err"
"$FNTRACE" report -i stripped.data --stat --srcline >stripped.stat 2>/dev/null
t_ok "no debug info: stat shows '-'" grep -q '^  fib  .*  -$' stripped.stat

# Debug information in a file of its own, named by .gnu_debuglink (as
# Debian's -dbgsym packages are found by build-id).
objcopy --only-keep-debug prog-gcc-pg prog.debug
objcopy --strip-debug --add-gnu-debuglink=prog.debug prog-gcc-pg split
"$FNTRACE" record -o split.data -- ./split >/dev/null 2>&1
"$FNTRACE" report -i split.data --csv --srcline >split.csv 2>split.err
t_eq "separate debug file: fib's line" "graph.c:$(line_of fib)" \
	"$(awk -F, '$1 == "fib" { print $6 }' split.csv)"
t_eq "separate debug file: nothing said" "" "$(cat split.err)"

# A program gone since its recording: no lines, said once.
cp prog-gcc-pg gone
"$FNTRACE" record -o gone.data -- ./gone >/dev/null 2>&1
rm gone
"$FNTRACE" report -i gone.data --srcline >gone.txt 2>gone.err
t_ok "program gone: the graph, one line said" sh -c \
	"grep -q 'compute() {\$' gone.txt && [ \$(wc -l <gone.err) -eq 1 ] && grep -q 'gone: No such file' gone.err"

# A function of a shared library: its own module, its own bias.
cat >lib.c <<'C'
int twice(int x)
{
	return x * 2;
}
C
printf 'int twice(int);\nint main(void) { return twice(0); }\n' >uselib.c
t_build gcc-pg -O2 libtwice.so lib.c
gcc -pg -g -O2 -c uselib.c && gcc -o uselib uselib.o -L. -ltwice -Wl,-rpath,"$PWD"
"$FNTRACE" record -o lib.data -- ./uselib >/dev/null 2>&1
t_ok "shared library: its function's line" sh -c \
	"'$FNTRACE' report -i lib.data --srcline | grep -q 'twice(); /\\* lib.c:1 \\*/\$'"

# C++: names demangled in the graph, the profile and their lines.
cat >box.cc <<'C'
namespace ns {
template <class T> struct Box {
	T v;
	__attribute__((noinline)) T get() const { return v; }
};
}
__attribute__((noinline)) int use(const ns::Box<int> &b) { return b.get(); }
int main() { ns::Box<int> b{3}; return use(b) - 3; }
C
t_build gcc-pg -O2 box box.cc
"$FNTRACE" record -o box.data -- ./box >/dev/null 2>&1
t_ok "c++: demangled, with its line" sh -c \
	"'$FNTRACE' report -i box.data --srcline | grep -q 'ns::Box<int>::get(); /\\* box.cc:4 \\*/'"
t_ok "c++: --stat demangled, with its line" sh -c \
	"'$FNTRACE' report -i box.data --stat --srcline | grep -q '^  ns::Box<int>::get .* box.cc:4\$'"
