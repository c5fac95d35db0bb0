#!/bin/sh
# Compare per-function call counts of uftrace and fntrace.
# Usage: tests/real/compare_counts.sh UFTRACE_TABLE FNTRACE_CSV [MAX]
#
# UFTRACE_TABLE: the output of
#     uftrace report -d DIR -f call -s call --no-pager
# i.e. two header lines ("Calls  Function", "=====  ====") then one
# "COUNT  NAME" line per function, the count right-aligned.
# FNTRACE_CSV: the output of `fntrace report -i DIR --stat --csv`, a header
# naming the columns (function,hits,...) then one row per function. Any CSV
# whose header has "function" first and a "hits" column will do (e.g. the
# output of tests/real/callcount.sh).
#
# A function missing on one side counts as 0 there. Rows of the same name
# are added up. Prints a one-line summary; if any count differs, prints up
# to MAX (default 10) differences, largest first, as
# "function uftrace fntrace", and exits 1. Exits 2 on unreadable input.
set -eu

die() { echo "compare_counts.sh: $*" >&2; exit 2; }

# "name count" lines from uftrace's table. The name is everything after the
# count, so names with spaces (C++) survive. uftrace also lists its events
# among the functions ("linux:schedule (pre-empted)" when the task was
# scheduled out): they are not function calls and are dropped.
parse_uftrace() {
	awk '
	/^ *[0-9]+  +[^ ]/ {
		line = $0
		sub(/^ *[0-9]+  +/, "", line)
		if (line ~ /^[a-z]+:[^:]/) next
		print line "\t" $1
		n++
	}
	END { if (n == 0) exit 1 }' "$1"
}

# "name count" lines from the CSV. The function column may itself contain
# commas (C++ names): the hits column is counted from the right, and the
# name is whatever precedes the columns that follow "function".
parse_csv() {
	awk -F, '
	NR == 1 {
		if ($1 != "function") exit 1
		for (i = 1; i <= NF; i++) if ($i == "hits") h = i
		if (!h) exit 1
		after = NF - h   # columns to the right of hits
		next
	}
	NF == 0 { next }
	{
		hi = NF - after
		name = $1
		for (i = 2; i < hi; i++) name = name "," $i
		if (name ~ /^".*"$/) { name = substr(name, 2, length(name) - 2); gsub(/""/, "\"", name) }
		print name "\t" $hi
		n++
	}
	END { if (n == 0 && !h) exit 1 }' "$1"
}

# Join both maps: print the summary, write the differences to $3 as
# "absdiff name uftrace fntrace" lines, exit 1 if there are any.
compare() {
	awk -F'\t' -v out="$3" '
	FNR == 1 { side++ }
	side == 1 { u[$1] += $2; seen[$1] = 1; ucalls += $2; next }
	{ f[$1] += $2; seen[$1] = 1; fcalls += $2 }
	END {
		for (k in seen) {
			nf++
			uu = k in u ? u[k] : 0
			ff = k in f ? f[k] : 0
			if (uu != ff) {
				d = uu - ff; if (d < 0) d = -d
				printf "%d\t%s\t%d\t%d\n", d, k, uu, ff > out
				ndiff++
			}
		}
		printf "%d functions: uftrace %d calls, fntrace %d calls, %d differ\n", \
			nf, ucalls, fcalls, ndiff
		exit ndiff ? 1 : 0
	}' "$1" "$2"
}

main() {
	[ $# -ge 2 ] || die "usage: compare_counts.sh UFTRACE_TABLE FNTRACE_CSV [MAX]"
	max=${3:-10}
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/cmpcounts.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	parse_uftrace "$1" >"$tmp/u" || die "no counts in uftrace table $1"
	parse_csv "$2" >"$tmp/f" || die "no function,hits CSV in $2"
	rc=0
	: >"$tmp/d"
	compare "$tmp/u" "$tmp/f" "$tmp/d" || rc=$?
	[ $rc -le 1 ] || die "comparison failed"
	if [ $rc -eq 1 ]; then
		printf '%-32s %12s %12s\n' function uftrace fntrace
		sort -t"$(printf '\t')" -k1,1nr -k2,2 "$tmp/d" | head -n "$max" |
			awk -F'\t' '{ printf "%-32s %12s %12s\n", $2, $3, $4 }'
	fi
	return $rc
}

main "$@"
