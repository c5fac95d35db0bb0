# attach never makes a thread that is inside the dynamic loader call
# dlopen() (src/attach/attach_safe.c).
#
# A process attached while its loader is still starting it, as `prog &
# fntrace attach $!` may catch it: held (tests/progs/held_in_loader.c)
# where the loader first runs the C library's code, before that library
# is relocated or started.  attach waits for it to come out into its own
# code, and says so in one line if it does not within the time limit;
# either way the program runs as it would have.  (The injected dlopen()
# used to run into the half-relocated C library and kill the process.)

t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
cc -O2 -o held "$top/tests/progs/held_in_loader.c"
./spin 1 >want.txt

# held OUT: ./spin 1 hold started and held, its output to OUT; its pid.
held() {
	touch hold
	./held pid.txt ./spin 1 hold >"$1" && cat pid.txt
}

# ends PID OUT NAME: once hold is gone, the process ends, its output
# untouched.
ends() {
	local i
	rm -f hold
	for i in $(seq 600); do [ -e "/proc/$1" ] || break; sleep 0.05; done
	t_ok "$3: the process ends" test ! -e "/proc/$1"
	t_same "$3: its output is untouched" want.txt "$2"
}

pid=$(held refused.txt)
t_ok "held in its loader" test -n "$pid"
t_error "in its loader, and kept there: attach refused" 1 \
	"none of its threads came back to its own code from the dynamic loader" \
	"$FNTRACE" attach --timeout 1 "$pid"
kill -CONT "$pid"
ends "$pid" refused.txt "refused in its loader"

pid=$(held waited.txt)
"$FNTRACE" attach --timeout 60 "$pid" 2>attach.err &
attacher=$!
sleep 0.5
kill -CONT "$pid"
wait $attacher
t_eq "let go from its loader: attach waits and succeeds" 0 "$?"
t_eq "... saying only that" "fntrace: attached to process $pid" "$(cat attach.err)"
"$FNTRACE" ctl "$pid" current_tracer function >/dev/null
sleep 0.3
t_ok "... and its calls are traced" sh -c "'$FNTRACE' ctl $pid trace | grep -q 'mid <-'"
"$FNTRACE" detach "$pid" 2>/dev/null
ends "$pid" waited.txt "attached out of its loader"

# A process whose main thread is in dlopen() or dlclose() most of the
# time, holding the loader's lock: attached and detached 20 times, it
# runs on.  (Taken inside the loader, it died within 10 rounds.)
cc -O2 -o dlopen_loop "$top/tests/progs/dlopen_loop.c"
libz=$(ldconfig -p | awk '/libz\.so\.1 .*x86-64/ { print $NF; exit }')
touch hold
./dlopen_loop "$libz" hold >loop.out 2>loop.err &
pid=$!
t_running $pid dlopen_loop
attached=0
for i in $(seq 20); do
	"$FNTRACE" attach "$pid" 2>>loop.att.err && attached=$((attached + 1))
	"$FNTRACE" detach "$pid" 2>>loop.att.err
	[ -e "/proc/$pid" ] || break
done
t_eq "in dlopen() over and over: 20 attaches" 20 "$attached"
t_eq "... each said only that, and its detach" "" \
	"$(grep -v 'fntrace: \(attached to\|detached from\) process' loop.att.err)"
rm -f hold
wait $pid
t_eq "... the process ends normally" 0 "$?"
t_eq "... its loads all done" "0 loads failed" "$(cat loop.out)"
