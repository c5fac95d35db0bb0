# The function tracer, filters, max depth, return values, the profile,
# and live; on the graph test program.

t_build gcc-pg -O2 prog "$top/tests/progs/graph.c"

# function: one line per call, with its caller, in order.
"$FNTRACE" record -t function -o f.data -- ./prog >/dev/null 2>&1
"$FNTRACE" report -i f.data >f.txt
t_ok "function: kernel header" grep -q '^#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION' f.txt
sed -n 's/.*[0-9]: //p' f.txt | grep -v '^main' >calls.txt
cat >want.txt <<'W'
compute <-main
leaf <-compute
fib <-compute
fib <-fib
fib <-fib
fib <-fib
fib <-fib
through_pointer <-compute
leaf <-through_pointer
scale <-main
W
t_same "function: every call with its caller" want.txt calls.txt
# Under qemu-user (ARCH_EMULATED) there is no rseq: no CPU to show.
cpu='[0-9]{3}'
[ -n "${ARCH_EMULATED:-}" ] && cpu='\?{3}'
t_ok "function: thread and CPU columns" grep -Eq "^ +prog-[0-9]+ +\\[$cpu\\] \\.\\.\\.\\.\\. +[0-9]+\\.[0-9]{6}: compute <-main\$" f.txt

# -F / -N: the kernel's filter syntax decides which sites are enabled.
"$FNTRACE" record -F 'fib' -F 'l*' -o g.data -- ./prog >/dev/null 2>&1
"$FNTRACE" report -i g.data >g.txt
t_eq "filter: only fib and leaf" "fib leaf" "$(t_graph_calls g.txt | grep -o '[a-z_]*()' | tr -d '()' | sort -u | tr '\n' ' ' | sed 's/ $//')"
"$FNTRACE" record -N 'fib' -N '*pointer' -o n.data -- ./prog >/dev/null 2>&1
"$FNTRACE" report -i n.data >n.txt
t_eq "notrace: no fib, no through_pointer" "0" "$(grep -c 'fib\|through_pointer' n.txt)"
t_ok "notrace: the rest is traced" grep -q 'compute() {' n.txt
"$FNTRACE" record -F '*:mod:prog' -F '!leaf' -o m.data -- ./prog >/dev/null 2>&1
"$FNTRACE" report -i m.data >m.txt
t_ok "filter: :mod: of the program, less a removal" sh -c "grep -q 'compute() {' m.txt && ! grep -q leaf m.txt"
"$FNTRACE" record -F '*:mod:libnothing' -o x.data -- ./prog >/dev/null 2>&1
t_eq "filter: :mod: of an absent module: recorded, exit 0" 0 "$?"
"$FNTRACE" report -i x.data >x.txt
t_eq "filter: :mod: of an absent module traces nothing" "0" "$(t_graph_calls x.txt | wc -l)"

# -D: max_graph_depth.
"$FNTRACE" record -D 2 -o d.data -- ./prog >/dev/null 2>&1
"$FNTRACE" report -i d.data >d.txt
printf 'main() {\n  compute();\n  scale();\n} /* main */\n' >want.txt
t_graph_calls d.txt >got.txt
t_same "depth: two levels" want.txt got.txt

# -r: return values, as funcgraph-retval prints them.
"$FNTRACE" record -r -o r.data -- ./prog >/dev/null 2>&1
"$FNTRACE" report -i r.data >r.txt
t_ok "retval: leaf returns 6" grep -q 'leaf(); /\* = 0x6 \*/' r.txt
t_ok "retval: compute returns 20" grep -q '} /\* compute = 0x14 \*/' r.txt

# --stat / --csv: hits per function.
"$FNTRACE" report -i r.data --csv >stat.csv
t_eq "csv: header" "function,hits,total_ns,self_ns,avg_ns" "$(head -n 1 stat.csv)"
t_eq "csv: fib hits" "5" "$(awk -F, '$1 == "fib" { print $2 }' stat.csv)"
t_eq "csv: leaf hits" "2" "$(awk -F, '$1 == "leaf" { print $2 }' stat.csv)"
t_ok "csv: main's total covers compute's" awk -F, '$1=="main"{m=$3} $1=="compute"{c=$3} END{exit !(m>=c && c>0)}' stat.csv
"$FNTRACE" report -i r.data --stat >stat.txt
t_ok "stat: kernel-style header" grep -q '^  Function  *Hit  *Time  *Avg  *s^2' stat.txt

# live: record and print in one go, keeping nothing, even when its
# reader stops early.
# Its temporary directory goes in $TMPDIR: one of this case's own.
mkdir live-tmp
TMPDIR=$PWD/live-tmp "$FNTRACE" live -- ./prog | head -n 2 >/dev/null
t_eq "live: nothing left behind by a reader that stops early" "" "$(ls live-tmp)"
TMPDIR=$PWD/live-tmp "$FNTRACE" live -- ./prog >live.txt 2>&1
t_eq "live: exit status" 0 "$?"
t_graph_calls live.txt >got.txt
t_same "live: the graph" "$top/tests/progs/graph.expected" got.txt
t_eq "live: nothing left behind" "" "$(ls live-tmp)"
TMPDIR=$PWD/no-such-dir "$FNTRACE" live -- ./prog >live.out 2>live.err
t_eq "live: no temporary directory: status 1, one line" "1 1" "$? $(wc -l <live.err)"

# A program compiled and linked in one step with -pg (gprof start-up).
t_build gcc-pg-linked -O2 gprof "$top/tests/progs/graph.c"
"$FNTRACE" record -o p.data -- ./gprof >/dev/null 2>&1
t_eq "gprof-linked: exit status" 0 "$?"
"$FNTRACE" report -i p.data >p.txt
t_graph_calls p.txt >got.txt
t_same "gprof-linked: the graph" "$top/tests/progs/graph.expected" got.txt

# Functions returning a struct through a hidden pointer, which an i386
# callee pops as it returns ("ret $4"): their returns still find their
# shadow frames, at -O0 and -O2.
cat >sret.c <<'C'
#include <stdio.h>
struct triple { int lo, mid, hi; };
__attribute__((noinline)) struct triple split(int n)
{
	struct triple t = { n / 3, n / 2, n - n / 3 };
	return t;
}
__attribute__((noinline)) int use(int n) { return split(n).hi + 1; }
int main(void)
{
	int s = use(4);
	s += use(7);
	printf("%d\n", s);
	return 0;
}
C
printf 'main() {\n  use() {\n    split();\n  } /* use */\n  use() {\n    split();\n  } /* use */\n} /* main */\n' >sret.want
for opt in -O0 -O2; do
	t_build gcc-pg $opt sret sret.c
	"$FNTRACE" record -o sret.data -- ./sret >sret.out 2>sret.err
	t_eq "struct returns ($opt): output" 10 "$(cat sret.out)"
	t_eq "struct returns ($opt): nothing said" "" "$(grep -v 'recorded' sret.err)"
	"$FNTRACE" report -i sret.data >sret.txt
	t_graph_calls sret.txt >got.txt
	t_same "struct returns ($opt): the graph" sret.want got.txt
done
