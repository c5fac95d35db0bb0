# Bad input: one clear line, a non-zero exit, nothing left half-written.

t_build gcc-pg -O2 prog "$top/tests/progs/graph.c"
t_build plain -O2 plain "$top/tests/progs/graph.c"

t_error "record: bad filter" 2 "bad filter: bad glob" "$FNTRACE" record -F 'foo[' -- ./prog
t_error "record: unknown filter command" 2 "unknown filter command" "$FNTRACE" record -F 'foo:bar:x' -- ./prog
t_error "record: no such tracer" 2 "no such tracer: 'nop'" "$FNTRACE" record -t nop -- ./prog
t_error "record: bad depth" 2 "bad depth" "$FNTRACE" record -D x -- ./prog
t_error "record: no program" 2 "no program to run" "$FNTRACE" record
t_error "record: missing program" 1 "no-such-prog: no such program" "$FNTRACE" record -- ./no-such-prog
t_error "record: program without call sites" 1 "no traced program ran: ./plain, and what it started, had no call sites" "$FNTRACE" record -- ./plain
# A -pg program stripped after its link: a table of sites, no symbol to
# name their functions, and no table of fntrace's names (not fntrace cc's).
gcc -O2 -pg -mfentry -mrecord-mcount -o stripped "$top/tests/progs/graph.c" 2>/dev/null && strip stripped
t_error "record: stripped program, said so" 1 \
	"no traced program ran: ./stripped: its [1-9][0-9]* call sites name no function: its symbols were stripped" \
	"$FNTRACE" record -- ./stripped
t_eq "record: nothing written after errors" "" "$(ls -d fntrace.data* 2>/dev/null)"

t_error "report: missing data dir" 1 "fntrace: " "$FNTRACE" report -i nodata
mkdir broken && echo 'fntrace-data: 1' >broken/info
t_error "report: data dir without trace" 1 "fntrace: " "$FNTRACE" report -i broken
t_error "unknown command" 2 "^fntrace: 'frobnicate' is not a command$" "$FNTRACE" frobnicate

for cmd in record report live list; do
	t_ok "$cmd --help" sh -c "'$FNTRACE' $cmd --help | grep -q '^usage: fntrace $cmd'"
done
t_ok "fntrace --help" sh -c "'$FNTRACE' --help | grep -q '^usage: fntrace'"

# The program's exit status passes through, also death by a signal.
cat >status.c <<'C'
#include <signal.h>
#include <stdlib.h>
__attribute__((noinline)) void die(int how) { if (how < 0) raise(-how); exit(how); }
int main(int argc, char **argv) { die(atoi(argv[1])); return 0; }
C
t_build gcc-pg -O2 status status.c
"$FNTRACE" record -o s.data -- ./status 7 2>/dev/null
t_eq "record: exit status passed on" 7 "$?"
"$FNTRACE" record -o s.data -- ./status -15 2>/dev/null
t_eq "record: death by SIGTERM gives 143" 143 "$?"
t_ok "record: the report says how it ended" sh -c "'$FNTRACE' report -i s.data | tail -n 1 | grep -q 'killed by signal 15 (SIGTERM)'"
t_ok "record: frames open at the end are shown" sh -c "'$FNTRACE' report -i s.data | grep -q 'die() {'"

# A second recording keeps the first as DIR.old.
"$FNTRACE" record -o twice -- ./prog >/dev/null 2>&1
"$FNTRACE" record -o twice -- ./prog >/dev/null 2>&1
t_ok "record: the previous data is kept as .old" test -f twice.old/trace.dat -a -f twice/trace.dat
t_eq "record: no temporary directory left" "" "$(ls -d twice.tmp* 2>/dev/null)"
