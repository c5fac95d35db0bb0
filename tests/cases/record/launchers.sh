# A traced program started through launchers that were never built for
# tracing (env, sh -c, nice, taskset, time, setarch, stdbuf, strace -f,
# make, gdb --args): recorded as when started directly.  A run in which no traced
# program ran says so in one line, exits non-zero, and leaves the
# previous recording in place.

t_build gcc-pg -O2 prog "$top/tests/progs/graph.c"
"$FNTRACE" record -o direct -- ./prog >want.out 2>/dev/null
"$FNTRACE" report -i direct >direct.txt
t_graph_calls direct.txt >want.txt

# launched NAME CMD...: recorded as ./prog alone.
launched() {
	name=$1; shift
	rm -rf l.data l.data.old
	"$FNTRACE" record -o l.data -- "$@" >got.out 2>err.txt
	t_eq "$name: exit status" 0 "$?"
	t_same "$name: the program's output" want.out got.out
	"$FNTRACE" report -i l.data >l.txt 2>/dev/null
	t_graph_calls l.txt >got.txt
	t_same "$name: the same graph as started directly" want.txt got.txt
}

launched "env" env X=1 ./prog
launched "sh -c" sh -c './prog; true'
launched "nice" nice -n 1 ./prog
command -v taskset >/dev/null && launched "taskset" taskset -c 0 ./prog
launched "stdbuf" stdbuf -o0 ./prog
launched "setarch -R" setarch "$(uname -m)" -R ./prog
launched "time" /usr/bin/time -o /dev/null ./prog
launched "strace -f" strace -f -o /dev/null ./prog
printf 'all:\n\t@./prog\n' >Makefile.t
launched "make" make -s -f Makefile.t
launched "a chain of them" env nice sh -c 'exec stdbuf -o0 ./prog'
# gdb prints lines of its own around the program's: the program's alone
# are compared.  (The runtime sends itself no signal at start, on which
# gdb would stop the program.)
cat >gdb_quiet.sh <<'SH'
#!/bin/sh
gdb -q --batch -ex 'set print inferior-events off' -ex run --args "$@" 2>/dev/null |
	grep -v -e '^\[' -e '^Using host libthread_db'
SH
chmod +x gdb_quiet.sh
command -v gdb >/dev/null && launched "gdb --args" ./gdb_quiet.sh ./prog

# Nothing traced: said, non-zero, the previous recording kept.
cat >plain.c <<'C'
#include <stdio.h>
int main(void) { puts("plain ran"); return 0; }
C
cc -O2 -o plain plain.c
"$FNTRACE" record -o direct -- env ./plain >plain.out 2>err.txt
t_eq "nothing traced: exit status" 1 "$?"
t_eq "nothing traced: the program ran" "plain ran" "$(cat plain.out)"
t_eq "nothing traced: one line" 1 "$(wc -l <err.txt)"
t_ok "nothing traced: says so" grep -q "no traced program ran" err.txt
"$FNTRACE" report -i direct >again.txt 2>/dev/null
t_same "nothing traced: the previous recording unchanged" direct.txt again.txt
t_eq "nothing traced: nothing else left" "" "$(ls -d direct.old direct.tmp* 2>/dev/null)"
"$FNTRACE" record -o direct -- sh -c 'exit 3' 2>/dev/null
t_eq "nothing traced, the program failed: its status" 3 "$?"
