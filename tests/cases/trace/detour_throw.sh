# Unwinding through a detour whose moved instructions end with a call
# (docs/design.md "Detours in the running process"): the callee returns
# into the stub, and an unwinder that meets that return address must see
# the function's frame there.  detour_throw.cpp, built with plain g++
# -O2: its callees throw (caught in main, once through a destructor in
# the detoured frame), call backtrace(), and block in read() while the
# thread is cancelled.  Traced with -F '*', each must behave as untraced.
# Under function_graph the cancelled thread also passes return_to_handler
# (cancel_one's return taken) into canceled, a 16-byte frame called by
# start_thread: its cleanup handler runs only if the frame unwind_fde.c
# describes there shows glibc a CFA below start_thread's stack pointer
# (src/core/fde_write.c).

[ -n "$T_ARCH" ] && return 0
export FNTRACE_CACHE=$PWD/cache
t_build g++-plain -O2 throw "$top/tests/progs/detour_throw.cpp"

# The shape the case is about: each function's replaced bytes, as the
# planner chose them, end with the call (objdump's instruction that ends
# at patch + len is a call).
"$FNTRACE" list --detours -a ./throw >detours.txt
objdump -d --no-show-raw-insn ./throw >throw.dis
for f in catch_one cleanup_one trace_one cancel_one; do
	read -r patch len _ <<EOF2
$(grep " detour .*${#f}${f}i\$" detours.txt)
EOF2
	last=$(awk -v end=$(printf '%x' $((patch + len))) -v lo=$(printf '%x' $((patch))) '
		$1 ~ /:$/ { a = substr($1, 1, length($1) - 1)
			if (length(a) == length(lo) && a >= lo && a < end) insn = $2
			if (a == end) { print insn; exit } }' throw.dis)
	t_eq "$f: the bytes its jump replaces end with a call" call "$last"
done

./throw thrown 50 >want.thrown
./throw trace >want.trace
./throw cancel >want.cancel
t_eq "untraced: thrown, caught, destroyed" "sum 3675 caught 50 destroyed 50" "$(cat want.thrown)"
t_eq "untraced: the thread cancelled, its cleanups run" "canceled 1 destroyed 10 cleaned 1" \
	"$(cat want.cancel)"
addr2line -f -e ./throw $(sed -n 's/^bt //p' want.trace) | sed -n 'p;n' >want.names
t_ok "untraced: backtrace() sees trace_one and main" grep -qx '_Z9trace_onei' want.names

for tracer in function_graph function; do
	"$FNTRACE" record -t $tracer -F '*' -o $tracer.data -- ./throw thrown 50 >$tracer.thrown 2>$tracer.err
	t_eq "$tracer: exit status" 0 "$?"
	t_same "$tracer: thrown through the stubs, caught, destroyed" want.thrown $tracer.thrown
	"$FNTRACE" report -i $tracer.data --stat --csv >$tracer.csv
	t_eq "$tracer: the calls counted" "throw_odd,100 catch_one,50 cleanup_one,50" \
		"$(for f in throw_odd catch_one cleanup_one; do grep "^$f," $tracer.csv | cut -d, -f1,2; done | tr '\n' ' ' | sed 's/ $//')"

	"$FNTRACE" record -t $tracer -F '*' -o $tracer.bt.data -- ./throw trace >$tracer.trace 2>>$tracer.err
	t_eq "$tracer: backtrace(): exit status" 0 "$?"
	addr2line -f -e ./throw $(sed -n 's/^bt //p' $tracer.trace) | sed -n 'p;n' >$tracer.names
	t_same "$tracer: backtrace() names the functions untraced does" want.names $tracer.names

	"$FNTRACE" record -t $tracer -F '*' -o $tracer.cancel.data -- ./throw cancel >$tracer.cancel 2>>$tracer.err
	t_eq "$tracer: cancel: exit status" 0 "$?"
	"$FNTRACE" report -i $tracer.cancel.data --stat --csv >$tracer.cancel.csv
	t_eq "$tracer: cancel: the blocked calls counted" "cancel_one,1 blocks,1" \
		"$(for f in cancel_one blocks; do grep "^$f," $tracer.cancel.csv | cut -d, -f1,2; done | tr '\n' ' ' | sed 's/ $//')"
	t_same "$tracer: the cancelled thread unwound through the stub, every cleanup run" \
		want.cancel $tracer.cancel
done
