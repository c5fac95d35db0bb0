# A program that changes its user (setuid to nobody) or its root (chroot,
# pivot_root) and then forks or execs: under record, the new processes'
# functions are still named (the recorder makes their funcs files for
# them), and report, info and export read the recording.  Under run, ctl
# still reaches the endpoint it bound before the change, as root and as
# the user that started the program; another user is still refused, the
# program's new user too; record -p records it, for its owner and root;
# attached after the change, ctl and record -p reach it (each after
# setuid, chroot and pivot_root); and call sites
# left unread at load are still read when first wanted, after the change
# of root.

. "$top/tests/robust_lib.sh"

r_build privs privs
# Built with its sites nops already, its call sites are read only when
# first wanted: after the change of root, under run.
r_build privs privs_nop gcc-nop
# The programs run as nobody must reach ./privs: the run's directory is
# private to root, and the case's is some levels below it.
d=$PWD
while :; do
	chmod o+x "$d"
	case $d in "$RUN_TMP"|"$RUN_TMP"/) break ;; "$RUN_TMP"/*) d=${d%/*} ;; *) break ;; esac
done
mkdir -p newroot/old

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

# A program that put a socket of its own where the recorder's file
# service was: the runtime sends it nothing, and the child goes without
# names rather than anywhere else.
r_record squat ./privs squat+setuid fork
t_eq "squatted service fd: exit status" 0 "$(cat squat.rc)"
t_eq "squatted service fd: nothing reached the program's socket" "stray packets 0" \
	"$(grep '^stray' squat.out)"

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

# A recorder whose umask keeps the data directory its own: the exec'd
# program may not even read its argument specs there.
rm -rf args.data
(umask 077; "$FNTRACE" record -A 'leaf@arg1' -o args.data -- \
	./privs setuid exec "$PWD/privs" none fork >args.out 2>args.err)
t_eq "exec, private directory: exit status" 0 "$?"
t_eq "exec, private directory: the directory is the recorder's alone" 700 \
	"$(stat -c %a args.data)"
pid=$(sed -n 's/^child //p' args.out)
r_graph args.data "$pid" >args.child
printf 'child_work() {\n  leaf(1);\n  leaf(2);\n} /* child_work */\nspin();\n' >want.txt
t_same "exec, private directory: the exec'd program's child, with its arguments" \
	want.txt args.child
t_eq "exec, private directory: the program says nothing" "" "$(grep -v '^fntrace: recorded' args.err)"

# Under run, started by a user that is not root (1000, with the
# capabilities to change its user or root), so that its owner, root,
# the new user and another user are four.
as_owner="setpriv --reuid=1000 --regid=1000 --clear-groups"
as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
as_other="setpriv --reuid=1001 --regid=1001 --clear-groups"

# started PROG CHANGE CAPS ARGS...: ./PROG CHANGE ARGS... under fntrace
# run as the owner with CAPS; $pid once the change is made.
started() {
	local prog=$1 change=$2 caps=$3 i; shift 3
	rm -f run.out
	$as_owner --inh-caps="$caps" --ambient-caps="$caps" \
		"$FNTRACE" run -- "./$prog" "$change" "$@" >run.out 2>run.err &
	runner=$!
	for i in $(seq 400); do grep -q changed run.out 2>/dev/null && break; sleep 0.05; done
	pid=$(sed -n 's/.* runs as pid \([0-9]*\)$/\1/p' run.err)
}

# controlled NAME: ctl works on $pid as root and as its owner, and refuses
# nobody and another user.
controlled() {
	local name=$1
	t_eq "$name: root reads current_tracer" nop "$("$FNTRACE" ctl "$pid" current_tracer 2>&1)"
	t_ok "$name: the owner switches the tracer on" \
		$as_owner "$FNTRACE" ctl "$pid" current_tracer function_graph
	# The program calls mid() every millisecond, when it gets to run.
	for i in $(seq 200); do
		$as_owner "$FNTRACE" ctl "$pid" trace >"$name.trace" 2>&1
		grep -q 'mid() {' "$name.trace" && break
		sleep 0.1
	done
	t_ok "$name: the owner reads the trace, named" grep -q 'mid() {' "$name.trace"
	"$FNTRACE" ctl "$pid" trace >"$name.root.trace" 2>&1
	t_ok "$name: root reads it too" grep -q 'leaf();' "$name.root.trace"
	$as_other "$FNTRACE" ctl "$pid" current_tracer >/dev/null 2>"$name.other"
	t_eq "$name: another user is refused" 1 "$?"
	t_ok "$name: ... and told so" grep -q "not allowed to control process $pid" "$name.other"
	$as_nobody "$FNTRACE" ctl "$pid" current_tracer >/dev/null 2>"$name.nobody"
	t_eq "$name: nobody is refused" 1 "$?"
	"$FNTRACE" ctl "$pid" current_tracer nop
}

# recorded_p NAME PROG CHANGE CAPS: record -p of ./PROG CHANGE under run,
# after the change, by its owner (into a directory of its own: this one
# is root's) and by root: mid() recorded, named.
recorded_p() {
	local name=$1 who out as owner_dir
	started "$2" "$3" "$4" spin 60
	owner_dir=$(mktemp -d) && chown 1000:1000 "$owner_dir"
	for who in owner root; do
		out=$PWD/rp-$name-$who.data as=
		[ $who = owner ] && out=$owner_dir/rp.data as=$as_owner
		$as "$FNTRACE" record -p "$pid" -d 1 -o "$out" >"rp-$who.out" 2>"rp-$who.err"
		t_eq "record -p after $name, as $who: status" 0 "$?"
		"$FNTRACE" report -i "$out" >"rp-$who.txt" 2>&1
		t_ok "record -p after $name, as $who: mid() recorded, named" grep -q 'mid() {' "rp-$who.txt"
	done
	rm -rf "$owner_dir"
	kill "$pid"; wait "$runner" 2>/dev/null || :
}

# attached NAME CHANGE CAPS: ./privs CHANGE started untraced by the owner,
# attached by root after the change: ctl and record -p reach it.
attached() {
	local name=$1 i
	$as_owner --inh-caps="$3" --ambient-caps="$3" ./privs "$2" spin 60 >plain.out 2>plain.err &
	runner=$!
	for i in $(seq 400); do grep -q changed plain.out 2>/dev/null && break; sleep 0.05; done
	t_ok "attach after $name: attached" "$FNTRACE" attach "$runner"
	t_eq "attach after $name: ctl reaches it" nop "$("$FNTRACE" ctl "$runner" current_tracer 2>&1)"
	rm -rf at.data
	"$FNTRACE" record -p "$runner" -d 1 -o at.data >at.out 2>at.err
	t_eq "attach after $name, record -p: status" 0 "$?"
	t_ok "attach after $name, record -p: mid() recorded, named" \
		sh -c "'$FNTRACE' report -i at.data 2>&1 | grep -q 'mid() {'"
	kill "$runner"; wait "$runner" 2>/dev/null || :
}

if $as_owner --inh-caps=+setuid --ambient-caps=+setuid true 2>/dev/null; then
	started privs setuid +setuid,+setgid spin 60
	t_eq "run, setuid: the program is nobody now" 65534 \
		"$(awk '/^Uid:/ { print $3 }' "/proc/$pid/status")"
	controlled "run, setuid"
	kill "$pid"; wait "$runner" 2>/dev/null || :

	recorded_p setuid privs setuid +setuid,+setgid
	attached setuid setuid +setuid,+setgid

	started privs_nop chroot:"$PWD/newroot" +sys_chroot spin 60
	t_ok "run, chroot: the program's root is another" \
		test "$(readlink "/proc/$pid/root")" = "$PWD/newroot"
	controlled "run, chroot"
	kill "$pid"; wait "$runner" 2>/dev/null || :
	recorded_p chroot privs_nop chroot:"$PWD/newroot" +sys_chroot
	attached chroot chroot:"$PWD/newroot" +sys_chroot

	if unshare --mount true 2>/dev/null; then
		started privs_nop pivot:"$PWD/newroot" +sys_admin spin 60
		t_ok "run, pivot_root: the program is in a mount namespace of its own" \
			test "$(readlink "/proc/$pid/ns/mnt")" != "$(readlink /proc/self/ns/mnt)"
		controlled "run, pivot_root"
		kill "$pid"; wait "$runner" 2>/dev/null || :
		recorded_p pivot_root privs_nop pivot:"$PWD/newroot" +sys_admin
		attached pivot_root pivot:"$PWD/newroot" +sys_admin
	else
		t_skip "run, pivot_root" "no mount namespace may be made here"
	fi

	# A child forked after the change cannot bind in its owner's
	# directory: it does in its new user's, which that user may enter,
	# but the endpoint is still only the owner's and root's.
	started privs setuid +setuid,+setgid fork 60
	for i in $(seq 400); do grep -q '^child ' run.out && break; sleep 0.05; done
	child=$(sed -n 's/^child //p' run.out)
	for i in $(seq 400); do [ -S "/tmp/fntrace-65534/$child" ] && break; sleep 0.05; done
	t_eq "run, fork after setuid: root reaches the child" nop \
		"$("$FNTRACE" ctl "$child" current_tracer 2>&1)"
	$as_nobody "$FNTRACE" ctl "$child" current_tracer >/dev/null 2>fork.nobody
	t_eq "run, fork after setuid: the new user, who may reach it, is refused" 1 "$?"
	t_ok "run, fork after setuid: ... by the process, once connected" \
		grep -Eq "process $child: (Connection reset by peer|Broken pipe|closed the connection)" \
		fork.nobody
	kill "$child" "$pid"; wait "$runner" 2>/dev/null || :
else
	t_fail "run: privileges" "setpriv cannot start a program as 1000 with capabilities"
fi
