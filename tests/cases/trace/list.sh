# fntrace list: the traceable functions of every build flavour, and the
# errors for programs that cannot be traced.

want="compute fib leaf main scale through_pointer"
for flavor in $FLAVORS; do
	t_build "$flavor" -O2 prog "$top/tests/progs/graph.c"
	got=$("$FNTRACE" list prog | sort | tr '\n' ' ' | sed 's/ $//')
	t_eq "list: $flavor finds every function" "$want" "$got"
done

t_build gcc-fentry -O2 prog "$top/tests/progs/graph.c"
"$FNTRACE" list -a prog >sites.txt
t_eq "list -a: fentry sites are at the entry" "6" "$(grep -c ' entry ' sites.txt)"
t_build gcc-pg -O2 prog "$top/tests/progs/graph.c"
"$FNTRACE" list -a prog >sites.txt
t_eq "list -a: -pg sites follow the frame setup" "6" "$(grep -c ' frame ' sites.txt)"

t_build plain -O2 plain "$top/tests/progs/graph.c"
"$FNTRACE" list plain >out.txt 2>err.txt
rc=$?
t_eq "list: uninstrumented program fails" "1" "$rc"
t_ok "list: says how to compile it" grep -q 'no call sites: compile it with -pg' err.txt
t_eq "list: one line of error" "1" "$(wc -l <err.txt)"

"$FNTRACE" list ./nonexistent 2>err.txt
t_eq "list: missing program fails" "1" "$?"
t_ok "list: missing program is named" grep -q 'nonexistent: no such program' err.txt

printf 'not an elf' >bad && chmod +x bad
"$FNTRACE" list ./bad 2>err.txt
t_eq "list: non-ELF file fails" "1" "$?"
t_ok "list: non-ELF file is said" grep -q 'not an ELF file' err.txt

t_ok "list --help" sh -c "'$FNTRACE' list --help | grep -q usage"
