# scripts/fntrace-completion.bash, driven the way bash drives it on a Tab
# (COMP_WORDS, COMP_CWORD, the function 'complete' names, COMPREPLY):
# the commands; each command's options, the same as its --help lists;
# function names for -F, -N, -A, --trigger from 'fntrace list PROG' and
# for report's from the data directory; the processes with a control
# endpoint, the control files of 'fntrace ctl PID' (every one the runtime
# serves to users, as src/core/ctlfiles.c has them) and the functions a
# running process has for set_ftrace_filter.

t_build gcc-pg -O2 prog "$top/tests/progs/graph.c"
t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
"$FNTRACE" record -o rec.data -- ./prog >/dev/null 2>&1
t_ok "a recording to complete from" test -f rec.data/info

# A traced process for ctl, held running until the checks are done.
touch hold
"$FNTRACE" run -- ./spin 1 hold >/dev/null 2>run.err &
pid=$!
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done

# tab WORD...: what a Tab after the words gives ("" as the last word: at
# an empty word), sorted, on one line.  "@N WORD...": the cursor on the
# Nth word instead of the last.
cat >tab.bash <<'EOF'
. "$top/scripts/fntrace-completion.bash"
fn=$(complete -p fntrace 2>/dev/null | sed -n 's/.* -F \([^ ]*\) fntrace$/\1/p')
[ -n "$fn" ] || { echo "no completion function for fntrace"; exit 1; }
cword=
case $1 in @*) cword=${1#@}; shift ;; esac
COMP_WORDS=("$@")
COMP_CWORD=${cword:-$((${#COMP_WORDS[@]} - 1))}
COMP_LINE="$*" COMP_POINT=${#COMP_LINE}
COMPREPLY=()
"$fn" fntrace "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
EOF
export top
tab() { PATH=$(dirname "$FNTRACE"):$PATH bash tab.bash "$@"; }
words() { tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//'; }

# Commands: what fntrace --help lists.
want=$("$FNTRACE" --help | awk '/^commands:/ { c = 1; next } c && /^$/ { exit } c { print $1 }' | words)
t_eq "commands" "$(echo "$want -h --help" | words)" "$(tab fntrace '')"
t_eq "commands beginning with re" "record recordmcount report" "$(tab fntrace re)"

# Options: for every command, what its --help's table lists.
for cmd in $("$FNTRACE" --help | awk '/^commands:/ { c = 1; next } c && /^$/ { exit } c { print $1 }'); do
	case $cmd in cc|c++) continue ;; esac	# the compiler's arguments
	want=$("$FNTRACE" $cmd --help | grep -E '^ {2,6}-' | sed -E 's/^ +//; s/  .*//' |
		grep -o -e '--\?[A-Za-z0-9][A-Za-z0-9-]*' | sort -u | words)
	t_eq "$cmd: its options" "$want" "$(tab fntrace $cmd -)"
done
t_eq "record --fi" "--filter" "$(tab fntrace record --fi)"
t_eq "options only before the program" "" "$(tab fntrace record -- ./prog --fi)"
t_eq "record --ho" "--host" "$(tab fntrace record --ho)"
t_eq "record --host=localh: the host, then the port" "--host=localhost:" \
	"$(tab @2 fntrace record --host=localh ./prog)"
t_eq "listen --on" "--once" "$(tab fntrace listen --on)"

# Function names: the program's, whether it comes before or after.
t_eq "record -F (the program after)" "fib" "$(tab @3 fntrace record -F fi -- ./prog)"
t_eq "record -F !" "!fib" "$(tab @3 fntrace record -F '!fi' ./prog)"
t_eq "live -N" "compute" "$(tab @3 fntrace live -N com ./prog)"
# bash splits --filter=fi at '=': the value is the word replaced.
t_eq "record --filter=" "fib" "$(tab @4 fntrace record --filter = fi ./prog)"
t_eq "record --filter=, not split" "--filter=fib" "$(tab @2 fntrace record --filter=fi ./prog)"
t_eq "record -A: FUNC@" "fib@" "$(tab @3 fntrace record -A fi ./prog)"
t_eq "record --trigger: FUNC:" "fib:" "$(tab @3 fntrace record --trigger fi ./prog)"
t_eq "record -F without a program" "" "$(tab fntrace record -F fi)"
want=$("$FNTRACE" list ./prog | sort | words)
t_eq "record -F: every function fntrace list gives" "$want" "$(tab @3 fntrace record -F '' ./prog)"
# report's: the data directory's, -i given or not.
t_eq "report -i DIR -F" "fib" "$(tab fntrace report -i rec.data -F fi)"
mv rec.data fntrace.data
t_eq "report -F (fntrace.data)" "compute" "$(tab fntrace report --filter com)"
t_eq "report -i: directories" "fntrace.data" "$(tab fntrace report -i fntrace.d)"

# Processes with a control endpoint, and their control files.
t_eq "ctl: the traced process offered" "$pid" "$(tab fntrace ctl '' | tr ' ' '\n' | grep -x "$pid")"
t_eq "detach: the traced process offered" "$pid" "$(tab fntrace detach '' | tr ' ' '\n' | grep -x "$pid")"
t_eq "ctl PID tracing_" "tracing_max_latency tracing_on tracing_thresh" "$(tab fntrace ctl $pid tracing_)"
t_eq "ctl -t 3 PID options/" "options/funcgraph-retval options/overwrite" \
	"$(tab fntrace ctl -t 3 $pid options/)"
# Every file ctlfiles.c serves, but those only fntrace's own commands
# read (record -p's buffer_fd, snapshot_fd, snapshot_bell; funcs; detach;
# traps_unblocked).
internal="buffer_fd snapshot_fd snapshot_bell funcs detach traps_unblocked"
want=$(sed -n '/^static const struct ctl_file files\[\]/,/^};/s/^\t{ "\([^"]*\)",.*/\1/p' \
	"$top/src/core/ctlfiles.c" | grep -vx $(printf -- '-e %s ' $internal) | words)
t_ok "ctlfiles.c read" test -n "$want"
t_eq "ctl PID: every control file" "$want" "$(tab fntrace ctl $pid '')"
t_eq "ctl PID set_ftrace_filter" "mid" "$(tab fntrace ctl $pid set_ftrace_filter mi)"
t_eq "ctl PID current_tracer" "function function_graph" "$(tab fntrace ctl $pid current_tracer func)"

rm -f hold
wait $pid
