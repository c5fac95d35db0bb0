# fntrace attach / detach / record -p on a process fntrace did not start:
# the bytes of a traced function before, while attached, and after
# detach; recording it; and the errors.

t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
./spin 3 >want.txt

# The 24 bytes of mid() in the running process, as hex (its call site is
# among them; on i386 after the GOT pointer's set-up): the text mapping
# starts at the file offset its maps line gives, and a PIE's text has
# vaddr = file offset.
mid_bytes() {
	set -- $1 $(awk '/ r-xp .*\/spin$/ { split($1, a, "-"); print a[1], $3; exit }' /proc/$1/maps)
	addr=$(( 0x$2 - 0x$3 + 0x$(nm spin | awk '$3 == "mid" { print $1 }') ))
	dd if=/proc/$1/mem bs=1 skip=$addr count=24 2>/dev/null | od -An -tx1 | tr -d ' \n'
}

# Held running (spin.c's HOLD) until the last step that needs it.
touch hold
./spin 3 hold >got.txt &
pid=$!
t_running $pid spin
before=$(mid_bytes $pid)
"$FNTRACE" attach $pid 2>err.txt
t_eq "attach: succeeds" 0 "$?"
attached=$(mid_bytes $pid)
# The 6-byte nop of "call *mcount@GOT...": i386's is "lea 0(%esi),%esi".
nop6=660f1f440000
[ "$T_ARCH" = i386 ] && nop6=8db600000000
t_ok "attach: the call to mcount became a nop" sh -c "echo '$attached' | grep -q '$nop6'"
"$FNTRACE" attach $pid 2>err.txt
t_eq "attach: twice is refused" 1 "$?"
t_ok "attach: ... saying why" grep -q 'has the runtime already' err.txt
"$FNTRACE" record -p $pid -d 1 -o r.data 2>err.txt
t_eq "record -p: succeeds" 0 "$?"
"$FNTRACE" report -i r.data >r.txt
t_ok "record -p: the graph of the running process" grep -q 'leaf();' r.txt
t_eq "record -p: tracer off afterwards" nop "$("$FNTRACE" ctl $pid current_tracer)"
"$FNTRACE" detach $pid 2>err.txt
t_eq "detach: succeeds" 0 "$?"
t_eq "detach: the call site is as it was" "$before" "$(mid_bytes $pid)"
"$FNTRACE" ctl $pid current_tracer 2>/dev/null
t_eq "detach: the endpoint is closed" 1 "$?"
rm hold
wait $pid
t_eq "attach: the process ends normally" 0 "$?"
t_same "attach: its output is untouched" want.txt got.txt

"$FNTRACE" attach 999999999 2>err.txt
t_eq "attach: no such process" 1 "$?"
"$FNTRACE" record -p 999999999 -o x.data 2>err.txt
t_eq "record -p: no such process" 1 "$?"
t_ok "record -p: ... said" grep -q 'no process 999999999' err.txt
"$FNTRACE" record -p 1 -- ./spin 2>err.txt
t_eq "record -p with a program too is refused" 2 "$?"
for cmd in attach detach; do
	t_ok "$cmd --help" sh -c "'$FNTRACE' $cmd --help | grep -q '^usage: fntrace $cmd'"
done

# A process with no call sites: attach says so in its one line (the
# process may still load a module that has some); record -p has nothing
# to record, says so and fails, leaving no directory.  (Its cache, where
# the runtime would find the detours attach planned, is another: its
# functions built without call sites are detour_trace.sh's.)
t_build plain -O2 nosites "$top/tests/progs/spin.c"
mkdir -p nocache
FNTRACE_CACHE=$PWD/nocache ./nosites 60 >/dev/null &
pid=$!
t_running $pid nosites
"$FNTRACE" attach $pid 2>err.txt
t_eq "attach, no call sites: succeeds, in one line" "0 1" "$? $(wc -l <err.txt)"
t_ok "attach, no call sites: ... saying there is nothing to trace" \
	grep -q "^fntrace: attached to process $pid, which has no call sites: nothing to trace" err.txt
"$FNTRACE" record -p $pid -d 1 -o nosites.data 2>err.txt
t_eq "record -p, no call sites: fails, in one line" "1 1" "$? $(wc -l <err.txt)"
t_ok "record -p, no call sites: ... saying why" \
	grep -q "^fntrace: process $pid has no call sites: nothing to record" err.txt
t_ok "record -p, no call sites: no directory left" sh -c "! ls -d nosites.data* 2>/dev/null"
"$FNTRACE" detach $pid 2>/dev/null
t_ok "attach, no call sites: the process runs on" kill $pid
wait $pid 2>/dev/null

# Attached to a C++ program, the program's calls to the unwinder's entry
# points go through the runtime's wrappers (their GOT slots are pointed at
# them), as if it had been preloaded: function_graph and the profiler
# follow every exception, and detach gives the slots back.
t_build g++-pg -O2 throwing "$top/tests/progs/throw_loop.cpp"

# The GOT slot the program calls __cxa_begin_catch through, as hex.
catch_slot() {
	set -- $1 $(awk '/ r--p 00000000 .*\/throwing$/ { split($1, a, "-"); print a[1]; exit }' /proc/$1/maps)
	addr=$(( 0x$2 + 0x$(readelf -rW throwing | awk '/__cxa_begin_catch/ { print $1; exit }') ))
	dd if=/proc/$1/mem bs=1 skip=$addr count=8 2>/dev/null | od -An -tx1 | tr -d ' \n'
}

touch hold
./throwing hold >got.txt &
pid=$!
t_running $pid throwing
slot_before=$(catch_slot $pid)
"$FNTRACE" attach $pid 2>/dev/null
t_ok "attach, C++: the GOT slot of __cxa_begin_catch redirected" \
	test "$(catch_slot $pid)" != "$slot_before"
"$FNTRACE" ctl $pid current_tracer function_graph 2>err.txt
t_eq "attach, C++: function_graph on" 0 "$?"
sleep 0.3
"$FNTRACE" ctl $pid trace >trace.txt
t_ok "attach, C++: frames thrown through closed as unwound" \
	grep -q '} /\* thrower: unwound \*/' trace.txt
t_ok "attach, C++: ... and the catching frame returns" grep -q '} /\* catcher \*/' trace.txt
"$FNTRACE" ctl $pid current_tracer nop
"$FNTRACE" ctl $pid function_profile_enabled 1 2>err.txt
t_eq "attach, C++: the profiler on" 0 "$?"
sleep 0.3
t_ok "attach, C++: the profiler counts the catching function" \
	sh -c "'$FNTRACE' ctl $pid trace_stat/function | grep -q catcher"
"$FNTRACE" ctl $pid function_profile_enabled 0
"$FNTRACE" detach $pid 2>/dev/null
t_eq "detach, C++: the GOT slot as it was" "$slot_before" "$(catch_slot $pid)"
rm hold
wait $pid
t_eq "attach, C++: the program lives" 0 "$?"
t_eq "attach, C++: its output" 40 "$(cat got.txt)"

# A thread asleep when attach stops it sleeps its whole time: the sleep
# resumes (restart_syscall) after the calls attach makes in the thread.
$(t_cc gcc) -O2 -pg -o sleeper -x c - <<'C'
#include <stdio.h>
#include <time.h>
#include <unistd.h>
int main(void)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	sleep(2);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%d\n", (int)((b.tv_sec - a.tv_sec) * 10 + (b.tv_nsec - a.tv_nsec) / 100000000));
	return 0;
}
C
./sleeper >slept.txt &
pid=$!
t_running $pid sleeper
sleep 0.5
"$FNTRACE" attach $pid 2>/dev/null
wait $pid
t_ok "attach: a sleeping thread sleeps its whole time (2 s, in tenths: $(cat slept.txt))" \
	test "$(cat slept.txt)" -ge 20

# ... and while the runtime's control thread serves requests: the CPU
# time it spends runs out the sleeper's gmon timer (ITIMER_PROF, -pg),
# whose SIGPROF must not go to the sleeping thread (it ended the sleep
# early 11 times in 16 when it did).
./sleeper >slept.txt &
pid=$!
t_running $pid sleeper
sleep 0.5
"$FNTRACE" attach $pid 2>/dev/null
while "$FNTRACE" ctl $pid set_ftrace_filter >/dev/null 2>&1; do :; done
wait $pid
t_ok "attach: ... while the runtime serves requests (in tenths: $(cat slept.txt))" \
	test "$(cat slept.txt)" -ge 20

# A thread that blocks every signal (as xz's workers do) would be killed
# by a breakpoint: attach takes SIGTRAP out of its mask before the runtime
# loads, so every site can be switched, and detach puts it back.
t_build gcc-pg -O2 blocked "$top/tests/progs/attach_blocked.c"
./blocked 3 >want.txt
touch blocked.hold
./blocked 3 blocked.hold >got.txt &
pid=$!
t_running $pid blocked
for i in $(seq 100); do [ "$(ls /proc/$pid/task | wc -l)" -ge 2 ] && break; sleep 0.02; done
worker=$(ls /proc/$pid/task | grep -vx $pid)
sigblk() { awk '/^SigBlk:/ { print $2 }' /proc/$pid/task/$worker/status; }
# The mask without SIGTRAP (5: bit 4, the low bit of the next-to-last hex
# digit), by string: the shell's arithmetic stops at 2^63.
without_trap() {
	local head=${1%??} tail=${1#"${1%?}"} digit
	digit=${1%?}; digit=${digit#"$head"}
	echo "$head$(printf %x $(( 0x$digit & ~1 )))$tail"
}
mask_before=$(sigblk)
"$FNTRACE" attach $pid 2>/dev/null
t_eq "attach, a thread blocking SIGTRAP: it is let take it" \
	"$(without_trap "$mask_before")" "$(sigblk)"
t_eq "attach, a thread blocking SIGTRAP: no site left out" "blocked_leaf blocked_mid main worker" \
	"$("$FNTRACE" ctl $pid available_filter_functions | grep -v ' \[libc' | sort | tr '\n' ' ' | sed 's/ $//')"
"$FNTRACE" ctl $pid current_tracer function_graph
sleep 0.3
t_ok "attach, a thread blocking SIGTRAP: traced" \
	sh -c "'$FNTRACE' ctl $pid trace | grep -q 'blocked_leaf();'"
"$FNTRACE" detach $pid 2>err.txt
t_eq "detach: the thread's mask as it was" "$mask_before" "$(sigblk)"
rm -f blocked.hold
wait $pid
t_eq "attach, a thread blocking SIGTRAP: the program ends normally" 0 "$?"
t_same "attach, a thread blocking SIGTRAP: its output" want.txt got.txt

# ... but not in the mask of one that blocks no signal since: detach
# leaves the mask the program set last.
touch blocked.hold
rm -f blocked.open
./blocked 3 blocked.hold blocked.open >got.txt &
pid=$!
t_running $pid blocked
for i in $(seq 100); do [ "$(ls /proc/$pid/task | wc -l)" -ge 2 ] && break; sleep 0.02; done
worker=$(ls /proc/$pid/task | grep -vx $pid)
for i in $(seq 100); do [ "$(sigblk)" = "$mask_before" ] && break; sleep 0.02; done
"$FNTRACE" attach $pid 2>/dev/null
t_eq "attach, a thread blocking SIGTRAP, then none: it is let take it" \
	"$(without_trap "$mask_before")" "$(sigblk)"
touch blocked.open
for i in $(seq 100); do [ "$(sigblk)" = 0000000000000000 ] && break; sleep 0.02; done
"$FNTRACE" detach $pid 2>err.txt
t_eq "detach: the mask the thread set since, kept" 0000000000000000 "$(sigblk)"
rm -f blocked.hold
wait $pid
t_eq "attach, a thread blocking SIGTRAP, then none: the program ends normally" 0 "$?"
t_same "attach, a thread blocking SIGTRAP, then none: its output" want.txt got.txt

# The thread attach stops may be in the middle of its own code, with live
# values in its vector registers, which the calls attach makes in it
# (dlopen's string functions) overwrite: they are saved and put back.
if [ "$(uname -m)" = x86_64 ]; then
	t_build gcc-pg -O2 vectors "$top/tests/progs/attach_vectors.c"
	./vectors 2 >vectors.txt &
	pid=$!
	t_running $pid vectors
	sleep 0.3
	"$FNTRACE" attach $pid 2>/dev/null
	"$FNTRACE" detach $pid 2>/dev/null
	wait $pid
	t_eq "attach: the stopped thread's vector registers kept" "vector registers kept" \
		"$(cat vectors.txt)"
fi

# Attached and detached 20 times in a row, tracing each time: the sites
# as the compiler left them after each detach, the output untouched.
./spin 3 >want.txt
touch hold
./spin 3 hold >got.txt &
pid=$!
t_running $pid spin
before=$(mid_bytes $pid)
bad=""
for i in $(seq 20); do
	"$FNTRACE" attach $pid 2>/dev/null || bad="$bad attach$i"
	"$FNTRACE" ctl $pid current_tracer function_graph 2>/dev/null || bad="$bad ctl$i"
	sleep 0.05
	"$FNTRACE" ctl $pid trace 2>/dev/null | grep -q 'leaf();' || bad="$bad traced$i"
	"$FNTRACE" detach $pid 2>/dev/null || bad="$bad detach$i"
	[ "$(mid_bytes $pid)" = "$before" ] || bad="$bad restored$i"
done
t_eq "attach x20: every attach, trace and detach worked" "" "$bad"
rm hold
wait $pid
t_eq "attach x20: the program ends normally" 0 "$?"
t_same "attach x20: its output" want.txt got.txt

# A program fntrace run started has the runtime preloaded, which detach
# cannot unload: attach starts that runtime again, twice over, tracing.
touch hold
"$FNTRACE" run -- ./spin 3 hold >got.txt 2>/dev/null &
pid=$!
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" detach $pid 2>/dev/null
t_eq "run, detach: succeeds" 0 "$?"
"$FNTRACE" attach --timeout 5 $pid 2>/dev/null
t_eq "run, detach, attach: succeeds" 0 "$?"
"$FNTRACE" ctl $pid current_tracer function_graph 2>/dev/null
t_eq "run, detach, attach: function_graph on" 0 "$?"
sleep 0.1
t_ok "run, detach, attach: traced" sh -c "'$FNTRACE' ctl $pid trace | grep -q 'leaf();'"
"$FNTRACE" detach $pid 2>/dev/null
t_eq "run, detach, attach, detach: succeeds" 0 "$?"
"$FNTRACE" attach --timeout 5 $pid 2>/dev/null
t_eq "run, detach, attach twice: succeeds" 0 "$?"
rm hold
wait $pid
t_eq "run, detach, attach: the program ends normally" 0 "$?"
t_same "run, detach, attach: its output" want.txt got.txt

# A thread holds the dynamic loader's lock (a library's constructor runs
# in it): the dlopen attach injects would wait for as long.  attach gives
# up at its time limit, leaving the process as it was, and succeeds once
# the lock is free.
t_build gcc-pg -O2 locked "$top/tests/progs/attach_locked.c"
$(t_cc gcc) -O2 -fPIC -shared -o libslow.so "$top/tests/progs/slow_ctor.c"
mkdir -p slow
SLOW_CTOR_DIR=$PWD/slow ./locked "$PWD/libslow.so" 3 "$PWD/slow/done" >got.txt &
pid=$!
for i in $(seq 50); do [ -e slow/in_ctor ] && break; sleep 0.1; done
start=$(date +%s)
timeout 30 "$FNTRACE" attach --timeout 1 $pid 2>err.txt
t_eq "attach, loader busy: gives up" 1 "$?"
t_ok "attach, loader busy: ... at the time limit" test $(( $(date +%s) - start )) -le 5
t_ok "attach, loader busy: ... saying why" grep -q 'did not load within the time limit' err.txt
t_ok "attach, loader busy: the process runs on" kill -0 $pid
touch slow/release
sleep 0.2
timeout 30 "$FNTRACE" attach $pid 2>err.txt
t_eq "attach, loader free: succeeds" 0 "$?"
"$FNTRACE" ctl $pid current_tracer function
sleep 0.3
t_ok "attach, loader free: traced" sh -c "'$FNTRACE' ctl $pid trace | grep -q 'mid <-main'"
"$FNTRACE" ctl $pid current_tracer nop
touch slow/done
wait $pid
t_eq "attach, loader busy: the program ends normally" 0 "$?"
t_eq "attach, loader busy: its output" "42 22650" "$(cat got.txt)"
# A thread walks the module list (dl_iterate_phdr holds a lock of the
# loader's) when the time limit comes: the runtime is mapped by then,
# dlopen holds the loader's lock, and a call abandoned there would keep
# it from the program for good.  attach waits on, saying so, and the
# program's own dlopen works after.
t_build gcc-pg -O2 walker "$top/tests/progs/attach_walker.c"
rm -rf walk && mkdir walk
./walker "$PWD/walk" "$PWD/libslow.so" 3 >got.txt &
pid=$!
for i in $(seq 50); do [ -e walk/in_walk ] && break; sleep 0.1; done
(sleep 2; touch walk/release) &
timeout 30 "$FNTRACE" attach --timeout 1 $pid 2>err.txt
t_eq "attach, module list walked at the time limit: succeeds" 0 "$?"
t_ok "attach, module list walked at the time limit: says it waits on" \
	grep -q 'the runtime is starting in it; waiting' err.txt
"$FNTRACE" ctl $pid current_tracer function
sleep 0.3
t_ok "attach, module list walked: traced" sh -c "'$FNTRACE' ctl $pid trace | grep -q 'mid <-main'"
"$FNTRACE" ctl $pid current_tracer nop
touch walk/done
wait $pid
t_eq "attach, module list walked: the program ends normally" 0 "$?"
t_eq "attach, module list walked: its own dlopen works after" "42 22650" "$(cat got.txt)"

"$FNTRACE" attach --timeout 0 1 2>err.txt
t_eq "attach: a bad time limit is refused" 2 "$?"
