# fntrace live on a program making millions of calls a second: SIGINT
# ends the program (the recorder passes it on), and the printing of what
# was recorded, gigabytes at that rate, begins; SIGTERM or SIGINT while it
# prints ends it at once, into a file or into a pipe that takes nothing
# (its reader stopped until the end),
# saying nothing more and leaving no temporary directory behind.

t_build gcc-pg -O2 busy "$top/tests/progs/busy_calls.c"

# says FILE TEXT: FILE holds TEXT within 20 s.
says() {
	local i
	for i in $(seq 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
	return 1
}

# ended PID NAME: how long PID took to end, in ms, into NAME.ms (a zombie
# has ended: nobody may reap it yet).
ended() {
	local from i
	from=$(date +%s%N)
	for i in $(seq 100); do
		case $(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) in ''|Z) break ;; esac
		sleep 0.05
	done
	echo $(( ($(date +%s%N) - from) / 1000000 )) >"$2.ms"
	kill -9 "$1" 2>/dev/null
}

# interrupted NAME SIG: live's output into NAME.out, its messages into
# NAME.err, its pid into NAME.pid; SIGINT after a second, SIG once it
# prints.
interrupted() {
	local live
	t_ok "$1: live started" says "$1.pid" .
	live=$(cat "$1.pid")
	sleep 1
	kill -INT "$live"
	t_ok "$1: the program ended, the printing began" says "$1.err" "^fntrace: recorded"
	sleep 0.3
	kill -"$2" "$live"
	ended "$live" "$1"
	t_ok "$1: SIG$2 ends the printing at once ($(cat "$1.ms") ms)" test "$(cat "$1.ms")" -lt 5000
}

mkdir file.tmp
sh -c 'echo $$ >file.pid; TMPDIR=$PWD/file.tmp exec "$0" live -- ./busy >file.out 2>file.err' \
	"$FNTRACE" &
job=$!
interrupted file TERM
wait "$job"
t_eq "file: the program's end is live's status" 130 "$?"
t_ok "file: lines were printed" test "$(grep -c 'f();' file.out)" -gt 100
t_eq "file: nothing said after the summary" 1 "$(wc -l <file.err)"
t_eq "file: no temporary directory left" "" "$(ls file.tmp)"

mkdir pipe.tmp
sh -c 'echo $$ >pipe.pid; TMPDIR=$PWD/pipe.tmp exec "$0" live -- ./busy 2>pipe.err' \
	"$FNTRACE" | { while [ ! -e taken ]; do sleep 0.1; done; cat >/dev/null; } &
job=$!
interrupted pipe INT
t_eq "pipe: nothing said after the summary" 1 "$(wc -l <pipe.err)"
t_eq "pipe: no temporary directory left" "" "$(ls pipe.tmp)"
touch taken
wait "$job"
