# fntrace attach refuses, in one line that says why, a process it must not
# or cannot enter: another user's (unless root), one a debugger holds, one
# that is statically linked; and each process runs on untouched: its
# output and exit status as if nobody had asked.

t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
gcc -static -O2 -I"$top/tests/progs" -o spin_static "$top/tests/progs/spin.c"
./spin 1 >want.txt

# refused NAME PATTERN PID [RUNNER...]: attach, run through RUNNER, exits
# 1 with one line that matches PATTERN.
refused() {
	local name=$1 pattern=$2 pid=$3
	shift 3
	"$@" "$FNTRACE" attach "$pid" 2>err.txt
	t_eq "attach refuses $name" 1 "$?"
	t_eq "attach refuses $name: in one line" 1 "$(wc -l <err.txt)"
	t_ok "attach refuses $name: saying why" grep -q "$pattern" err.txt
}

# runs_on NAME PID OUT: the process ended normally, its output untouched.
runs_on() {
	wait "$2"
	t_eq "$1: the process ends normally" 0 "$?"
	t_same "$1: its output is untouched" want.txt "$3"
}

# Another user's process: fntrace run as nobody, from a copy it may run.
bin=$(mktemp -d /tmp/fntrace-nobody.XXXXXX)
chmod 755 "$bin" && cp "$FNTRACE" "$bin/fntrace"
./spin 1 >other.txt &
pid=$!
FNTRACE="$bin/fntrace" refused "another user's process" \
	"belongs to user root: only root may attach" $pid setpriv --reuid=65534 --regid=65534 --clear-groups
runs_on "another user's process" $pid other.txt
rm -rf "$bin"

# A process strace holds: ptrace allows one tracer.
./spin 1 >traced.txt &
pid=$!
strace -p $pid -o /dev/null 2>/dev/null &
tracer=$!
for i in $(seq 100); do
	[ "$(awk '/^TracerPid:/ { print $2 }' /proc/$pid/status)" = $tracer ] && break
	sleep 0.05
done
refused "a process under a debugger" "being traced by process $tracer (strace)" $pid
kill $tracer
wait $tracer 2>/dev/null
runs_on "a process under a debugger" $pid traced.txt

# A statically linked program has no loader to dlopen the runtime with.
./spin_static 1 >static.txt &
pid=$!
t_running $pid spin_static
refused "a statically linked process" "is statically linked" $pid
runs_on "a statically linked process" $pid static.txt

# A runtime whose load faults in the process (here a stand-in whose
# constructor writes to address 8): attach says where it faulted, the
# module and its offset, not only that dlopen() failed.
cat >boom.c <<'SRC'
__attribute__((constructor)) static void boom(void) { *(volatile int *)8 = 1; }
SRC
cc -shared -fPIC -o libboom.so boom.c
./spin 1 >boom.txt &
pid=$!
t_running $pid spin
FNTRACE_LIB=$PWD/libboom.so "$FNTRACE" attach $pid 2>boom.err
t_eq "a load that faults: attach fails" 1 "$?"
t_ok "a load that faults: ... saying where" \
	grep -q "dlopen($PWD/libboom.so) took a fault in it: Segmentation fault at $PWD/libboom.so+0x[0-9a-f]* (address 0x8)" boom.err
wait $pid 2>/dev/null || :
