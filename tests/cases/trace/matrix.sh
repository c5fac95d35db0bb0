# Acceptance: every build flavour, at -O0 and -O2, gives the same graph,
# and the program's output and exit status are what they are untraced.

for flavor in $FLAVORS; do
	for opt in -O0 -O2; do
		name="$flavor $opt"
		t_build "$flavor" "$opt" prog "$top/tests/progs/graph.c" || { t_fail "matrix: build $name"; continue; }
		./prog >want.out
		"$FNTRACE" record -o data -- ./prog >got.out 2>rec.err
		t_eq "matrix: $name exit status" 0 "$?"
		t_same "matrix: $name program output" want.out got.out
		"$FNTRACE" report -i data >report.txt
		t_graph_calls report.txt >calls.txt
		t_same "matrix: $name graph" "$top/tests/progs/graph.expected" calls.txt
	done
done
