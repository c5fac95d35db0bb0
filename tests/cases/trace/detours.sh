# Detours (src/core/detours.c): functions of a program built with plain
# -O2, no call sites, traced by name through a jump at their entry to a
# stub holding their first instructions; planned by record (or run),
# which writes the plan where the runtime finds it.  Their calls counted
# as those of the same program built with call sites, the output the
# program's own, a function the planner refuses said.

export FNTRACE_CACHE=$PWD/cache
# The csv report's hits of function $2 in $1 ("" if none).
hits() { awk -F, -v f="$2" '$1 == f { print $2 }' "$1"; }
funcs="round_once leaf_add sum_array mix fib"

t_build plain -O2 plain "$top/tests/progs/detours.c"
t_build gcc-fentry -O2 sites "$top/tests/progs/detours.c"
t_eq "plain: built without call sites" "" \
	"$(readelf -S plain | grep -E '__mcount_loc|__patchable_function_entries')"

./plain run 40 >want.out
"$FNTRACE" record -F round_once -F leaf_add -F sum_array -F mix -F fib -F too_short \
	-o plain.data -- ./plain run 40 >got.out 2>plain.err
t_eq "record: exit status" 0 "$?"
t_same "record: output as untraced" want.out got.out
t_eq "record: the function too short for a jump said, in one line" 1 \
	"$(grep -c "^fntrace: -F 'too_short': not traced: .*too short" plain.err)"
"$FNTRACE" record -o sites.data -- ./sites run 40 >/dev/null 2>&1
"$FNTRACE" report -i plain.data --csv >plain.csv
"$FNTRACE" report -i sites.data --csv >sites.csv
for f in $funcs; do
	t_eq "record: $f's hits as with call sites" "$(hits sites.csv "$f")" "$(hits plain.csv "$f")"
done
t_eq "record: too_short not traced" "" "$(hits plain.csv too_short)"
"$FNTRACE" report -i plain.data >plain.txt
t_eq "record: the callees nested under round_once, in order" \
	"$(printf 'round_once() {\n%s\n  sum_array();\n  mix();\n  fib();\n} /* round_once */' \
		"$(printf '  leaf_add();\n%.0s' 1 2 3 4 5 6 7 8 | sed '$!b')")" \
	"$(t_graph_calls plain.txt | sed 's/ *$//' | awk '/^round_once\(\) \{/ { on = 1 } on { print } /^\} \/\* round_once/ { exit }')"
t_ok "record: with durations" grep -q '[0-9] us *|  *leaf_add();' plain.txt
t_eq "record: fib's recursion nested" 1 \
	"$(t_graph_calls plain.txt | grep -c '^    fib() {$' | awk '{ print ($1 > 0) }')"

# '*' takes every function the plan has; the program's entry point,
# which no call enters, is left out.
"$FNTRACE" record -F '*' -o all.data -- ./plain run 40 >all.out 2>all.err
t_same "-F '*': output as untraced" want.out all.out
"$FNTRACE" report -i all.data --csv >all.csv
t_eq "-F '*': main once, _start not traced" "1 " "$(hits all.csv main) $(hits all.csv _start)"
t_eq "-F '*': round_once's hits" "$(hits sites.csv round_once)" "$(hits all.csv round_once)"

# No filter: no detour (as no library call), the program said untraced.
"$FNTRACE" record -o none.data -- ./plain run 40 >none.out 2>none.err
t_same "no filter: output as untraced" want.out none.out

# Switched on and off live by fntrace ctl while threads call them: the
# entries jump when on, and hold the compiler's bytes again, byte for
# byte, once off.
# fbytes PID FUNC: FUNC's first 16 bytes in the running process, as hex.
fbytes() {
	set -- "$1" "$2" $(awk '/ r-xp .*\/plain$/ { split($1, a, "-"); print a[1], $3; exit }' /proc/$1/maps)
	addr=$(( 0x$3 - 0x$4 + 0x$(nm plain | awk -v f="$2" '$3 == f { print $1 }') ))
	dd if=/proc/$1/mem bs=1 skip=$addr count=16 2>/dev/null | od -An -tx1 | tr -d ' \n'
}
all_bytes() { for f in $funcs; do echo "$f $(fbytes "$1" $f)"; done; }
rm -f cmd ans
mkfifo cmd ans
"$FNTRACE" run -- ./plain wait 3 <cmd >ans 2>live.err &
pid=$!
exec 3>cmd 4<ans
read -r ready <&4
t_eq "live: the program calls" ready "$ready"
all_bytes $pid >off0.txt
# (A PIE's text has vaddr = file offset.)
fileb() { dd if=plain bs=1 skip=$((0x$(nm plain | awk -v f="$1" '$3 == f { print $1 }'))) count=16 \
	2>/dev/null | od -An -tx1 | tr -d ' \n'; }
t_eq "live: the file's bytes in memory" "$(for f in $funcs; do echo "$f $(fileb $f)"; done)" \
	"$(cat off0.txt)"
"$FNTRACE" ctl $pid set_ftrace_filter "$funcs"
"$FNTRACE" ctl $pid current_tracer function_graph
all_bytes $pid >on.txt
t_eq "live: every entry a jmp when on" "e9 e9 e9 e9 e9" \
	"$(awk '{ print substr($2, 1, 2) }' on.txt | tr '\n' ' ' | sed 's/ $//')"
t_eq "live: only the jump's 5 bytes changed" "$(awk '{ print $1, substr($2, 11) }' off0.txt)" \
	"$(awk '{ print $1, substr($2, 11) }' on.txt)"
sleep 0.2
"$FNTRACE" ctl $pid trace >live.trace
t_ok "live: the calls traced" grep -q 'round_once() {' live.trace
t_ok "live: ... their callees under them" grep -q ' leaf_add();' live.trace
"$FNTRACE" ctl $pid set_ftrace_filter fib
all_bytes $pid >fib.txt
t_eq "live: the filter narrowed: fib's entry alone jumps" fib \
	"$(diff off0.txt fib.txt | sed -n 's/^> \([^ ]*\) .*/\1/p' | tr '\n' ' ' | sed 's/ $//')"
"$FNTRACE" ctl $pid current_tracer nop
all_bytes $pid >off1.txt
t_same "live: the text as the compiler left it once off" off0.txt off1.txt
exec 3>&-
read -r done <&4
exec 4<&-
wait $pid
t_eq "live: exit status" 0 "$?"
t_eq "live: every result right" ok "$done"
