# A program that changes its user (setuid to nobody) or its root (chroot,
# pivot_root) and then forks or execs: under record, the new processes'
# functions are still named (the recorder makes their funcs files for
# them), and report, info and export read the recording.

. "$top/tests/robust_lib.sh"

r_build privs privs
# The programs run as nobody must reach ./privs: the test's own
# directory is private to root.
chmod o+x "$TMP"
mkdir -p newroot

# privs_recorded NAME: the recording of ./privs CHANGE fork under NAME:
# the child's calls are named under the child's pid, and every reader
# takes it.
privs_recorded() {
	local name=$1 child
	t_eq "$name: exit status" 0 "$(cat "$name.rc")"
	t_eq "$name: the child ended well" "status 3" "$(tail -n 1 "$name.out")"
	child=$(sed -n 's/^child //p' "$name.out")
	r_graph "$name.data" "$child" >"$name.child"
	printf 'child_work() {\n  leaf();\n  leaf();\n} /* child_work */\nspin();\n' >want.txt
	t_same "$name: the child's calls, named" want.txt "$name.child"
	t_eq "$name: report says nothing on stderr" "" "$(cat "$name.report.err")"
	t_ok "$name: info reads it" "$FNTRACE" info -i "$name.data"
	t_ok "$name: export reads it" "$FNTRACE" export -i "$name.data" --format chrome -o "$name.json"
	t_ok "$name: ... with the child's calls" grep -q '"child_work"' "$name.json"
	t_eq "$name: the program's stderr has no side file lines" "" \
		"$(grep 'side file' "$name.err")"
}

r_record setuid ./privs setuid fork
privs_recorded setuid
r_record chroot ./privs chroot:"$PWD/newroot" fork
privs_recorded chroot
if unshare --mount true 2>/dev/null; then
	r_record pivot ./privs pivot:"$PWD/newroot" fork
	privs_recorded pivot
else
	t_skip "pivot_root" "no mount namespace may be made here"
fi

# exec after the change: the new program's runtime cannot make its table
# either, nor can its child's.
r_record exec ./privs setuid exec "$PWD/privs" none fork
pid=$(sed -n 's/^child //p' exec.out)
t_eq "exec: exit status" 0 "$(cat exec.rc)"
t_eq "exec: both programs ran" 2 "$(grep -c '^changed$' exec.out)"
t_ok "exec: the exec'd program's table, made by the recorder" \
	sh -c "ls exec.data | grep -q '^funcs-[0-9]*\.1$'"
r_graph exec.data "$pid" >exec.child
printf 'child_work() {\n  leaf();\n  leaf();\n} /* child_work */\nspin();\n' >want.txt
t_same "exec: the exec'd program's child, named" want.txt exec.child
t_eq "exec: report says nothing on stderr" "" "$(cat exec.report.err)"
t_eq "exec: no side file lines on the program's stderr" "" "$(grep 'side file' exec.err)"
