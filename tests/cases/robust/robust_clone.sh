# Threads and processes made without pthread or fork.  Threads made with
# glibc's clone(CLONE_VM|...|CLONE_THREAD) and no CLONE_SETTLS run on
# their creator's thread-local storage: while they may, neither they nor
# their creator is traced, which is said in one line and counted lost,
# and the creator is traced again once they have ended.  A clone() child
# without CLONE_VM is a process with its own trace, as a fork's; one with
# CLONE_VM|CLONE_VFORK is traced as vfork's.  vfork()'s child has its own
# calls under its own pid, and its parent's graph stays its own.  Every
# run gives the untraced output and exit status, under record (both
# tracers) and under run with the tracer switched live.

. "$top/tests/robust_lib.sh"

r_build robust_clone clone
./clone >want.out
echo $? >want.rc
SHARED_LINE='fntrace: clone() without CLONE_SETTLS: a thread and its children share one thread pointer; their calls are not traced meanwhile (counted lost)'

# The threads' 100 004 calls and main's, less what main made traced after
# they had ended: every one traced or counted.
for tracer in function_graph function; do
	bad=""
	for i in $(seq 8); do
		rm -rf c.data
		"$FNTRACE" record -t $tracer -o c.data -- ./clone >c.out 2>c.err
		echo $? >c.rc
		cmp -s want.out c.out || bad="$bad output($i)"
		cmp -s want.rc c.rc || bad="$bad status($i)"
		[ "$(grep -vc '^fntrace: recorded' c.err)" = 1 ] && grep -qxF "$SHARED_LINE" c.err ||
			bad="$bad said($i): $(grep -v '^fntrace: recorded' c.err | head -n 1)"
		lost=$(sed -n 's/.*, \([0-9]*\) lost -> .*/\1/p' c.err)
		[ "${lost:-0}" -gt 0 ] || bad="$bad nothing-counted($i)"
	done
	t_eq "clone threads, $tracer: output, status, one line, calls counted lost" "" "${bad# }"
done

rm -rf c.data
"$FNTRACE" record -o c.data -- ./clone >c.out 2>c.err
"$FNTRACE" report -i c.data >c.txt 2>/dev/null
t_ok "clone threads: the creator's stream says where it stopped" \
	grep -qF '/* fntrace: not traced while clone() children share this thread'"'"'s storage */' c.txt
t_ok "clone threads: the report counts the calls lost" grep -q 'LOST [0-9]* EVENTS' c.txt
t_eq "clone threads: nothing of the threads' is shown" "" "$(grep -E 'counter\(\)' c.txt)"
t_eq "clone threads: every thread nests" "" "$(r_all_nest c.txt)"
# The two children (a process, then CLONE_VM|CLONE_VFORK) are threads of
# their own, with their own pids.
grep 'child() {' c.txt >children.txt
tids=$(r_tids children.txt)
t_eq "clone children: two, each traced" 2 "$(echo "$tids" | wc -w)"
printf 'child() {\n  count();\n} /* child */\n' >want.txt
bad=""
for tid in $tids; do
	r_graph c.data "$tid" >got.txt
	cmp -s want.txt got.txt || bad="$bad $tid"
done
t_eq "clone children: each made its own call" "" "${bad# }"
t_eq "clone children: each its own process" 3 "$(ls c.data | grep -c '^funcs-')"

# fntrace run, the tracer switched as fast as fntrace ctl can, over a
# second or so of threads (tens of seconds under qemu-user).
rounds=300
[ -n "${ARCH_EMULATED:-}" ] && rounds=30
# A clone() child process made while the control thread held the
# descriptor gate (it takes it for each ctl connection) once waited for
# it for ever: fds.c's fork handler did not run for clone()'s processes.
# A traced run that outlives five minutes is killed and said to hang.
timeout 120 ./clone $rounds >live.want
bad=""
for i in 1 2 3; do
	"$FNTRACE" run -- ./clone $rounds >live.out 2>live.err &
	pid=$!
	end=$(($(date +%s) + 300))
	while kill -0 $pid 2>/dev/null; do
		if [ "$(date +%s)" -gt $end ]; then
			pkill -9 -P $pid; kill -9 $pid; bad="$bad hung($i)"
			break
		fi
		for tracer in function_graph nop function nop; do
			"$FNTRACE" ctl $pid current_tracer $tracer 2>/dev/null || break
		done
	done
	wait $pid
	echo $? >live.rc
	cmp -s live.want live.out || bad="$bad output($i)"
	[ "$(cat live.rc)" = 0 ] || bad="$bad status($i)"
	grep -v "runs as pid" live.err | grep -vxF "$SHARED_LINE" | grep -q . &&
		bad="$bad said($i): $(grep -v 'runs as pid' live.err | grep -vxF "$SHARED_LINE" | head -n 1)"
done
t_eq "clone threads, switched live: output and status as untraced" "" "${bad# }"

# vfork(): the child's two calls, then an exec (of the program itself,
# which ends at once); the parent's after.
r_build robust_vfork vf
./vf >want.out
r_record vf ./vf
t_eq "vfork: exit status" 0 "$(cat vf.rc)"
t_same "vfork: output as untraced" want.out vf.out
t_eq "vfork: nothing said" "" "$(grep -v '^fntrace: recorded' vf.err)"
grep 'spawn() {' vf.txt >main.txt
r_graph vf.data "$(r_tids main.txt)" >got.txt
cat >want.txt <<'W'
main() {
  spawn() {
    after();
  } /* spawn */
  spawn() {
    after();
  } /* spawn */
} /* main */
W
t_same "vfork: the parent's graph is its own" want.txt got.txt
grep 'child_work() {' vf.txt >children.txt
tids=$(r_tids children.txt)
t_eq "vfork: both children traced, apart" 2 "$(echo "$tids" | wc -w)"
printf 'child_work() {\n  in_child();\n  in_child();\n} /* child_work */\n' >want.txt
bad=""
for tid in $tids; do
	r_graph vf.data "$tid" | head -n 4 >got.txt
	cmp -s want.txt got.txt || bad="$bad $tid"
	[ -e "vf.data/funcs-$tid" ] || bad="$bad no-table-$tid"
done
t_eq "vfork: each child's calls are its own, under its own pid" "" "${bad# }"
execd=0
for tid in $tids; do
	[ "$(r_graph vf.data "$tid" | sed -n 5p)" = "main();" ] && execd=$((execd + 1))
done
t_eq "vfork: the exec'd image traced after its child's calls" 1 "$execd"

# The clone system calls made through syscall(), glibc's wrappers
# bypassed: each child is a process of its own (fork's handlers run
# around it), and neither its calls nor its parent's are lost.  One with
# CLONE_VM cannot be followed: tracing goes off first, said in one line.
# (qemu-user 7.2 has no clone3: that child is not made, traced or not.)
r_build robust_rawclone raw
./raw >want.out
made=$(grep -c ' child 244$' want.out)
[ -n "${ARCH_EMULATED:-}" ] || t_eq "raw clones: three children made untraced" 3 "$made"
r_record raw ./raw
t_eq "raw clones: exit status" 0 "$(cat raw.rc)"
t_same "raw clones: output as untraced" want.out raw.out
t_eq "raw clones: nothing said" "" "$(grep -v '^fntrace: recorded' raw.err)"
t_ok "raw clones: nothing lost" grep -q ', 0 lost -> ' raw.err
t_eq "raw clones: every count() traced" $((made * 1500)) "$(grep -c 'count();' raw.txt)"
t_eq "raw clones: each child its own process" $((made + 1)) "$(ls raw.data | grep -c '^funcs-')"
grep 'work() {' raw.txt >work.txt
t_eq "raw clones: work() in the parent's thread and each child's" $((made + 1)) \
	"$(r_tids work.txt | wc -w)"
./raw vm >want.out
r_record rawvm ./raw vm
t_same "raw CLONE_VM: output as untraced" want.out rawvm.out
t_eq "raw CLONE_VM: exit status" 0 "$(cat rawvm.rc)"
t_ok "raw CLONE_VM: tracing switched off, saying why" grep -q \
	"^fntrace: tracing switched off: a clone with CLONE_VM through syscall()" rawvm.err
