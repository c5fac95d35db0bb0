# Signals meant for the program, sent to the recorder (kill, timeout, a
# closed terminal): the program gets each once and ends as it would
# untraced, the recording is sealed with every call, and nothing is left
# running or half-written.

t_build gcc-pg -O2 term_wait "$top/tests/progs/term_wait.c"

# wait_ready FILE: until the program said it runs.
wait_ready() {
	for i in $(seq 100); do grep -q ready "$1" 2>/dev/null && return; sleep 0.05; done
}

for sig in TERM HUP INT; do
	"$FNTRACE" record -o "$sig.data" -- ./term_wait >"$sig.out" 2>"$sig.err" &
	rec=$!
	wait_ready "$sig.out"
	kill -"$sig" "$rec"
	wait "$rec"
	t_eq "SIG$sig to the recorder: its exit status is the program's" 0 "$?"
	calls=$(sed -n 's/^signals 1 calls //p' "$sig.out")
	t_ok "SIG$sig to the recorder: passed on once" test -n "$calls"
	t_ok "SIG$sig to the recorder: sealed" grep -q '^state: sealed' "$sig.data/info"
	t_eq "SIG$sig to the recorder: every call of the program recorded" "$calls" \
		"$("$FNTRACE" report -i "$sig.data" --stat --csv | awk -F, '$1 == "work" { print $2 }')"
	t_eq "SIG$sig to the recorder: no temporary directory left" "" "$(ls -d "$sig.data.tmp"* 2>/dev/null)"
done

# timeout(1) signals the recorder and its process group.
t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
timeout 1 "$FNTRACE" record -o t.data -- ./spin 10 >/dev/null 2>&1
t_eq "timeout: the status timeout gives" 124 "$?"
t_ok "timeout: sealed" grep -q '^state: sealed' t.data/info
t_ok "timeout: the program's end recorded" grep -q '^exit: signal 15' t.data/info
t_eq "timeout: no temporary directory left" "" "$(ls -d t.data.tmp* 2>/dev/null)"
t_ok "timeout: calls recorded" test "$("$FNTRACE" report -i t.data --stat --csv | grep -c '^mid,')" -eq 1
