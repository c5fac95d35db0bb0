# Robustness (issue 5): the checks that fail today for want of a runtime
# feature.  tests/run.sh runs this file only with RUN_PENDING=1; a check
# that passes moves to the robust_*.sh file of its subject
# (robust_process.sh for these):
#
#  - exec of a traced program: the calls made before the exec keep their
#    names (the program exec'd must not take the first one's place in
#    the trace), and the frames the exec ended are closed, so that the
#    pid's graph nests;
#  - exec of a program without call sites: the report says it was not
#    traced.

. "$top/tests/robust_lib.sh"

r_build robust_exec exec
r_build robust_exec_target target
r_record ex ./exec ./target
pid=$(sed -n 's/^pid //p' ex.out)
t_ok "pending: exec: the calls before the exec keep their names" \
	sh -c "grep -q 'exec-$pid .*|  *do_exec() {' ex.txt && grep -q 'exec-$pid .*|  *leaf();' ex.txt"
t_ok "pending: exec: the exec'd program's calls are not named as the first's" \
	sh -c "! grep -q 'exec-$pid .*target_' ex.txt"
t_ok "pending: exec: the frames the exec ended are closed (the pid nests)" r_nests ex.data "$pid"

r_record ee ./exec /bin/echo hello
pid=$(sed -n 's/^pid //p' ee.out)
# The path as exec'd, or as the kernel has it (/bin is /usr/bin on Debian).
t_ok "pending: exec /bin/echo: said to be untraced" \
	grep -Eq "^# pid $pid: (/bin/echo|$(readlink -f /bin/echo)) has no call sites: not traced$" ee.txt
