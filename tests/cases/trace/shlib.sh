# Functions in -pg shared libraries are traced: linked, and dlopen()ed
# (repeatedly, with :mod: filters given before the library is loaded).

t_examples "$PWD/ex"
"$FNTRACE" record -o demo.data -- ex/demo 2 >demo.out 2>/dev/null
t_eq "shlib: demo runs" 0 "$?"
"$FNTRACE" report -i demo.data >demo.txt
t_ok "shlib: library functions traced" grep -q 'calc_eval() {' demo.txt
t_ok "shlib: static library functions traced" grep -q 'skip_space();' demo.txt
t_ok "shlib: program functions traced" grep -q 'evaluate() {' demo.txt

"$FNTRACE" record -F '*:mod:libcalc' -o mod.data -- ex/demo 2 >/dev/null 2>&1
"$FNTRACE" report -i mod.data >mod.txt
t_ok "shlib: :mod:libcalc keeps the library" grep -q 'calc_eval() {' mod.txt
t_eq "shlib: :mod:libcalc drops the program" 0 "$(grep -c 'work\|evaluate\|main' mod.txt)"

t_build gcc-pg -O2 dl "$top/tests/progs/dl.c"
./dl "$PWD/ex/libcalc.so" >want.out
"$FNTRACE" record -o dl.data -- ./dl "$PWD/ex/libcalc.so" >got.out 2>/dev/null
t_eq "dlopen: exit status" 0 "$?"
t_same "dlopen: output as untraced" want.out got.out
"$FNTRACE" report -i dl.data --csv >dl.csv
t_eq "dlopen: library traced on every load" 3 "$(awk -F, '$1 == "calc_eval" { print $2 }' dl.csv)"
t_eq "dlopen: program traced too" 3 "$(awk -F, '$1 == "call_lib" { print $2 }' dl.csv)"

"$FNTRACE" record -F 'parse_sum:mod:libcalc.so' -o dlf.data -- ./dl "$PWD/ex/libcalc.so" >/dev/null 2>&1
"$FNTRACE" report -i dlf.data --csv >dlf.csv
t_eq "dlopen: :mod: filter given before the load applies" "parse_sum" \
	"$(tail -n +2 dlf.csv | cut -d, -f1 | sort -u | tr '\n' ' ' | sed 's/ $//')"
