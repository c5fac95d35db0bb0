# Wall times of the test runs, for the summary tests/run.sh prints before
# its last line: where a make check's minutes go, so that a case grown
# slow is seen the day it grows.  Sourced by tests/run.sh; the runs
# (cases, unit tests, cross.sh's architecture runs, some at once) append
# to $TIMES one line each: milliseconds, a tab, the run's name.

# t_now_ms: the time, in milliseconds.
t_now_ms() {
	date +%s%3N
}

# t_took START NAME: NAME ran from START (t_now_ms) until now.
t_took() {
	printf '%s\t%s\n' "$(($(t_now_ms) - $1))" "$2" >>"$TIMES"
}

# t_slowest N START: the N slowest runs, and the wall time since START.
# cross.sh's runs are counted both one by one and in its own line (the
# case "cross"), and some of them ran at once: the times do not add up.
t_slowest() {
	[ -s "$TIMES" ] || return 0
	echo "== the $1 slowest runs (seconds):"
	sort -rn "$TIMES" | head -n "$1" |
		awk -F '\t' '{ printf "%8.1f  %s\n", $1 / 1000, $2 }'
	awk -v ms="$(($(t_now_ms) - $2))" -v n="$(wc -l <"$TIMES")" \
		'BEGIN { printf "%8.1f  in all, %d runs\n", ms / 1000, n }'
}
