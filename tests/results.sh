# t_failed TEXT: a failure, said now and kept in $RESULTS ("fail TEXT",
# one line) for run.sh's recap of every failure just before its last
# line: a CI log that keeps only the head and the tail still names them.
# Sourced by tests/run.sh and tests/lib.sh.
t_failed() {
	echo "FAIL: $1"
	printf 'fail %s\n' "$(printf '%s' "$1" | head -c 300 | tr '\n' ' ')" >>"$RESULTS"
}
