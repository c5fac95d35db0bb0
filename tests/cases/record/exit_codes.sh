# One table of exit statuses for every command (src/cli/exit_status.h):
# 0 done, 1 failed, 2 usage error; run, record and live pass the
# program's own on.  Every command, given an unknown option, a missing
# operand, a bad number, a process that does not exist or a recording
# that is not there, says what was wrong in its first line on stderr
# (a usage error: then the one-line hint, never the help) and exits with
# the status the table gives; --help prints the help on stdout, exit 0.

t_build gcc-pg -O2 prog "$top/tests/progs/graph.c"

# A pid no process can have: above the kernel's largest.
nopid=$(($(cat /proc/sys/kernel/pid_max) + 1))

# --help: the whole help on stdout, nothing on stderr, status 0.
for cmd in run record live attach detach ctl report info list export cc c++ recordmcount; do
	"$FNTRACE" $cmd --help >help.out 2>help.err
	t_eq "$cmd --help: status 0, nothing on stderr" "0 0" "$? $(wc -c <help.err)"
	t_ok "$cmd --help: the usage on stdout" grep -q "^usage: fntrace" help.out
done
"$FNTRACE" --help >help.out 2>help.err
t_eq "fntrace --help: status 0, nothing on stderr" "0 0" "$? $(wc -c <help.err)"
t_ok "fntrace --help: the exit status table" grep -q "^  2   a usage error" help.out
for cmd in run record live attach detach ctl report info list export cc c++ recordmcount; do
	t_ok "$cmd --help: says its exit status" sh -c "'$FNTRACE' $cmd --help | grep -q '^exit status: '"
done

# Unknown options: named as given, short, long or bundled.
for cmd in run record live attach detach ctl report info list export; do
	t_error "$cmd -Q: unknown option" 2 "^fntrace $cmd: unknown option '-Q'$" "$FNTRACE" $cmd -Q
	t_error "$cmd --bogus=1: unknown option" 2 "^fntrace $cmd: unknown option '--bogus'$" \
		"$FNTRACE" $cmd --bogus=1
done
t_error "recordmcount -Q: unknown option" 2 "^fntrace-recordmcount: unknown option '-Q'$" \
	"$FNTRACE" recordmcount -Q x.o
t_error "record -rQ: the bundled unknown option" 2 "^fntrace record: unknown option '-Q'$" \
	"$FNTRACE" record -rQ -- ./prog
t_error "record --tracer: its value missing" 2 "^fntrace record: option '--tracer' needs a value$" \
	"$FNTRACE" record --tracer
t_error "record -o: its value missing" 2 "^fntrace record: option '-o' needs a value$" \
	"$FNTRACE" record -o
t_error "report --stat=1: a value it takes none of" 2 "^fntrace report: option '--stat' takes no value$" \
	"$FNTRACE" report --stat=1
t_error "report --t: ambiguous" 2 "^fntrace report: ambiguous option '--t'$" "$FNTRACE" report --t 1
t_error "unknown command" 2 "^fntrace: 'bogus' is not a command$" "$FNTRACE" bogus
t_error "an option instead of a command" 2 "^fntrace: unknown option '-Q'$" "$FNTRACE" -Q
t_error "no command" 2 "^fntrace: no command given$" "$FNTRACE"

# Missing and extra operands.
t_error "run: no program" 2 "^fntrace run: no program to run$" "$FNTRACE" run --
t_error "record: no program" 2 "^fntrace record: no program to run$" "$FNTRACE" record -D 2
t_error "live: no program" 2 "^fntrace live: no program to run$" "$FNTRACE" live
t_error "attach: no pid" 2 "^fntrace attach: no process id given$" "$FNTRACE" attach
t_error "detach: no pid" 2 "^fntrace detach: no process id given$" "$FNTRACE" detach
t_error "detach: two pids" 2 "^fntrace detach: one process id only" "$FNTRACE" detach 1 2
t_error "ctl: no pid" 2 "^fntrace ctl: no process id given$" "$FNTRACE" ctl
t_error "ctl: no file" 2 "^fntrace ctl: no control file given" "$FNTRACE" ctl 1
t_error "ctl: two values" 2 "^fntrace ctl: one value only" "$FNTRACE" ctl 1 current_tracer a b
t_error "ctl --auto-args: not set_ftrace_args" 2 "^fntrace ctl: --auto-args writes set_ftrace_args" \
	"$FNTRACE" ctl --auto-args 1 trace
t_error "list: no program" 2 "^fntrace list: no program given$" "$FNTRACE" list
t_error "export: no format" 2 "^fntrace export: no --format given$" "$FNTRACE" export
t_error "recordmcount: no file" 2 "^fntrace-recordmcount: no file given$" "$FNTRACE" recordmcount
for cmd in report info export; do
	t_error "$cmd: an operand it takes none of" 2 "^fntrace $cmd: unexpected argument 'stray'" \
		"$FNTRACE" $cmd stray
done
t_error "record -p with a program" 2 "^fntrace record: -p records a running process" \
	"$FNTRACE" record -p 1 -- ./prog
t_error "live -o" 2 "^fntrace live: keeps nothing" "$FNTRACE" live -o x -- ./prog

# Bad numbers.
t_error "record -d abc" 2 "^fntrace record: bad duration: 'abc'" "$FNTRACE" record -p 1 -d abc
t_error "record -b 0" 2 "^fntrace record: bad buffer size: 0" "$FNTRACE" record -b 0 -- ./prog
t_error "live -D x" 2 "^fntrace live: bad depth: 'x'" "$FNTRACE" live -D x -- ./prog
t_error "record -p abc" 2 "^fntrace record: not a process id: 'abc'$" "$FNTRACE" record -p abc
t_error "attach abc" 2 "^fntrace attach: not a process id: 'abc'$" "$FNTRACE" attach abc
t_error "detach 0" 2 "^fntrace detach: not a process id: '0'$" "$FNTRACE" detach 0
t_error "ctl -5" 2 "^fntrace ctl: not a process id: '-5'$" "$FNTRACE" ctl -- -5 trace
t_error "attach -t abc" 2 "^fntrace attach: --timeout wants whole seconds" "$FNTRACE" attach -t abc 1
t_error "ctl -t 0" 2 "^fntrace ctl: --timeout wants whole seconds" "$FNTRACE" ctl -t 0 1 trace
t_error "report -D -1" 2 "^fntrace report: bad depth: '-1'" "$FNTRACE" report -D -1
t_error "report --tid 0" 2 "^fntrace report: a thread id is a positive number" "$FNTRACE" report --tid 0
t_error "export --split 0" 2 "^fntrace export: a size is a positive number" \
	"$FNTRACE" export -f chrome --split 0

# No such process: the same failure, 1, from every command that takes one.
t_error "attach: no such process" 1 "^fntrace: .*$nopid.*no such process\|^fntrace: no process $nopid" \
	"$FNTRACE" attach $nopid
t_error "detach: no such process" 1 "^fntrace: no process $nopid$" "$FNTRACE" detach $nopid
t_error "ctl: no such process" 1 "^fntrace: no process $nopid$" "$FNTRACE" ctl $nopid current_tracer
t_error "record -p: no such process" 1 "^fntrace: no process $nopid$" "$FNTRACE" record -p $nopid
t_eq "record -p: nothing left behind" "" "$(ls -d fntrace.data* 2>/dev/null)"

# A recording that is not there, or holds no trace: 1 from every reader.
mkdir empty
for cmd in report info "export -f folded"; do
	t_error "$cmd: no recording" 1 "^fntrace: .*nosuch" "$FNTRACE" $cmd -i nosuch
	t_error "$cmd: an empty directory" 1 "^fntrace: .*empty" "$FNTRACE" $cmd -i empty
done
t_error "list: no such program" 1 "^fntrace: nosuch: no such program$" "$FNTRACE" list nosuch
t_error "record: no such program" 1 "^fntrace: ./nosuch: no such program$" \
	"$FNTRACE" record -o r.data -- ./nosuch
t_error "run: no such program" 1 "^fntrace: ./nosuch: no such program$" "$FNTRACE" run ./nosuch

# The program's own status, passed on (its own 1 and 2 too).
"$FNTRACE" run -- sh -c 'exit 5' 2>/dev/null
t_eq "run: the program's status" 5 "$?"
"$FNTRACE" run -- sh -c 'kill -TERM $$' 2>/dev/null
t_eq "run: a signal's 128+N" 143 "$?"
"$FNTRACE" record -o r.data -- ./prog >/dev/null 2>&1
t_eq "record: the program's 0 (a traced run)" 0 "$?"
"$FNTRACE" live -- sh -c 'exit 2' >/dev/null 2>live.err
t_eq "live: the program's own 2, though nothing was traced" 2 "$?"
t_ok "live: ... and fntrace's line says what it adds" grep -q '^fntrace: no traced program ran' live.err

# A program with call sites that ran untraced: said in one line, never
# "recorded 0 calls"; a clean exit becomes 1, a failing one passes.  The
# runtime never starts in a program whose library ends the process in
# its constructor, before the runtime's own runs.  (A static program
# built without the runtime is refused before it runs: static.sh; one
# fntrace cc linked it into is traced, its status its own.)
cat >static.c <<'C'
#include <stdio.h>
#include <stdlib.h>
int work(int n) { return n + 1; }
int main(int argc, char **argv) { printf("static %d\n", work(1)); return atoi(argv[1]); }
C
"$FNTRACE" cc -static -O2 -o static static.c
for st in 0 3; do
	"$FNTRACE" record -o r.data -- ./static $st >static.out 2>static.err
	t_eq "record, static program ending with $st: fntrace's status" $st "$?"
	t_eq "record, static program ending with $st: it ran" "static 2" "$(cat static.out)"
	t_ok "record, static program ending with $st: traced" \
		grep -q '^fntrace: recorded [1-9][0-9]* calls' static.err
done
cat >quitlib.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
__attribute__((constructor)) static void quit(void)
{
	const char *st = getenv("QUIT");

	if (st) { printf("quit %s\n", st); fflush(stdout); _exit(atoi(st)); }
}
C
cat >quitter.c <<'C'
int work(int n) { return n + 1; }
int main(void) { return work(-1); }
C
gcc -O2 -fPIC -shared -o libquit.so quitlib.c
gcc -O2 -fpatchable-function-entry=5 -o quitter quitter.c -L. -Wl,--no-as-needed -lquit -Wl,-rpath,"$PWD"
"$FNTRACE" record -o r.data -- ./quitter >/dev/null 2>&1
t_eq "record: the quitter traced when its library lets it run" 0 "$?"
for st in 0 4; do
	QUIT=$st "$FNTRACE" record -o r.data -- ./quitter >quit.out 2>quit.err
	t_eq "record, program gone before the runtime, status $st: fntrace's status" \
		$((st ? st : 1)) "$?"
	t_eq "record, program gone before the runtime, status $st: it ran" "quit $st" \
		"$(cat quit.out)"
	t_eq "record, program gone before the runtime, status $st: one line" 1 \
		"$(wc -l <quit.err)"
	t_ok "record, program gone before the runtime, status $st: ... saying so" \
		grep -q '^fntrace: ./quitter ran untraced: the runtime never started' quit.err
done
