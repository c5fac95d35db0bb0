# A process attached while its dynamic loader is still starting it, as
# `prog & fntrace attach $!` may catch it: held (tests/progs/
# held_in_loader.c) where the loader first runs the C library's code,
# before that library is relocated or started.  attach waits for it to
# come out into its own code, and says so in one line if it does not
# within the time limit; either way the program runs as it would have.
# (The injected dlopen() used to run into the half-relocated C library
# and kill the process.)

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
