# The program's own memory is the program's: the protections it set on
# its code pages are what it finds after live switches (a page it made
# rwx and writes into stays writable throughout, an execute-only page
# stays execute-only), and the runtime's own memory does not make a
# limit the program sets on its address space bite earlier.

. "$top/tests/robust_lib.sh"

r_build own_text own_text

# toggle PID: once its endpoint is up, switch tracers five rounds (each
# switch made is a line of switches.txt), then let the program end.
toggle() {
	for i in $(seq 50); do t_endpoint "$1" && break; sleep 0.1; done
	for i in 1 2 3 4 5; do
		for tracer in function_graph nop function nop; do
			"$FNTRACE" ctl "$1" current_tracer $tracer 2>/dev/null || break
			echo $tracer >>switches.txt
		done
	done
	touch stop
}

./own_text 200 / >want.txt 2>want.err
t_eq "own text untraced: exit 0" 0 "$?"
"$FNTRACE" run -- ./own_text 200 stop >out.txt 2>run.err &
pid=$!
toggle $pid
wait $pid
t_eq "own text switched live: exit 0" 0 "$?"
t_ok "own text switched live: tracers were switched meanwhile" \
	test "$(cat switches.txt 2>/dev/null | grep -c function)" -eq 10
t_same "own text switched live: the same protections afterwards" want.txt out.txt
t_eq "own text switched live: the runtime says nothing" "" "$(grep -v 'runs as pid' run.err)"

# A limit the program meets only barely: its address space (RLIMIT_AS)
# just holds what its work maps untraced, a thread's 8 MB stack among it.
# Untraced, it has the libraries the runtime brings along loaded too:
# none in a plain build (the program has libc already), the UBSan runtime
# (and its C++ library) in a sanitizer build.  Those are the sanitizer's
# memory, mapped before the runtime runs, not the runtime's own.
r_build as_limit as_limit
ldd "$LIBFNTRACE" | awk '$2 == "=>" { print $3 }' | sort >runtime.libs
ldd ./as_limit | awk '$2 == "=>" { print $3 }' | sort >program.libs
brought=$(comm -23 runtime.libs program.libs | tr '\n' ' ')
untraced() { LD_PRELOAD=$brought "$@"; }
peak=$(untraced ./as_limit measure | tail -n 1)
limit=$((peak + 256))
untraced ./as_limit $limit >want.txt
t_eq "address-space limit untraced: the thread is made" "thread made" "$(cat want.txt)"
t_ok "... and a limit 2 MB lower is met" sh -c "! LD_PRELOAD='$brought' ./as_limit $((limit - 2048))"

"$FNTRACE" record -o as.data -- ./as_limit $limit >out.txt 2>err.txt
t_eq "limit set by the program, under record: exit 0" 0 "$?"
t_same "... the thread is made" want.txt out.txt
t_ok "... one line says the runtime's memory was added" \
	grep -q "RLIMIT_AS: the program's limit raised by [0-9]* MB, the runtime's own memory" err.txt
t_eq "... and only one" 1 "$(grep -c RLIMIT_AS err.txt)"

# A limit set before exec, as `ulimit -v` sets it: as_limit sets it (by
# the system call, past the runtime) and execs itself under it.
"$FNTRACE" run -- ./as_limit soft $limit >out.txt 2>err.txt
t_eq "soft limit set before exec (as ulimit -S -v does), under run: exit 0" 0 "$?"
t_same "... the thread is made" want.txt out.txt
t_ok "... one line says the limit was raised" grep -q "RLIMIT_AS: the program's limit raised by" err.txt

"$FNTRACE" run -- ./as_limit hard $limit >out.txt 2>err.txt
t_ok "hard limit with no room for the runtime: one line says how much counts against it" \
	grep -q "RLIMIT_AS: the hard limit leaves no room for the runtime's own memory: [0-9]* MB of it count against the program's limit" err.txt
