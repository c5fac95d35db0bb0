# The runtime under valgrind's memcheck (ASan's runtime cannot be
# preloaded into programs built without it): threads come and go while
# traced, and memcheck finds no invalid access and no leak; the trace is
# the same as without valgrind.  --smc-check=all makes valgrind see the
# runtime's patches to the program's text.

t_build gcc-pg -O2 threads "$top/tests/progs/robust_threads.c"
"$FNTRACE" record -o plain.data -- ./threads >want.txt 2>/dev/null
"$FNTRACE" record -o vg.data -- valgrind -q --smc-check=all --leak-check=full \
	--show-leak-kinds=definite --errors-for-leak-kinds=definite --error-exitcode=99 \
	./threads >got.txt 2>vg.err
t_eq "valgrind: no error, no leak (exit status)" 0 "$?"
t_eq "valgrind: nothing said" "" "$(grep -v '^fntrace: recorded' vg.err)"
t_same "valgrind: the program's output" want.txt got.txt
calls() { "$FNTRACE" report -i "$1" | cut -d'|' -f3 | grep -c '() {$\|();$'; }
t_eq "valgrind: the same calls traced" "$(calls plain.data)" "$(calls vg.data)"
