# Fork and exec in the middle of a batch.  A thread switches the
# tracer as fast as it can while main forks children that each load a
# library and run a traced computation (each must exit 0: the child gets
# whole text and a runtime lock it can take), or execs a traced program (the new image
# runs as untraced), under fntrace run and fntrace record.
# 300 children (BATCH_FORKS), 60 under qemu-user: a fork there costs what
# dozens do natively, and as the switcher flips without a pause, nearly
# every fork lands in a batch either way; make stress forks 300 everywhere.

. "$top/tests/robust_lib.sh"

r_build torture_fork tfork
r_build robust_exec_target target
forks=${BATCH_FORKS:-300}
[ -z "${BATCH_FORKS:-}" ] && [ -n "${ARCH_EMULATED:-}" ] && forks=60

# batch NAME EXPECTED CMD...: output and status as expected, nothing said.
# The time limit only catches a hang: mips under qemu on a loaded machine
# has taken 130 s for the four batches.
batch() {
	local name=$1 want=$2; shift 2
	timeout 600 "$@" >"$name.out" 2>"$name.err"
	echo "status $?" >>"$name.out"
	t_eq "$name: output and status" "$want" "$(sed 's/pid [0-9]*/pid N/' "$name.out")"
	t_eq "$name: the runtime says nothing" "" \
		"$(grep -v 'runs as pid\|recorded .* calls' "$name.err" | head -n 3)"
}

batch "fork under run" "forks $forks wrong 0
status 0" "$FNTRACE" run -- ./tfork fork $forks
batch "fork under record" "forks $forks wrong 0
status 0" "$FNTRACE" record -o fork.data -- ./tfork fork $forks
batch "exec under run" "target pid N work 5
status 5" "$FNTRACE" run -- ./tfork exec ./target
batch "exec under record" "target pid N work 5
status 5" "$FNTRACE" record -o exec.data -- ./tfork exec ./target
"$FNTRACE" report -i exec.data >exec.txt 2>&1
t_ok "exec under record: the new image's calls are in the report" grep -q "target_work" exec.txt
