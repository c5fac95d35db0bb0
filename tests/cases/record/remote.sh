# record --host and listen on loopback: a recording sent to a listener
# reads as the same run recorded locally does (the hit of every
# function), the program's output and exit status unchanged; record -p
# PID --host; two targets at once, each into a directory of its own named
# from its stream; the listener binds only what it was told to; --host
# refused with what it cannot go with.

t_build gcc-pg -O2 calls "$top/tests/progs/remote_calls.c"

t_listen recv
t_ok "listen --port 0: its first line says the port it got" test -n "$LISTEN_PORT"

# Only the address asked for: every listening socket on that port is
# 127.0.0.1's (/proc/net/tcp: local address 0100007F, state 0A).
port_hex=$(printf '%04X' "${LISTEN_PORT:-0}")
bound=$(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
	awk -v p=":$port_hex" '$4 == "0A" && substr($2, length($2) - 4) == p { print $2 }')
t_eq "listen --bind 127.0.0.1: bound there only" "0100007F:$port_hex" "$bound"

"$FNTRACE" record -o local.data -- ./calls 20 500 >local.out 2>local.err
t_eq "local: the program's exit status" 3 "$?"
mkdir stage
TMPDIR=$PWD/stage "$FNTRACE" record --host "127.0.0.1:$LISTEN_PORT" -- ./calls 20 500 \
	>remote.out 2>remote.err
t_eq "--host: the program's exit status" 3 "$?"
t_eq "--host: the program's output" "$(cat local.out)" "$(cat remote.out)"
t_ok "--host: the summary names the listener's directory" \
	grep -q "lost -> 127.0.0.1:$LISTEN_PORT/[^/]*-calls-[0-9]*\$" remote.err
dir=$(sed -n "s|.* -> 127.0.0.1:$LISTEN_PORT/||p" remote.err)
t_ok "listen: the directory named HOST-PROG-PID" test -d "recv/$dir" -a -n "$dir"
t_eq "listen: one line for it" 1 "$(grep -c "recorded, .* -> recv/$dir\$" recv.err)"
t_hits local.data >local.hits
t_hits "recv/$dir" >remote.hits
t_ok "report --stat: the functions' hits as the local recording's" \
	test -s local.hits -a "$(grep -c outer local.hits)" = 1
t_eq "report --stat: the same hits" "$(cat local.hits)" "$(cat remote.hits)"
"$FNTRACE" info -i "recv/$dir" >info.txt
t_ok "info: sealed" grep -q "^data directory .*(sealed)" info.txt
t_ok "info: the program's exit" grep -q "^program ended *exit status 3" info.txt
t_eq "info: the events of the local recording" \
	"$("$FNTRACE" info -i local.data | grep '^events')" "$(grep '^events' info.txt)"
"$FNTRACE" export -i "recv/$dir" -f folded -o remote.folded 2>/dev/null
t_eq "export reads it" 0 "$?"
"$FNTRACE" export -i local.data -f folded -o local.folded 2>/dev/null
t_eq "export: the stacks of the local recording" \
	"$(cut -d' ' -f1 local.folded | sort -u)" "$(cut -d' ' -f1 remote.folded | sort -u)"
t_eq "the target keeps nothing of it (its staging directory in TMPDIR gone)" "" "$(ls -A stage)"

# Two targets at once, into directories of their own.
"$FNTRACE" record --host "127.0.0.1:$LISTEN_PORT" -- ./calls 20 500 5 >a.out 2>a.err &
a=$!
"$FNTRACE" record --host "127.0.0.1:$LISTEN_PORT" -- ./calls 20 500 5 >b.out 2>b.err &
b=$!
wait $a; ra=$?
wait $b; rb=$?
t_eq "two at once: both programs' exit status" "3 3" "$ra $rb"
da=$(sed -n "s|.* -> 127.0.0.1:$LISTEN_PORT/||p" a.err)
db=$(sed -n "s|.* -> 127.0.0.1:$LISTEN_PORT/||p" b.err)
t_ok "two at once: two directories ($da, $db)" test -n "$da" -a -n "$db" -a "$da" != "$db"
t_eq "two at once: the first's hits" "$(cat local.hits)" "$(t_hits "recv/$da")"
t_eq "two at once: the second's hits" "$(cat local.hits)" "$(t_hits "recv/$db")"

# record -p PID --host: named by the process's comm and pid.
t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
"$FNTRACE" run -- ./spin 20 >/dev/null 2>&1 &
pid=$!
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" record -p "$pid" -d 0.5 --host "127.0.0.1:$LISTEN_PORT" 2>p.err
t_eq "record -p --host: exit status" 0 "$?"
dp=$(sed -n "s|.* -> 127.0.0.1:$LISTEN_PORT/||p" p.err)
t_eq "record -p --host: named from the process" "spin-$pid" "${dp#*-}"
mids=$("$FNTRACE" report -i "recv/$dp" --stat --csv | awk -F, '$1 == "mid" { print $2 }')
t_ok "record -p --host: its calls (mid: $mids)" test "${mids:-0}" -gt 5
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true

# A recording the target abandons (nothing traced) leaves nothing on the
# listener either, as it leaves nothing locally.
t_build plain -O2 untraced "$top/tests/progs/graph.c"
"$FNTRACE" record --host "127.0.0.1:$LISTEN_PORT" -- ./untraced >/dev/null 2>u.err
t_eq "nothing traced: exit status" 1 "$?"
t_ok "nothing traced: said on the target" grep -q "no traced program ran" u.err
for i in $(seq 50); do grep -q "untraced\[" recv.err && break; sleep 0.1; done
t_ok "nothing traced: the listener says it was abandoned" \
	grep -q ": [^ ]* untraced\[[0-9]*\]: the target abandoned the recording (.*); nothing kept\$" recv.err
t_eq "nothing traced: no directory" "" "$(ls -d recv/*-untraced-* 2>/dev/null)"

kill -TERM "$LISTEN_PID"
wait "$LISTEN_PID"
t_eq "listen: SIGTERM stops it, exit 0" 0 "$?"
t_eq "listen: nothing left under a temporary name" "" "$(ls -d recv/*.tmp-* 2>/dev/null)"

# Refused before the program runs, in one line.
t_error "--host with -o: refused" 2 "^fntrace record: --host: not with -o" \
	"$FNTRACE" record --host 127.0.0.1:1 -o x -- ./calls
t_error "--host with --overwrite: refused" 2 "^fntrace record: --host: not with --overwrite" \
	"$FNTRACE" record --host 127.0.0.1:1 --overwrite -- ./calls
t_error "--host with --max-size: refused" 2 "^fntrace record: --host: not with --max-size" \
	"$FNTRACE" record --host 127.0.0.1:1 --max-size=1M -- ./calls
t_error "--host with -e: refused" 2 "^fntrace record: --host: not with -e" \
	"$FNTRACE" record --host 127.0.0.1:1 -e sched -- ./calls
t_error "live --host: refused" 2 "^fntrace live: --host: not with live" \
	"$FNTRACE" live --host 127.0.0.1:1 -- ./calls
t_error "--host without a port: refused" 1 "^fntrace: --host nohost: not HOST:PORT" \
	"$FNTRACE" record --host nohost -- ./calls
t_error "--host with nobody listening: refused" 1 "^fntrace: cannot connect to 127.0.0.1:$LISTEN_PORT" \
	"$FNTRACE" record --host "127.0.0.1:$LISTEN_PORT" -- ./calls
t_error "--host with a port out of range: refused" 1 "^fntrace: --host 127.0.0.1:99999: not HOST:PORT" \
	"$FNTRACE" record --host 127.0.0.1:99999 -- ./calls
t_error "--host with a host no name lookup finds: the lookup's own words" 1 \
	"^fntrace: cannot connect to nohost.invalid:7117: \(Name or service not known\|.*name resolution\|No address associated with hostname\)$" \
	"$FNTRACE" record --host nohost.invalid:7117 -- ./calls
t_error "listen: a bad port" 2 "^fntrace listen: bad port: '70000'" "$FNTRACE" listen --port 70000

# IPv6: a listener bound to ::1 alone, a target naming it [::1]:PORT.
if ip -6 addr show lo 2>/dev/null | grep -q ' ::1/128'; then
	"$FNTRACE" listen --bind ::1 --port 0 -o recv6 >v6.port 2>v6.err &
	pid6=$!
	port6=
	for i in $(seq 100); do
		port6=$(awk '$1 == "listening" { print $4; exit }' v6.port 2>/dev/null)
		[ -n "$port6" ] && break
		sleep 0.1
	done
	t_eq "IPv6: bound to ::1 alone" "00000000000000000000000001000000:$(printf '%04X' "${port6:-0}")" \
		"$(awk -v p=":$(printf '%04X' "${port6:-0}")" \
			'$4 == "0A" && substr($2, length($2) - 4) == p { print $2 }' /proc/net/tcp6 /proc/net/tcp)"
	"$FNTRACE" record --host "[::1]:$port6" -- ./calls 20 500 >v6.out 2>v6.rec
	t_eq "IPv6: the program's exit status" 3 "$?"
	kill -TERM $pid6
	wait $pid6
	t_eq "IPv6: the same hits" "$(cat local.hits)" "$(t_hits "$(ls -d recv6/*-calls-* | head -n 1)")"
else
	t_skip "IPv6" "no ::1 on this machine's loopback"
fi
