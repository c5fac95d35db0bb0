# Several threads: each thread's trace nests on its own, whatever the
# interleaving, and every worker shows the same calls.

t_examples "$PWD/ex"
"$FNTRACE" record -o t.data -- ex/demo 4 >out.txt 2>/dev/null
t_eq "threads: demo exit status" 0 "$?"
"$FNTRACE" report -i t.data >all.txt
tids=$(grep 'work() {' all.txt | sed 's/.*demo-\([0-9]*\).*/\1/' | sort -u)
t_eq "threads: four workers traced" 4 "$(echo "$tids" | wc -w)"

first=""
for tid in $tids; do
	"$FNTRACE" report -i t.data --tid "$tid" >one.txt
	t_graph_calls one.txt >calls.$tid
	opens=$(grep -c '() {$' "calls.$tid")
	closes=$(grep -c '^ *}' "calls.$tid")
	t_eq "threads: worker $tid nests (opens = closes)" "$opens" "$closes"
	t_eq "threads: worker $tid starts at work" "work() {" "$(head -n 1 "calls.$tid")"
	if [ -z "$first" ]; then first=$tid; else
		t_same "threads: worker $tid made the same calls as $first" "calls.$first" "calls.$tid"
	fi
done
t_ok "threads: context switches are marked" grep -q '=>' all.txt
