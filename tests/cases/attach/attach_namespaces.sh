# fntrace attach into a process in a PID namespace (its endpoint and its
# events carry the pid it sees, 1), and into one in a container-like root
# of its own (a chroot in new mount and PID namespaces, with its /proc):
# attach, ctl, record -p, detach; the graph right, the process's output
# and status untouched, nothing of ours left in its root but the
# endpoint's directory.

t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
./spin 2 >want.txt

# traced NAME PID: attach, ask, record, detach.
traced() {
	local name=$1 pid=$2
	"$FNTRACE" attach $pid 2>err.txt
	t_eq "$name: attach succeeds" 0 "$?"
	t_eq "$name: ctl reaches its endpoint" nop "$("$FNTRACE" ctl $pid current_tracer 2>&1)"
	rm -rf "$name.data"
	"$FNTRACE" record -p $pid -d 1 -o "$name.data" 2>err.txt
	t_eq "$name: record -p succeeds" 0 "$?"
	"$FNTRACE" report -i "$name.data" >"$name.txt" 2>&1
	t_ok "$name: the graph of the running process" grep -q 'leaf();' "$name.txt"
	"$FNTRACE" detach $pid 2>err.txt
	t_eq "$name: detach succeeds" 0 "$?"
}

# ends NAME WAITER OUT: the process (under WAITER, unshare) ends as it
# would have.
ends() {
	wait $2
	t_eq "$1: the process ends normally" 0 "$?"
	t_same "$1: its output is untouched" want.txt "$3"
}

# wait_for NAME PARENT: the pid of PARENT's child called NAME (unshare's
# --fork), once it runs.  Not the newest NAME on the machine: a case
# running beside this one may have a spin of its own.
wait_for() {
	for i in $(seq 100); do
		pgrep -P "$2" -x "$1" && return
		sleep 0.05
	done
}

# Each held running (spin.c's HOLD) until traced is done with it.
touch hold
unshare --pid --fork ./spin 2 "$PWD/hold" >pidns.out &
waiter=$!
pid=$(wait_for spin $waiter)
t_eq "pid namespace: the process sees itself as 1" 1 \
	"$(awk '/^NSpid:/ { print $NF }' /proc/$pid/status)"
traced pidns $pid
rm hold
ends pidns $waiter pidns.out

# A root of its own: the program, its C library and loader, /tmp, /proc,
# and the libraries the runtime needs that the program does not (a
# sanitizer build's runtime needs libubsan): attach brings the runtime
# in, not what it links to.
mkdir -p root/tmp root/proc
chmod 1777 root/tmp
cp spin root/
for lib in $( (ldd spin; ldd "$LIBFNTRACE") | grep -o '/[^ :]*' | sort -u); do
	mkdir -p "root$(dirname "$lib")" && cp "$lib" "root$lib"
done
touch root/tmp/hold
unshare --pid --fork --mount --mount-proc="$PWD/root/proc" chroot root /spin 2 /tmp/hold >chroot.out &
waiter=$!
pid=$(wait_for spin $waiter)
t_ok "own root: the process has another root" test "$(readlink /proc/$pid/root)" != /
traced chroot $pid
rm root/tmp/hold
ends chroot $waiter chroot.out
t_eq "own root: only the endpoint's directory is left in its /tmp" "fntrace-$(id -u)" \
	"$(ls root/tmp)"

# Ended while recorded: record -p names the table by the process's own
# pid, 1, which /proc no longer tells once the process is gone.  The
# process is held until the recorder has set its tracer, then let end.
touch ended.hold
unshare --pid --fork ./spin 2 "$PWD/ended.hold" >ended.out &
waiter=$!
pid=$(wait_for spin $waiter)
"$FNTRACE" attach $pid 2>err.txt
"$FNTRACE" record -p $pid -d 30 -o ended.data 2>err.txt &
recorder=$!
for i in $(seq 100); do
	[ "$("$FNTRACE" ctl $pid current_tracer 2>/dev/null)" = function_graph ] && break
	sleep 0.1
done
rm ended.hold
wait $recorder
t_eq "ended while recorded: record -p succeeds" 0 "$?"
t_eq "ended while recorded: its table named by its own pid" funcs-1 \
	"$(cd ended.data && echo funcs-*)"
"$FNTRACE" report -i ended.data >ended.txt 2>&1
t_ok "ended while recorded: the graph" grep -q 'leaf();' ended.txt
ends "ended while recorded" $waiter ended.out
