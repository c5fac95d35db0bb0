# record --overwrite -e: the flight recorder keeps the kernel's events of
# the traced threads in a bounded memory beside the function ring, and
# each snapshot gets the window of them its calls cover, none later than
# the snapshot's copy.  kev_waits sleeps, reads a pipe, waits for a
# mutex and makes 100 getppid calls in main and in a thread, per round;
# a trigger takes a snapshot after the first round's last call returns.  kev_storm makes far
# more getppid calls than the bound holds: memory stays bounded, and the
# snapshot says what was overwritten.  record -p --overwrite -e too.

. "$top/tests/kev_lib.sh"
if ! kev_tracefs; then
	t_skip "kernel events" "no tracefs, and not root to mount it"
	return 0
fi
trap kev_untracefs EXIT

t_build gcc-pg -O2 kev_waits "$top/tests/progs/kev_waits.c"
t_build gcc-pg -O2 kev_storm "$top/tests/progs/kev_storm.c"

# kev_window DIR: "COUNT FIRST LAST TAKEN" of DIR/kevents' records
# (CLOCK_MONOTONIC ns) and DIR's snapshot_taken.
kev_window() {
	python3 - "$1" <<'PY'
import struct, sys
d = sys.argv[1]
data = open(d + "/kevents", "rb").read()
assert data[:18] == b"fntrace kevents 1\n"
# The kernel's events: not the runtime's own work's windows (kind 8).
times = [struct.unpack_from("<Q", data, at)[0] for at in range(32, len(data) - 79, 80)
         if struct.unpack_from("<H", data, at + 16)[0] != 8]
taken = next(l.split()[1] for l in open(d + "/info") if l.startswith("snapshot_taken:"))
print(len(times), min(times, default=0), max(times, default=0), taken)
PY
}

# in_many DIR: "INSIDE OUTSIDE": the getppid calls of DIR's report inside
# many_getppid() and elsewhere.
in_many() {
	kev_graph "$1" | awk '
	/ getppid\(/ { if (inside) n++; else out++ }
	/many_getppid\(\) \{/ { inside = 1 } /\} \/\* many_getppid \*\// { inside = 0 }
	END { print n + 0, out + 0 }'
}

# ---- a snapshot mid-run (a trigger) and the end's ----
"$FNTRACE" record --overwrite -e sched -e syscalls --trigger=in_thread:snapshot_if_longer:1:1 \
	-o fl.data -- ./kev_waits 2 >k.out 2>k.err
t_eq "exit status" 0 "$?"
t_ok "two snapshots: the trigger's and the end's" \
	test -f fl.data/snapshot.1/kevents -a -f fl.data/snapshot.2/kevents
t_eq "... and no more" "" "$(ls -d fl.data/snapshot.3 2>/dev/null)"
t_ok "the recorder's line on them, none overwritten" \
	grep -qE '^fntrace: kernel events: [1-9][0-9]* system calls, .*; 0 lost; 0 overwritten \(the newest 209715 kept in memory\)$' k.err
t_eq "snapshot 1 (after round 1): every getppid inside many_getppid()" "200 0" \
	"$(in_many fl.data/snapshot.1)"
t_eq "snapshot 2 (the end): both rounds'" "400 0" "$(in_many fl.data/snapshot.2)"
for n in 1 2; do
	d=fl.data/snapshot.$n
	read -r count first last taken <<-EOF
	$(kev_window "$d")
	EOF
	t_ok "snapshot $n: kernel events ($count)" test "${count:-0}" -gt 400
	t_ok "snapshot $n: none later than snapshot_taken ($last <= $taken)" \
		test "${last:-1}" -le "${taken:-0}"
	"$FNTRACE" info -i "$d" >info.$n
	t_ok "snapshot $n: info counts them" \
		grep -qE '^kernel events +[1-9][0-9]* system calls \([0-9]+ returned\), [1-9][0-9]* context switches, [1-9][0-9]* wake-ups, 0 page faults \(-e sched,syscalls\)$' info.$n
	t_ok "snapshot $n: info: none lost" grep -qE '^kernel lost +0 events$' info.$n
	t_ok "snapshot $n: info: none overwritten" \
		grep -qE '^kernel window +every kernel event since the recording began kept' info.$n
done
kev_graph fl.data/snapshot.1 >graph.1
# The runtime's control thread waits in epoll_wait; the program never
# calls it: fntrace's own system calls are not the program's.
t_eq "the control thread's system calls left out" 0 "$(grep -c 'epoll_wait' graph.1)"
# The window begins with the snapshot's first call (its earliest
# chunk's first event), not with the program's start-up.
first_call=$(awk -v t="$(kev_window fl.data/snapshot.1 | cut -d' ' -f4)" '
	/^the window/ { on = 1; next } on && /^$/ { on = 0 }
	on && $1 ~ /^[0-9]+$/ && (m == "" || $4 + 0 < m) { m = $4 + 0 }
	END { printf "%.0f", t + m * 1e9 }' info.1)
first_kev=$(kev_window fl.data/snapshot.1 | cut -d' ' -f2)
t_ok "snapshot 1: no kernel event before its first call ($first_kev >= $first_call - 1 us)" \
	test "$first_kev" -ge $((first_call - 1000))
t_eq "snapshot 1: no start-up system call (execve, arch_prctl, set_tid_address)" 0 \
	"$(grep -cE '\| +(execve|arch_prctl|set_tid_address)\(' graph.1)"

t_ok "snapshot 1: the report's header counts them" \
	grep -q '^# kernel events: [1-9][0-9]* system calls' graph.1
t_ok "snapshot 1: a sleep's switch banner" \
	grep -qE "=> .* S \(sleeping\) [0-9.]+ [um]?s off CPU" graph.1
t_ok "snapshot 1: nap's clock_nanosleep inside nap()" awk '
	/nap\(\) \{/ { in_ = 1 } in_ && / clock_nanosleep\(/ { ok = 1 } /\} \/\* nap \*\// { in_ = 0 }
	END { exit !ok }' graph.1
"$FNTRACE" report -i fl.data/snapshot.2 --stat --csv >stat.csv
t_eq "snapshot 2: --stat's On and Off CPU columns" \
	"function,hits,total_ns,self_ns,avg_ns,on_cpu_ns,off_cpu_ns" "$(head -n 1 stat.csv)"
t_ok "snapshot 2: nap() mostly off the CPU" \
	awk -F, '$1 == "nap" { exit !($7 > 30000000 && $7 > 10 * $6) }' stat.csv
"$FNTRACE" export -i fl.data/snapshot.2 -f folded >s2.folded
t_ok "snapshot 2: the folded stacks' kernel frames" \
	grep -q '^main;many_getppid;\[syscall getppid\] ' s2.folded
"$FNTRACE" export -i fl.data/snapshot.1 -f chrome -o s1.json
t_eq "snapshot 1: the Chrome export's system calls" 200 \
	"$(python3 -c 'import json, sys
print(sum(e.get("cat") == "syscall" and e["name"] == "getppid"
          for e in json.load(open(sys.argv[1]))["traceEvents"]))' s1.json)"

# ---- more than the bound holds: -b 1024 keeps 13107 kernel events ----
# kev_storm N hwm makes N + 1000 getppid calls, and 2 more for its
# parent's memory.
n=200000
"$FNTRACE" record --overwrite -b 1024 -e syscalls:getppid -o st.data -- ./kev_storm $n hwm \
	>st.out 2>st.err
t_eq "storm: exit status" 0 "$?"
lost=$(sed -n 's/^fntrace: kernel events: .*; \([0-9]*\) lost; .*/\1/p' st.err)
over=$(sed -n 's/^fntrace: kernel events: .*; \([0-9]*\) overwritten (the newest 13107 kept in memory)$/\1/p' st.err)
t_ok "storm: the recorder says how many the bound overwrote (${over:-?}, ${lost:-?} lost)" \
	test -n "$over" -a "${over:-0}" -ge $((2 * (n + 1002) - 13107 - ${lost:-0})) -a \
	"${over:-0}" -le $((2 * (n + 1002) - 13107 + ${lost:-0}))
t_eq "storm: the snapshot's kevents file: the bound's 13107 at most" 13107 \
	"$(kev_window st.data/snapshot.1 | cut -d' ' -f1)"
"$FNTRACE" info -i st.data/snapshot.1 >st.info
t_ok "storm: info says the kernel events begin later than the calls" \
	grep -qE "^kernel window +whole only from [0-9.]+ s before the snapshot, later than its calls \(from [0-9.]+ s before\): ${over:-x} older kernel events overwritten \(13107 kept at most\)$" st.info
t_ok "storm: info counts what the file holds" \
	grep -qE '^kernel events +65[0-9]{2} system calls \(65[0-9]{2} returned\)' st.info
# The recorder's peak memory grew by far less than the 32 MB those
# kernel events take: the bound's 1 MB, and room for the perf rings' pages
# the storm's CPUs fill (2 MB a CPU).
read -r _ before after <st.out
t_ok "storm: the recorder's memory bounded (VmHWM $before -> $after kB)" \
	test -n "$after" -a $((after - before)) -lt 12288

# ---- record -p --overwrite -e sched: a snapshot asked meanwhile, and
# the one when the recording stops ----
"$FNTRACE" run -- ./kev_waits 600 >run.out 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; kev_untracefs' EXIT
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" record -p "$pid" --overwrite -d 1.5 -e sched -o p.data 2>p.err &
rec=$!
sleep 0.8
"$FNTRACE" ctl "$pid" snapshot 1
wait $rec
t_eq "-p: exit status" 0 "$?"
t_ok "-p: the asked one and the stop's" test -f p.data/snapshot.1/kevents -a -f p.data/snapshot.2/kevents
t_ok "-p: the recorder's line on them" grep -qE '^fntrace: kernel events: 0 system calls, [1-9][0-9]* context switches' p.err
for n in 1 2; do
	d=p.data/snapshot.$n
	read -r count first last taken <<-EOF
	$(kev_window "$d")
	EOF
	t_ok "-p snapshot $n: none later than snapshot_taken ($last <= $taken)" \
		test "${count:-0}" -gt 0 -a "${last:-1}" -le "${taken:-0}"
	"$FNTRACE" info -i "$d" >pinfo.$n
	t_ok "-p snapshot $n: info counts the switches" \
		grep -qE '^kernel events +0 system calls \(0 returned\), [1-9][0-9]* context switches, .*\(-e sched\)$' pinfo.$n
	kev_graph "$d" >pgraph.$n
	t_ok "-p snapshot $n: the sleeps' switch banners" \
		grep -qE "=> .* S \(sleeping\) [0-9.]+ [um]?s off CPU" pgraph.$n
done
t_ok "-p snapshot 2: the recording's stop" grep -q "^why .*the recording stopped" pinfo.2
t_ok "-p: the process runs on" kill -0 "$pid"
