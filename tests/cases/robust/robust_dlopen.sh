# Robustness: a traced library dlopen()ed and dlclose()d 50
# times in a loop while tracing, with a traced function of the program
# called between the loads: every load's calls are traced, with a :mod:
# filter given before the first load too.

. "$top/tests/robust_lib.sh"

t_examples "$PWD/ex"
lib=$PWD/ex/libcalc.so
r_build robust_dlopen dlo
./dlo "$lib" >want.out
r_record dlo ./dlo "$lib"
t_eq "dlopen x50: exit status" 0 "$(cat dlo.rc)"
t_same "dlopen x50: output as untraced" want.out dlo.out
"$FNTRACE" report -i dlo.data --csv >dlo.csv
hits() { awk -F, -v f="$2" '$1 == f { print $2 }' "$1"; }
t_eq "dlopen x50: the library traced on every load" 50 "$(hits dlo.csv calc_eval)"
t_eq "dlopen x50: the calls between the loads traced" 50 "$(hits dlo.csv between)"
t_eq "dlopen x50: the graph nests" "" "$(r_all_nest dlo.txt)"
t_eq "dlopen x50: every library call inside its load" 50 \
	"$(t_graph_calls dlo.txt | grep -c '^    calc_eval() {')"

rm -rf dm.data
"$FNTRACE" record -F '*:mod:libcalc' -o dm.data -- ./dlo "$lib" >dm.out 2>/dev/null
t_eq "dlopen x50, :mod:libcalc: exit status" 0 "$?"
t_same "dlopen x50, :mod:libcalc: output as untraced" want.out dm.out
"$FNTRACE" report -i dm.data --csv >dm.csv
t_eq "dlopen x50, :mod:libcalc: every load traced" 50 "$(hits dm.csv calc_eval)"
t_eq "dlopen x50, :mod:libcalc: the program not traced" "" \
	"$(grep -E '^(main|between|load_and_call),' dm.csv)"
