# record -p: a running process, recorded for exactly the time asked.

t_build gcc-pg -O2 spin "$top/tests/progs/spin.c"
"$FNTRACE" run -- ./spin 20 >/dev/null 2>&1 &
pid=$!
for i in $(seq 50); do [ -S "/tmp/fntrace-$(id -u)/$pid" ] && break; sleep 0.1; done

# recorded_ms DIR: info's "recorded for", in milliseconds.
recorded_ms() {
	"$FNTRACE" info -i "$1" | awk '$1 == "recorded" && $2 == "for" { printf "%d", $3 * 1000 }'
}

for d in 0.5 1.25; do
	start=$(date +%s%N)
	"$FNTRACE" record -p "$pid" -d "$d" -o "d$d" 2>/dev/null
	rc=$?
	wall=$(( ($(date +%s%N) - start) / 1000000 ))
	want=$(awk -v d="$d" 'BEGIN { printf "%d", d * 1000 }')
	t_eq "-d $d: exit status" 0 "$rc"
	got=$(recorded_ms "d$d")
	t_ok "-d $d: recorded for $d s (info says ${got} ms)" \
		test "${got:-0}" -ge "$want" -a "${got:-0}" -lt $((want + 5000))
	t_ok "-d $d: over when asked (${wall} ms)" test "$wall" -ge "$want"
done

for bad in 0 -1 x 1e99; do
	"$FNTRACE" record -p "$pid" -d "$bad" -o bad 2>err.txt
	t_eq "-d $bad: refused" 2 "$?"
	t_eq "-d $bad: one line" 1 "$(wc -l <err.txt)"
done
"$FNTRACE" record -b 0 -o bad -- ./spin 1 2>err.txt
t_eq "-b 0: refused" 2 "$?"
t_eq "-b 0: nothing written" "" "$(ls -d bad* 2>/dev/null)"
kill "$pid"; wait
