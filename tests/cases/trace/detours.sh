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
