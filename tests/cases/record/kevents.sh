# record -e: the kernel's events of the traced threads beside their
# calls.  kev_waits sleeps, reads a pipe another thread writes 30 ms
# later, waits 40 ms for a mutex another thread holds, each measured by
# its own clock; makes 100 getppid calls in main and in a thread it
# makes and ends.  What the recording says of each must agree with the
# program, and with strace.

. "$top/tests/kev_lib.sh"
if ! kev_tracefs; then
	t_skip "kernel events" "no tracefs, and not root to mount it"
	return 0
fi
trap kev_untracefs EXIT

t_build gcc-pg -O2 kev_waits "$top/tests/progs/kev_waits.c"

"$FNTRACE" record -e sched -e syscalls -o k.data -- ./kev_waits 2 >k.out 2>k.err
t_eq "exit status" 0 "$?"
t_ok "the recorder's line on them" grep -q '^fntrace: kernel events: [0-9]* system calls' k.err
pid=$(ls k.data/funcs-* | sed 's/.*-//')
"$FNTRACE" report -i k.data -O nocpu -O noproc --tid "$pid" >main.txt
kev_graph k.data >all.txt

# ---- info ----
"$FNTRACE" info -i k.data >info.txt
t_ok "info counts them" grep -qE '^kernel events +[1-9][0-9]* system calls \([0-9]+ returned\), [1-9][0-9]* context switches, [1-9][0-9]* wake-ups, 0 page faults \(-e sched,syscalls\)$' info.txt
t_ok "info: none lost" grep -qE '^kernel lost +0 events$' info.txt
t_ok "the report's header counts them" grep -q '^# kernel events: [0-9]* system calls' all.txt

# ---- each wait, by the program's clock and by the recording's ----
# kev_compare WHAT FUNC SYSCALL: the program's lines "WHAT NS", in order,
# against the longest SYSCALL inside each call of FUNC (less the times
# the program was preempted around it, on a busy machine), and the time
# off the CPU inside it.
kev_compare() {
	local what=$1 n=0 want dur off pre
	kev_in_call main.txt "$2" "$3" >"$what.rec"
	t_eq "$what: one $3 inside each $2()" 2 "$(awk '$1 > 0' "$what.rec" | wc -l)"
	grep "^$what " k.out | cut -d' ' -f2 | while read -r want; do
		n=$((n + 1))
		read -r dur off pre <<-EOF
		$(sed -n "${n}p" "$what.rec")
		EOF
		kev_within "$what #$n: $3's duration" "$want" "$dur" "$pre"
		kev_within "$what #$n: off CPU inside it" "$(awk -v d="$dur" 'BEGIN { printf "%d", d * 1000 }')" "$off"
	done
}
kev_compare nap nap clock_nanosleep
kev_compare pipe pipe_read read
kev_compare mutex mutex_wait futex

# Who woke whom, and in which state each left: the pipe's reader by the
# writer, the mutex's waiter by the holder, both sleeping (S).
t_ok "read: sleeping, woken by another thread of the program" \
	awk -v p="$pid" '/pipe_read\(\) \{/ { in_ = 1 } in_ && / read\(/ { r = 1 }
		r && /off CPU/ { ok = / S \(sleeping\) / && /woken by kev_waits-[0-9]+$/ && $0 !~ ("woken by kev_waits-" p "$"); exit }
		END { exit !ok }' main.txt
t_ok "the switch banner names the state the thread left in" \
	grep -qE "^ [0-9]+\) +kev_wai-$pid +=> .* S \(sleeping\) [0-9.]+ [um]?s off CPU" main.txt
t_ok "the waker says whom it woke" grep -q "/\* wakes kev_waits-$pid on CPU [0-9]* \*/" all.txt

# ---- the profile: of each function's time, on and off the CPU ----
"$FNTRACE" report -i k.data --stat --csv >stat.csv
t_eq "--csv: the columns" "function,hits,total_ns,self_ns,avg_ns,on_cpu_ns,off_cpu_ns" \
	"$(head -n 1 stat.csv)"
t_eq "--stat: on and off CPU make the total" "" \
	"$(awk -F, 'NR > 1 && $6 + $7 != $3' stat.csv)"
# Less the times nap() was preempted (R, R+): the program's clock is
# around its sleeps, and on a busy machine nap() may wait for a CPU
# anywhere else in it.
preempted=$(awk 'index($0, "nap() {") { in_ = 1 } index($0, "} /* nap */") { in_ = 0 }
	in_ && /=> .* R\+? \(/ { match($0, /[0-9.]+ us off CPU/); s += substr($0, RSTART, RLENGTH - 11) }
	END { print s + 0 }' main.txt)
kev_within "--stat: nap()'s time off CPU, the program's sleeps (less ${preempted} us preempted)" \
	"$(awk '$1 == "nap" { s += $2 } END { print s }' k.out)" \
	"$(awk -F, -v r="$preempted" '$1 == "nap" { print $7 / 1000 - r }' stat.csv)"
# pipe_read() waits for its thread's start and end too, besides its
# reads (which the program's clock agrees with, above): its time off CPU
# holds theirs.  Not the program's clock itself: that holds the time on
# the CPU inside read() too, long on a loaded machine.  The graph's
# times are to 10 ns, rounded: 100 ns allowed for up to 20 of them.
want=$(awk '{ s += $2 } END { printf "%d", s * 1000 }' pipe.rec)
got=$(awk -F, '$1 == "pipe_read" { print $7 }' stat.csv)
t_ok "--stat: pipe_read()'s time off CPU holds its reads' ($got >= $want ns)" \
	test "${got:-0}" -ge $((want - 100)) -a "$want" -gt 0
"$FNTRACE" report -i k.data --stat >stat.txt
t_ok "--stat: the table's columns" grep -qE '^  Function .* Self +On CPU +Off CPU$' stat.txt

# ---- system calls inside the function that made them, exactly ----
# 100 getppid in each many_getppid(), in main and in the thread of
# in_thread(); none anywhere else.
t_eq "getppid: every one inside many_getppid()" "400 0" "$(awk '
	/ getppid\(/ { if (inside) n++; else out++ }
	/many_getppid\(\) \{/ { inside = 1 } /\} \/\* many_getppid \*\// { inside = 0 }
	END { print n + 0, out + 0 }' all.txt)"
t_eq "getppid: in main, 200" 200 "$(kev_calls main.txt getppid)"
# --time-range: the kernel's events inside it only.  The first 10 ms are
# the first nap's: no getppid, its clock_nanosleep.
"$FNTRACE" report -i k.data --time-range 0~10ms -O nocpu -O noproc --tid "$pid" >range.txt
t_eq "--time-range: no getppid in the first 10 ms" 0 "$(kev_calls range.txt getppid)"
t_eq "--time-range: the first nap's sleep" 1 "$(kev_calls range.txt clock_nanosleep)"

# The counts strace -f -c gives for the same program, where they do not
# depend on the timing.
if command -v strace >/dev/null; then
	strace -f -c -o strace.txt ./kev_waits 2 >/dev/null
	for call in getppid clone3 clock_nanosleep pipe2; do
		t_eq "$call: as many as strace -f -c counts" \
			"$(awk -v c="$call" '$NF == c { print $4 }' strace.txt)" \
			"$(kev_calls all.txt "$call")"
	done
else
	t_fail "strace" "not installed (scripts/deps.sh)"
fi

# ---- -F nap: threads with no traced call show their kernel events all
# the same, in time order among the others' ----
"$FNTRACE" record -F nap -e sched -e syscalls -o fnap.data -- ./kev_waits 1 >/dev/null 2>&1
kev_graph fnap.data >fnap.txt
"$FNTRACE" report -i fnap.data -O nocpu >fnap_tasks.txt
t_eq "-F nap: every getppid shown, main's and its thread's" 200 "$(kev_calls fnap.txt getppid)"
t_ok "-F nap: a thread without calls named <...>" \
	grep -qE '^ *<\.\.\.>-[0-9]+ +\|.* clock_nanosleep\(' fnap_tasks.txt
t_ok "-F nap: the writer's write, then the read it ends" awk '
	/<\.\.\.>-[0-9]+ .*\| +write\(4, / { w = NR }
	/\} \/\* read = 1 \*\// && !r { r = NR }
	END { exit !(w && r && w < r) }' fnap_tasks.txt

# ---- the function tracer's view: the kernel's events as the kernel's
# trace file prints them, each after the function hit that made it ----
"$FNTRACE" record -t function -e sched -e syscalls -o tf.data -- ./kev_waits 1 >/dev/null 2>&1
"$FNTRACE" report -i tf.data >tf.txt
t_eq "function: each getppid after many_getppid's hit, on its thread" "200 0" "$(awk '
	{ split($1, a, "-"); tid = a[length(a)] }
	/: sys_enter: getppid\(/ { if (last[tid] == "many_getppid") n++; else out++; next }
	/: (sys_enter|sys_exit|sched_switch|sched_waking|page_fault_user): / { next }
	{ last[tid] = $5 }
	END { print n + 0, out + 0 }' tf.txt)"
t_ok "function: a switch in the kernel's words" \
	grep -qE ': sched_switch: prev_comm=kev_waits prev_pid=[0-9]+ prev_state=S ==> next_comm=.* next_pid=[0-9]+$' tf.txt
t_ok "function: a wake-up in the kernel's words" \
	grep -qE ': sched_waking: comm=kev_waits pid=[0-9]+ target_cpu=[0-9]{3}$' tf.txt

# ---- -e syscalls:NAMES: only those, filtered by the kernel ----
"$FNTRACE" record -e syscalls:getppid,pipe2 -o f.data -- ./kev_waits 1 >/dev/null 2>f.err
t_eq "syscalls:getppid,pipe2: exit status" 0 "$?"
"$FNTRACE" info -i f.data >finfo.txt
t_ok "syscalls:getppid,pipe2: exactly 201 calls, no switches, as asked" \
	grep -qE '^kernel events +201 system calls \(201 returned\), 0 context switches, .*\(-e syscalls:getppid,pipe2\)$' finfo.txt
kev_graph f.data >f.txt
t_eq "syscalls:getppid,pipe2: no other call" "" \
	"$(grep -E '^[^|]*\|  *[a-z_0-9]+\(' f.txt | grep -vE ' (getppid|pipe2)\(|[a-z_]+\(\)' | head -n 3)"

# ---- the Chrome export: each system call a complete event inside the
# call that made it, each time off the CPU too ----
"$FNTRACE" export -i k.data -f chrome -o k.json
t_eq "chrome: exit status" 0 "$?"
t_eq "chrome: getppid inside many_getppid, nap's sleeps inside nap" "400 0 2" "$(python3 - k.json <<'PY'
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
spans = {}	# (tid, name): [(begin, end)]
open_ = {}
for e in events:
    key = (e["tid"], e.get("name"))
    if e["ph"] == "B":
        open_.setdefault(key, []).append(e["ts"])
    elif e["ph"] == "E":
        spans.setdefault(key, []).append((open_[key].pop(), e["ts"]))
def inside(e, name):
    return any(b <= e["ts"] and e["ts"] + e["dur"] <= end
               for b, end in spans.get((e["tid"], name), []))
calls = [e for e in events if e.get("cat") == "syscall" and e["name"] == "getppid"]
naps = [e for e in events if e.get("cat") == "sched" and e["ph"] == "X"
        and e["name"] == "off CPU: S" and inside(e, "nap")]
print(sum(inside(e, "many_getppid") for e in calls),
      sum(not inside(e, "many_getppid") for e in calls), len(naps))
PY
)"

# ---- folded stacks (and the flame graph): system calls and times off
# the CPU as frames below the calls, which split their self time and add
# none ----
"$FNTRACE" export -i k.data -f folded >k.folded
t_eq "folded: the stacks add up to the outermost calls, as without -e" \
	"$("$FNTRACE" report -i k.data --stat --csv |
	   awk -F, '$1 == "main" || $1 == "writer" || $1 == "holder" || $1 == "worker" { s += $3 }
		    END { print s }')" \
	"$(awk '{ s += $NF } END { print s }' k.folded)"
kev_within "folded: nap's sleeps off the CPU, as the program measured them" \
	"$(awk '$1 == "nap" { s += $2 } END { print s }' k.out)" \
	"$(awk '$1 == "main;nap;[syscall" && $2 == "clock_nanosleep];[off" { print $NF / 1000 }' k.folded)"

# ---- the Perfetto export: the same slices among the calls, on each
# thread's sequence, by TrackEvent's rules (tests/data/perfetto_check.py) ----
"$FNTRACE" export -i k.data -f perfetto -o k.pftrace
t_eq "perfetto: exit status" 0 "$?"
protoc -I"$top/tests/data" --decode=perfetto_min.Trace perfetto_min.proto <k.pftrace >k.ptxt
t_eq "perfetto: valid by our .proto" 0 "$?"
python3 "$top/tests/data/perfetto_check.py" <k.ptxt >k.facts
t_eq "perfetto: TrackEvent's rules hold (every slice nests and ends)" 0 "$?"
grep ERROR k.facts | head -n 3
t_ok "perfetto: system calls and times off CPU named" \
	grep -qE '^names .*,getppid,.*off CPU: S' k.facts
t_eq "perfetto: their annotations" "call next ret state woken_by" \
	"$(sed -n 's/^annotation //p' k.facts | xargs)"
# Perfetto's own thread state track: each time off the CPU there is one
# of the "off CPU" slices, to the nanosecond, from the same switches
# (whose times kev_compare held to the program's clock), the state it
# left in the same; the pipe's and the mutex's waits (woken by another
# thread of the program) go through Runnable.
t_ok "perfetto: the main thread's states, Running and sleeping" \
	grep -qE "^states $pid D?.*R=[1-9][0-9]* Running=[1-9][0-9]* S=[1-9]" k.facts
t_eq "perfetto: every span off the CPU in the state tracks is an off CPU slice" \
	"$(awk '$1 == "offslice" { print $2, $3, $4 }' k.facts | sort)" \
	"$(awk '$1 == "off" { print $2, $3, $4 }' k.facts | sort)"
t_ok "perfetto: the program's waits made Runnable by their wakers (pipe, mutex: 4)" \
	test "$(awk -v p="$pid" '$1 == "off" && $2 == p && $3 > 5000000 && $4 == "S" &&
		$5 == "woken"' k.facts | wc -l)" -ge 4

# ---- -e faults: the user page faults, where they were taken ----
"$FNTRACE" record -e faults -o pf.data -- ./kev_waits 1 >/dev/null 2>pf.err
t_eq "faults: exit status" 0 "$?"
"$FNTRACE" info -i pf.data >pfinfo.txt
t_ok "faults: counted, and nothing else" \
	grep -qE '^kernel events +0 system calls \(0 returned\), 0 context switches, 0 wake-ups, [1-9][0-9]* page faults \(-e faults\)$' pfinfo.txt
kev_graph pf.data >pf.txt
t_eq "faults: a comment each, as many as info counts" \
	"$(sed -n 's/.* \([0-9]*\) page faults .*/\1/p' pfinfo.txt)" \
	"$(grep -c '/\* page fault at 0x[0-9a-f]*, ip 0x[0-9a-f]*, error 0x[0-9a-f]* \*/$' pf.txt)"

# ---- usage ----
t_error "-e bogus: refused" 2 "^fntrace record: -e bogus: no such event group" \
	"$FNTRACE" record -e bogus -o u.data -- ./kev_waits
t_error "-e syscalls:nosuch: refused" 2 "^fntrace record: -e syscalls:nosuch: no such system call" \
	"$FNTRACE" record -e syscalls:nosuch -o u.data -- ./kev_waits
t_error "-e sched:x: refused" 2 "^fntrace record: -e sched:x: only syscalls takes names" \
	"$FNTRACE" record -e sched:x -o u.data -- ./kev_waits
t_error "-e with --max-size: refused" 2 "^fntrace record: -e is not recorded with --max-size yet" \
	"$FNTRACE" record -e sched --max-size=1M -o u.data -- ./kev_waits
t_error "live -e: refused" 2 "^fntrace live: -e: the kernel's events are not shown live yet" \
	"$FNTRACE" live -e sched -- ./kev_waits

# ---- without -e, a data directory reads as it always did ----
"$FNTRACE" record -o plain.data -- ./kev_waits 1 >/dev/null 2>plain.err
t_ok "without -e: no kevents file" test ! -e plain.data/kevents
t_eq "without -e: nothing said of them" "" "$(grep -i kernel plain.err)"
t_eq "without -e: info says nothing of them" "" "$("$FNTRACE" info -i plain.data | grep -i kernel)"
t_eq "without -e: the report neither" "" "$(kev_graph plain.data | grep -E 'kernel|off CPU| getppid\(')"
t_eq "without -e: no kernel frames in the folded stacks" "" \
	"$("$FNTRACE" export -i plain.data -f folded | grep -E '\[(syscall|off CPU)')"
t_eq "without -e: the profile's columns as ever" "function,hits,total_ns,self_ns,avg_ns" \
	"$("$FNTRACE" report -i plain.data --stat --csv | head -n 1)"
