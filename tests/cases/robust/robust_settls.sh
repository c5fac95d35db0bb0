# x86_64 (the program copies its TLS layout; no other arch lists this
# case): a thread made with clone(CLONE_SETTLS) and a TLS block of the
# program's.  A copy of its creator's block holds the runtime's variables
# (ft_current too, the creator's state): the child is marked never to be
# traced, said in one line, its calls counted lost, while its creator is
# traced on.  A block of zeros holds none: no hook may read it, so
# tracing is switched off before the child starts, said in one line.
# Either way the program gives its untraced output and status.

. "$top/tests/robust_lib.sh"

r_build robust_settls ctls
./ctls >want.out
FOREIGN_LINE="fntrace: clone() with CLONE_SETTLS: the child's calls are not traced (counted lost)"

# The child's 20 000 calls of count() and its own: 20 001.
for tracer in function_graph function; do
	bad=""
	for i in 1 2 3; do
		rm -rf t.data
		"$FNTRACE" record -t $tracer -o t.data -- ./ctls >t.out 2>t.err
		echo $? >t.rc
		cmp -s want.out t.out || bad="$bad output($i)"
		[ "$(cat t.rc)" = 0 ] || bad="$bad status($i)"
		[ "$(grep -v '^fntrace: recorded' t.err)" = "$FOREIGN_LINE" ] ||
			bad="$bad said($i): $(grep -v '^fntrace: recorded' t.err | head -n 1)"
		events=1
		[ $tracer = function_graph ] && events=2
		lost=$(sed -n 's/.*, \([0-9]*\) lost -> .*/\1/p' t.err)
		[ "$lost" = $((20001 * events)) ] || bad="$bad lost($i): $lost"
	done
	t_eq "TLS block copied, $tracer: output, status, one line, the child's calls counted" \
		"" "${bad# }"
done
"$FNTRACE" report -i t.data >t.txt 2>/dev/null
t_eq "TLS block copied: its creator traced on" 20000 "$(grep -c 'count <-creator' t.txt)"
t_eq "TLS block copied: nothing of the child's shown" "" "$(grep -E 'child|<-child' t.txt)"

rm -rf z.data
"$FNTRACE" record -o z.data -- ./ctls zero >z.out 2>z.err
t_eq "TLS block of zeros: exit status" 0 "$?"
t_same "TLS block of zeros: output as untraced" want.out z.out
t_eq "TLS block of zeros: tracing switched off, said" \
	"fntrace: tracing switched off: clone() with CLONE_SETTLS: the child's TLS block is not laid out for the runtime" \
	"$(grep -v '^fntrace: recorded' z.err)"
