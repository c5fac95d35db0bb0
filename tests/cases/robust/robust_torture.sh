# The torture case: a traced library dlopen()ed and dlclose()d in a
# loop by one thread, called by another, while a third switches the
# filter between that library and every function and the tracer between
# every tracer (tests/progs/torture_dl.c): 1 000 rounds in make check
# (300 under qemu-user), 10 000 in make stress (TORTURE_ROUNDS).  Under fntrace
# run (the process's own buffer) and under fntrace record (a recorder
# draining): no crash, no wrong result, nothing said by the runtime, and
# an address space that stops growing (each update's replaced tables freed).

. "$top/tests/robust_lib.sh"

t_examples "$PWD/ex"
r_build torture_dl torture
rounds=${TORTURE_ROUNDS:-1000}
# Under qemu-user a round costs tens of times what it does natively, and
# make check runs the case on four such architectures: 300 rounds there.
# Each round is the same race as any other (a filter and a tracer switch
# while the library is mapped and unmapped under them), so 300 still run
# it hundreds of times; the address space check then sees 225 rounds
# instead of 750, and make stress keeps its 10 000 rounds everywhere.
[ -z "${TORTURE_ROUNDS:-}" ] && [ -n "${ARCH_EMULATED:-}" ] && rounds=300

# torture NAME CMD...: the run's output, status and runtime messages.
torture() {
	local name=$1; shift
	"$@" >"$name.out" 2>"$name.err"
	echo "status $?" >>"$name.out"
	grep -v "runs as pid\|recorded .* calls" "$name.err" >"$name.said"
	t_eq "torture under $name: output and status" \
		"rounds $rounds wrong 0 calls made
address space steady
status 0" "$(cat "$name.out")"
	t_eq "torture under $name: the runtime says nothing" "" "$(head -n 3 "$name.said")"
}

torture run "$FNTRACE" run -- ./torture "$PWD/ex/libcalc.so" $rounds
torture record "$FNTRACE" record -o torture.data -- ./torture "$PWD/ex/libcalc.so" $rounds
"$FNTRACE" report -i torture.data >torture.txt 2>torture.report.err
t_eq "torture under record: the report reads" "0" "$?"
# A switch of tracer empties the buffer, but not a recorder's: nothing
# recorded is dropped, and every thread's graph nests.
t_eq "torture under record: every thread's graph nests" "" "$(r_all_nest torture.txt)"
