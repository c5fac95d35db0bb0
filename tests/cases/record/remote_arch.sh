# record --host of a program of another architecture (run with T_ARCH,
# under qemu-user, from tests/arch/<arch>.sh's ARCH_CASES; natively too):
# the listener's directory has the hits of a local recording of the same
# run, and reads the same once the program is gone, for the function
# tables came along in the stream.

t_build gcc-pg -O2 calls "$top/tests/progs/remote_calls.c"
"$FNTRACE" record -o local.data -- ./calls 4 200 >local.out 2>local.err
t_eq "local: exit status" 3 "$?"
t_listen recv --once
"$FNTRACE" record --host "127.0.0.1:$LISTEN_PORT" -- ./calls 4 200 >remote.out 2>remote.err
t_eq "--host: exit status" 3 "$?"
t_eq "--host: the program's output" "$(cat local.out)" "$(cat remote.out)"
wait "$LISTEN_PID"
t_eq "listen --once: exit 0 for a complete stream" 0 "$?"
dir=$(sed -n "s|.* -> 127.0.0.1:$LISTEN_PORT/||p" remote.err)
t_ok "the listener's directory ($dir)" test -n "$dir" -a -d "recv/$dir"
t_hits local.data >local.hits
t_ok "local: outer's hits" grep -q "^outer 1600\$" local.hits
mv calls calls.gone
t_eq "the program gone: the same hits" "$(cat local.hits)" "$(t_hits "recv/$dir")"
"$FNTRACE" report -i "recv/$dir" >graph.txt 2>graph.err
t_eq "the program gone: the report reads it" 0 "$?"
t_eq "the program gone: nothing said" "" "$(cat graph.err)"
t_eq "the program gone: the graph's calls" "$("$FNTRACE" report -i local.data | t_graph_calls /dev/stdin | sort | uniq -c)" \
	"$(t_graph_calls graph.txt | sort | uniq -c)"
