# Arguments are any bytes but NUL: a newline, a tab, quotes, bytes that
# are not UTF-8, 100 KB in one.  The program gets them exactly, every
# reader takes the recording, and info's command line reads back, in a
# shell, into the same words.

cat >echoargs.c <<'C'
#include <stdio.h>
#include <string.h>
__attribute__((noinline)) void show(const char *a) { printf("%zu:", strlen(a)); fwrite(a, 1, strlen(a), stdout); putchar('\n'); }
int main(int argc, char **argv) { for (int i = 1; i < argc; i++) show(argv[i]); return 0; }
C
t_build gcc-pg -O2 echoargs echoargs.c

long=$(head -c 100000 /dev/zero | tr '\0' 'y')
set -- $'5\nx' $'tab\there' "it's" '"dq"' 'a b' $'\xff\xfe' '$HOME' '' "$long"
./echoargs "$@" >want.txt
"$FNTRACE" record -o d -- ./echoargs "$@" >got.txt 2>err.txt
t_eq "record: exit status" 0 "$?"
t_ok "record: the program got every argument exactly" cmp -s want.txt got.txt
"$FNTRACE" report -i d >report.txt 2>&1
t_eq "report reads the recording" 0 "$?"
t_eq "report: every call of show" "$#" "$(grep -c 'show();' report.txt)"
"$FNTRACE" info -i d >info.txt 2>&1
t_eq "info reads the recording" 0 "$?"
"$FNTRACE" export -i d --format chrome -o d.json 2>/dev/null
t_eq "export reads the recording" 0 "$?"

# The command line in info, read back by bash (which takes $'...').
sed -n 's/^command: //p' d/info >cmd.txt
t_eq "info: the command is one line" 1 "$(wc -l <cmd.txt)"
bash -c 'eval "set -- $(cat cmd.txt)"; shift; printf "%s\0" "$@"' >back.bin
printf '%s\0' "$@" >args.bin
t_ok "info: the command line reads back into the same words" cmp -s args.bin back.bin

# run passes PROG's own -h on, and says nothing of its own.
"$FNTRACE" run ./echoargs -h --help >run.txt 2>/dev/null
t_eq "run PROG -h: PROG gets -h and --help" "$(printf '2:-h\n6:--help')" "$(cat run.txt)"
