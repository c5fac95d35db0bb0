# Where the kernel has a behaviour, fntrace has the same: ctl trace under
# the nop tracer (the state fntrace run starts in) prints an empty trace,
# and the function tracer names the caller of main, outside any traced
# function, by its module and its address there.

t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
"$FNTRACE" run -- ./spin 10 >/dev/null 2>&1 &
pid=$!
for i in $(seq 50); do [ -S "/tmp/fntrace-$(id -u)/$pid" ] && break; sleep 0.1; done
"$FNTRACE" ctl "$pid" trace >nop.txt 2>err.txt
t_eq "trace under nop: exit status" 0 "$?"
t_eq "trace under nop: the kernel's header" "# tracer: nop" "$(head -1 nop.txt)"
t_eq "trace under nop: no entry" "" "$(grep -v '^#' nop.txt)"
t_eq "trace under nop: nothing said" "" "$(cat err.txt)"
kill "$pid"; wait

t_build gcc-pg -O2 prog "$top/tests/progs/graph.c"
"$FNTRACE" record -t function -o f.data -- ./prog >/dev/null 2>&1
"$FNTRACE" report -i f.data >f.txt
line=$(grep ': main <-' f.txt)
caller=${line##*<-}
t_ok "function tracer: main's caller named by its module ($caller)" \
	sh -c "echo '$caller' | grep -Eq '^libc\.so\.6\+0x[0-9a-f]+$|^__libc_start'"
# The address is where main returns to in libc: after a call.
if echo "$caller" | grep -q '^libc'; then
	libc=$(awk '$NF ~ /libc\.so\.6$/ { print $NF; exit }' f.data/funcs-*)
	off=${caller#*+}
	prev=$(objdump -d --start-address=$((off - 8)) --stop-address=$off "$libc" | tail -1)
	t_ok "function tracer: libc's address follows a call ($prev)" sh -c "echo '$prev' | grep -q call"
fi
