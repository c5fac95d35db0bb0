#!/bin/sh
# Count every function entry of a -pg (or -pg -mfentry) x86_64 program
# exactly, with callcount.so preloaded, and write "function,hits" CSV lines
# (the columns fntrace's report starts with) to CSV. The program's own
# output is left alone. Use it to tell which tracer is right when uftrace
# and fntrace disagree.
# Usage: tests/real/callcount.sh CSV PROG [ARGS...]
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CACHE=${FNTRACE_CACHE:-$top/cache}
SO=$CACHE/build/callcount.so

die() { echo "callcount.sh: $*" >&2; exit 1; }

build_so() {
	# Rebuild only when callcount.c is newer (find: test -nt is not POSIX).
	[ -f "$SO" ] && [ -z "$(find "$here/callcount.c" -newer "$SO")" ] && return 0
	mkdir -p "$(dirname "$SO")"
	gcc -O2 -Wall -shared -fPIC -mgeneral-regs-only -o "$SO" "$here/callcount.c" -ldl ||
		die "cannot build $SO"
}

# Turn "OFFSET COUNT" lines into "function,hits": for each offset, the
# function symbol at or below it. Addresses are padded to 16 hex digits so
# that one plain sort merges symbols (key 0) and counts (key 1) in order.
symbolize() {
	prog=$1 raw=$2
	{
		nm --defined-only "$prog" | awk '$2 ~ /^[tTwW]$/ { print pad($1), 0, $3 }
			function pad(h) { h = sprintf("%16s", h); gsub(/ /, "0", h); return h }'
		awk '!/^#/ { print pad($1), 1, $2 }
			function pad(h) { h = sprintf("%16s", h); gsub(/ /, "0", h); return h }' "$raw"
	} | LC_ALL=C sort -k1,1 -k2,2n |
		awk '$2 == 0 { name = $3; next }
		     name == "" { name = "?" $1 }
		     { hits[name] += $3 }
		     END { for (n in hits) print n "," hits[n] }' | LC_ALL=C sort
}

main() {
	[ $# -ge 2 ] || die "usage: callcount.sh CSV PROG [ARGS...]"
	csv=$1; shift
	build_so
	raw=$csv.raw
	rm -f "$raw"
	rc=0
	CALLCOUNT_OUT=$raw LD_PRELOAD=$SO "$@" || rc=$?
	[ -f "$raw" ] || die "no counts written (did $1 run?)"
	grep -q '^# lost' "$raw" && die "hash table full: counts incomplete"
	{ echo "function,hits"; symbolize "$1" "$raw"; } >"$csv"
	rm -f "$raw"
	return $rc
}

main "$@"
