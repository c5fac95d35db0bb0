# Times of the test runs, for the summary tests/run.sh prints before its
# last line: where a make check's minutes go, so that a case grown slow
# is seen the day it grows.  Sourced by tests/run.sh; the runs (cases,
# unit tests, cross.sh's architecture runs, some at once) append to
# $TIMES one line each: wall milliseconds, CPU milliseconds, the name.
#
# CPU is user + system time of the run's processes, those the shell
# waited for (a daemon left to init is not counted): on a loaded machine
# it moves less than the wall time, and it is what a run costs the
# others beside it.

# t_now_ms: the time, in milliseconds.
t_now_ms() {
	date +%s%3N
}

# t_cpu: t_cpu_ms, the CPU time of this shell's waited-for children, in
# milliseconds.  `times` must run in this shell, not in a subshell (that
# would count its own children, none): its output goes through a file in
# $TMP (each of the runs at once has its own $TMP).
t_cpu() {
	local user sys
	times >"$TMP/.times"
	{ read -r user sys; read -r user sys; } <"$TMP/.times"
	t_cpu_ms=$(echo "$user $sys" | awk '
		function ms(t) { split(t, p, "m"); sub("s", "", p[2]); return (p[1] * 60 + p[2]) * 1000 }
		{ printf "%d\n", ms($1) + ms($2) }')
}

# t_start VAR: VAR is set to the start of a run, for t_took: "WALL CPU",
# in milliseconds.
t_start() {
	t_cpu
	eval "$1=\"$(t_now_ms) $t_cpu_ms\""
}

# t_took START NAME: NAME ran from START (t_start) until now.
t_took() {
	t_cpu
	printf '%s\t%s\t%s\n' "$(($(t_now_ms) - ${1% *}))" "$((t_cpu_ms - ${1#* }))" \
		"$2" >>"$TIMES"
}

# t_summary START: every run, slowest first, one line each (wall and CPU
# seconds), then the wall time since START (t_now_ms) and the CPU in all.
# cross.sh's runs are counted both one by one and in its own line (the
# case "cross"), and some of them ran at once: the times do not add up,
# and the total CPU counts each of cross.sh's runs once.
t_summary() {
	[ -s "$TIMES" ] || return 0
	echo "== every run, slowest first (seconds):"
	echo "    wall     cpu  run"
	sort -rn "$TIMES" | awk -F '\t' '{ printf "%8.1f%8.1f  %s\n", $1 / 1000, $2 / 1000, $3 }'
	awk -F '\t' -v ms="$(($(t_now_ms) - $1))" '
		$3 != "cross" { cpu += $2; n++ }
		END { printf "%8.1f%8.1f  in all, %d runs\n", ms / 1000, cpu / 1000, n }' "$TIMES"
}
