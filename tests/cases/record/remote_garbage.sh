# fntrace listen given what is not a stream of record --host: random
# bytes, a header of another version, a file name with '..', an absolute
# one, a directory name taken by a symlink.  Each is one line on stderr
# naming the peer and what was wrong, the connection dropped, nothing
# written outside the directory of its own, and the listener serves the
# next stream as ever.

t_build gcc-pg -O2 calls "$top/tests/progs/remote_calls.c"
mkdir outside
t_listen recv
t_ok "listen: started" test -n "$LISTEN_PORT"

hex() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }
# header HOST PROG PID [VERSION]
header() {
	printf '%s%08x%08x%04x%04x%s%s' "$(hex FNTRSTRM)" "${4:-1}" "$3" ${#1} ${#2} \
		"$(hex "$1")" "$(hex "$2")"
}
# record TYPE NAME DATA (1 FILE, 2 APPEND, 3 END)
record() { printf '%02x%02x%08x%s%s' "$1" ${#2} ${#3} "$(hex "$2")" "$(hex "$3")"; }
info_text='fntrace-data: 1
tracer: function
'
# send NAME HEX: to the listener, then the lines it said since.
send() {
	local before
	before=$(wc -l <recv.err)
	python3 "$top/tests/progs/stream_peer.py" send "$LISTEN_PORT" "$2" >"$1.answer"
	for i in $(seq 50); do
		[ "$(wc -l <recv.err)" -gt "$before" ] && break
		sleep 0.1
	done
	sleep 0.2	# a second line would come now
	tail -n +"$((before + 1))" recv.err >"$1.said"
}
# one_line NAME PATTERN: what NAME made the listener say.
one_line() {
	t_eq "$1: one line" 1 "$(wc -l <"$1.said")"
	t_ok "$1: naming the peer and what was wrong" \
		grep -q "^fntrace: listen: 127\.0\.0\.1:[0-9]*: .*$2" "$1.said"
	t_eq "$1: no answer" "" "$(cat "$1.answer")"
}

send random "$(head -c 300 /dev/urandom | od -An -tx1 | tr -d ' \n')"
one_line random "not an fntrace stream (bad magic); connection dropped"
t_eq "random: nothing written" "" "$(ls -A recv)"

send version "$(header h p 1 2)"
one_line version "a stream of another version; connection dropped"
t_eq "version: nothing written" "" "$(ls -A recv)"

send dotdot "$(header h p 2)$(record 1 info "$info_text")$(record 2 ../escape x)"
one_line dotdot "'../escape' is not the name of a file of a data directory"
t_eq "dotdot: nothing outside its directory" "" "$(find . -name escape)"
t_ok "dotdot: what came before kept, its info saying how it ended" \
	grep -q "^stream: bad stream: '../escape'" recv/h-p-2/info

send absolute "$(header h p 3)$(record 1 info "$info_text")$(record 1 /tmp/x x)"
one_line absolute "'/tmp/x' is not the name"
t_eq "absolute: nothing outside its directory" "" "$(find . outside -name x)"

send noinfo "$(header h p 4)$(record 2 ../../escape x)"
one_line noinfo "is not the name.*; nothing kept"
t_eq "noinfo: no directory kept" "" "$(ls -d recv/h-p-4* 2>/dev/null)"

send badtype "$(header h p 5)$(record 9 info x)"
one_line badtype "a record of no known type; nothing kept"

# A symlink where the directory would go: never followed, the next name
# taken.
ln -s ../outside recv/h-p-6
send symlink "$(header h p 6)$(record 1 info "$info_text")$(record 3 '' '')"
t_eq "symlink: answered with the next name" "ok h-p-6-1" "$(cat symlink.answer)"
t_eq "symlink: nothing through it" "" "$(ls -A outside)"
t_ok "symlink: still a symlink" test -L recv/h-p-6
t_ok "symlink: placed as h-p-6-1" test -f recv/h-p-6-1/info

# Names from the header are made safe for a directory's.
send names "$(header ../.. 'a/b' 7)$(record 1 info "$info_text")$(record 3 '' '')"
t_eq "names: '/' and a leading dot made '_'" "ok _._..-a_b-7" "$(cat names.answer)"
t_eq "names: nothing outside DIR" "" "$(find . -name 'a*b*' -not -path './recv/*' -not -name 'absolute*')"

# Nor do they bring an escape sequence to the listener's terminal.
esc=$(printf '\033')
send escape "$(header "${esc}[31mred" p 8)$(record 1 info "$info_text")$(record 9 x x)"
one_line escape "?\[31mred p\[8\]: bad stream"
t_eq "escape: no escape character said" 0 "$(grep -c "$esc" recv.err)"

# And the listener serves on.
"$FNTRACE" record --host "127.0.0.1:$LISTEN_PORT" -- ./calls 2 10 >out.txt 2>err.txt
t_eq "after them: a recording, exit status 3" 3 "$?"
t_ok "after them: it arrived" grep -q " -> 127.0.0.1:$LISTEN_PORT/" err.txt
kill -TERM "$LISTEN_PID"
wait "$LISTEN_PID"
t_eq "listen: exit 0 after it all" 0 "$?"
