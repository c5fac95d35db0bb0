# Detours give back every register (x86_64, and aarch64 under qemu-user,
# where keep_all checks x1-x15, v2 and v31): a program built without
# call sites is built with gcc's -fipa-ra, and a caller that has seen its
# callee's body keeps values in the registers it knows the callee leaves
# alone, %r11 and %rcx among them, across the call.  detour_regs.c's
# keep_all does so around tiny_add, which clobbers %rax alone, and checks
# every one of them after each call.  (Debian's Lua built with plain -O2
# ran into a type error and a crash under -F '*' before the hooks kept
# them: lua_rawequal keeps %r9 and %rdi across index2value.)

export FNTRACE_CACHE=$PWD/cache
t_build plain -O2 regs "$top/tests/progs/detour_regs.c"
t_eq "untraced: every register kept" ok "$(./regs 1000)"

# record, each tracer: the callee alone, then its caller too (nested).
for tracer in function_graph function; do
	for filter in "-F tiny_add" "-F tiny_add -F keep_all"; do
		# shellcheck disable=SC2086
		out=$("$FNTRACE" record -t $tracer $filter -o rec.data -- ./regs 20000 2>rec.err)
		t_eq "record -t $tracer $filter: every register kept" ok "$out"
		"$FNTRACE" report -i rec.data --stat --csv >rec.csv
		t_eq "record -t $tracer $filter: every call traced" "tiny_add,20000" \
			"$(grep '^tiny_add,' rec.csv | cut -d, -f1,2)"
	done
done
"$FNTRACE" record -F tiny_add -A 'tiny_add@arg1' -R 'tiny_add@retval' -o args.data -- \
	./regs 2000 >args.out 2>args.err
t_eq "record -A, -R: every register kept" ok "$(cat args.out)"

# Live: switched on and off by ctl while the program calls.
touch hold
"$FNTRACE" run -- ./regs hold "$PWD/hold" >live.out 2>live.err &
pid=$!
for i in $(seq 100); do grep -q ready live.out 2>/dev/null && break; sleep 0.1; done
"$FNTRACE" ctl $pid set_ftrace_filter 'tiny_add keep_all'
for round in 1 2 3 4 5; do
	"$FNTRACE" ctl $pid current_tracer function_graph
	sleep 0.05
	"$FNTRACE" ctl $pid current_tracer function
	sleep 0.05
	"$FNTRACE" ctl $pid current_tracer nop
done
"$FNTRACE" ctl $pid current_tracer function_graph
sleep 0.1
"$FNTRACE" ctl $pid trace >live.trace
t_ok "live: the calls traced" grep -q 'tiny_add();' live.trace
rm hold
wait $pid
t_eq "live: exit status" 0 "$?"
t_eq "live: every register kept" "ready ok" "$(tr '\n' ' ' <live.out | sed 's/ $//')"
