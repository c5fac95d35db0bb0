# A trace_pipe reader that falls behind the ring it reads: the ring goes
# on overwriting (the process's own buffer, as the kernel's), and what it
# overwrote before the reader took it is said where it went missing, as
# the kernel says events lost it cannot count, then counted at the end
# of the part.  The reader is stopped for a while, the program making
# millions of calls a second meanwhile into 1 MB: it must lose some.

t_build gcc-pg -O2 busy "$top/tests/progs/busy_calls.c"
"$FNTRACE" run -- ./busy >/dev/null 2>&1 &
pid=$!
for i in $(seq 300); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" ctl "$pid" buffer_size_kb 1024
"$FNTRACE" ctl "$pid" current_tracer function
"$FNTRACE" ctl "$pid" trace_pipe >pipe.out 2>pipe.err &
reader=$!
for i in $(seq 200); do
	[ "$(grep -c ' f <-g$' pipe.out)" -gt 100 ] && break
	sleep 0.1
done
kill -STOP "$reader"
sleep 1.5
kill -CONT "$reader"
for i in $(seq 200); do grep -q '^# gaps where' pipe.out && break; sleep 0.1; done
kill -INT "$reader"
wait "$reader"
t_ok "behind the ring: events lost said where, the kernel's way" \
	grep -q '^ CPU:[0-9]* \[LOST EVENTS\]$' pipe.out
t_ok "behind the ring: the gaps counted at the part's end" \
	grep -q '^# gaps where events were lost, how many not known: [1-9][0-9]*$' pipe.out
# The last line may be cut: Ctrl-C drops what was not written yet.
t_eq "behind the ring: every other line is the program's" "" \
	"$(sed '$d' pipe.out | grep -v '^ CPU:[0-9]* \[LOST EVENTS\]$\|^#\| f <-g$\| g <-main$' |
		head -n 3)"
t_eq "behind the ring: nothing said on stderr" "" "$(cat pipe.err)"
"$FNTRACE" ctl "$pid" current_tracer nop
t_eq "the program is still there" 0 "$(kill -0 "$pid"; echo $?)"
kill "$pid"; wait
