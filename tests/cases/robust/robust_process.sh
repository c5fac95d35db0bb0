# Robustness: new processes.  fork: the child's calls appear
# under the child's pid, the parent's under its own, each nested, and the
# exit status passes.  vfork + exec and posix_spawn of /bin/true and
# /bin/false: the statuses are right and the parent's graph is intact.
# exec of another traced program: its functions appear under the same pid;
# exec of a program without call sites works and the report says it was
# not traced; the calls made before an exec keep their names and the
# frames the exec ends are closed.

. "$top/tests/robust_lib.sh"

# fork
r_build robust_fork fork
r_record fk ./fork
t_eq "fork: exit status" 0 "$(cat fk.rc)"
child=$(sed -n 's/^child \([0-9]*\) status .*/\1/p' fk.out)
parent=$(sed -n 's/^parent \([0-9]*\) .*/\1/p' fk.out)
t_eq "fork: the child's status" "child $child status 3" "$(head -n 1 fk.out)"
t_eq "fork: two processes in the report" "$(printf '%s\n' "$parent" "$child" | sort -n | tr '\n' ' ')" \
	"$(r_tids fk.txt | tr '\n' ' ')"
r_graph fk.data "$child" >child.txt
printf 'child_work() {\n  leaf();\n  leaf();\n} /* child_work */\n' >want.txt
t_same "fork: the child's calls under the child's pid" want.txt child.txt
r_graph fk.data "$parent" >parent.txt
printf 'main() {\n  split();\n  parent_work() {\n    leaf();\n  } /* parent_work */\n} /* main */\n' >want.txt
t_same "fork: the parent's calls under the parent's pid" want.txt parent.txt
t_eq "fork: both nest" "" "$(r_all_nest fk.txt)"

# A child its parent does not wait for: recorded until it ends too.  It
# works five seconds after its parent ends: the recorder says it waits
# once the wait has lasted two (src/record/recorder.c), and a recorder
# slowed by a sanitizer build and an emulator on a loaded machine must
# see the parent go while the child still runs (300 ms was not, once).
r_record orphan ./fork orphan 5000
t_eq "fork, orphan: the program's exit status" 0 "$(cat orphan.rc)"
t_ok "fork, orphan: the recorder says it waits" grep -q 'recording the processes it left running' orphan.err
child=$(sed -n 's/^child \([0-9]*\)$/\1/p' orphan.out)
r_graph orphan.data "$child" >child.txt
printf 'child_work() {\n  leaf();\n  leaf();\n} /* child_work */\n' >want.txt
t_same "fork, orphan: the calls it made after its parent ended" want.txt child.txt
"$FNTRACE" record -o long.data -- ./fork orphan 60000 >long.out 2>long.err &
rec=$!
for i in $(seq 100); do grep -q 'left running' long.err && break; sleep 0.1; done
kill -INT $rec
wait $rec
t_eq "fork, orphan: Ctrl-C ends the wait" 0 "$?"
t_ok "fork, orphan: ... and the data can be read" "$FNTRACE" report -i long.data
kill "$(sed -n 's/^child //p' long.out)"

# vfork + exec, posix_spawn
r_build robust_spawn spawn
r_record sp ./spawn
t_eq "vfork/spawn: exit status" 0 "$(cat sp.rc)"
t_eq "vfork/spawn: the children's statuses" "vfork 0 1 spawn 0 1" "$(cat sp.out)"
t_graph_calls sp.txt >got.txt
{
	echo 'main() {'
	for f in by_vfork by_vfork by_spawn by_spawn; do
		printf '  %s() {\n    leaf();\n  } /* %s */\n' $f $f
	done
	printf '  leaf();\n} /* main */\n'
} >want.txt
t_same "vfork/spawn: the parent's graph" want.txt got.txt

# exec of a traced program, built the same way
r_build robust_exec exec
r_build robust_exec_target target
r_record ex ./exec ./target
t_eq "exec: the exec'd program's status passed on" 5 "$(cat ex.rc)"
pid=$(sed -n 's/^pid //p' ex.out)
t_eq "exec: the exec'd program's output" "target pid $pid work 5" "$(sed -n 2p ex.out)"
t_ok "exec: the first program traced under its pid" grep -q "exec-$pid .*main() {" ex.txt
t_ok "exec: the exec'd program traced under the same pid" grep -q "target-$pid .*target_work() {" ex.txt
t_eq "exec: one process in the report" "$pid" "$(r_tids ex.txt | tr '\n' ' ' | sed 's/ $//')"
t_ok "exec: the calls before the exec keep their names" \
	sh -c "grep -q 'exec-$pid .*|  *do_exec() {' ex.txt && grep -q 'exec-$pid .*|  *leaf();' ex.txt"
t_ok "exec: the exec'd program's calls are not named as the first's" \
	sh -c "! grep -q 'exec-$pid .*target_' ex.txt"
t_ok "exec: the frames the exec ended are closed (the pid nests)" r_nests ex.data "$pid"

# exec of a program without call sites.  Under T_ARCH the host's
# /bin/echo cannot take that architecture's runtime: an echo built for it
# without call sites stands in.
echo_prog=/bin/echo
if [ -n "$T_ARCH" ]; then
	printf '#include <stdio.h>\nint main(int c, char **v) { return puts(v[1]) < 0; }\n' >echo.c
	t_build plain -O2 echo echo.c && echo_prog=$PWD/echo
fi
r_record ee ./exec "$echo_prog" hello
pid=$(sed -n 's/^pid //p' ee.out)
# The path as exec'd, or as the kernel has it (/bin is /usr/bin on Debian).
t_ok "exec /bin/echo: said to be untraced" \
	grep -Eq "^# pid $pid: ($echo_prog|$(readlink -f "$echo_prog")) has no call sites: not traced$" ee.txt
t_eq "exec /bin/echo: exit status" 0 "$(cat ee.rc)"
t_eq "exec /bin/echo: its output" hello "$(sed -n 2p ee.out)"
printf 'main() {\n  before_exec() {\n    do_exec() {\n      leaf();\n' >want.txt
t_graph_calls ee.txt | head -n 4 >got.txt
t_same "exec /bin/echo: the calls before the exec" want.txt got.txt
