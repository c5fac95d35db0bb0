#!/bin/bash
# fntrace-recordmcount on one object with 100 000 functions compiled with
# -pg (called by bench/run.sh, or alone). Target: under 1 s, the median of
# 5 runs, each on a fresh copy of the object. The object takes a minute or
# two to compile and is kept in $BUILD/bench between runs.
set -eu
export LC_ALL=C   # EPOCHREALTIME with a '.' separator

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
OUT=$BUILD/bench
RMC=${RMC:-$BUILD/fntrace-recordmcount}
FUNCS=100000
obj=$OUT/rmc-$FUNCS.o

mkdir -p "$OUT"
if [ ! -s "$obj" ]; then
	echo "bench: compiling $FUNCS functions with -pg" >&2
	awk -v n=$FUNCS 'BEGIN { for (i = 0; i < n; i++)
		printf "int f%d(int x) { return x + %d; }\n", i, i }' >"$OUT/rmc-$FUNCS.c"
	gcc -O0 -pg -c -o "$obj.tmp" "$OUT/rmc-$FUNCS.c" && mv "$obj.tmp" "$obj"
fi

times=()
for run in 1 2 3 4 5; do
	cp "$obj" "$OUT/rmc-work.o"
	t0=${EPOCHREALTIME/./}
	"$RMC" "$OUT/rmc-work.o"
	t1=${EPOCHREALTIME/./}
	times+=($((t1 - t0)))
done
sites=$("$RMC" --list "$obj" | wc -l)
size=$(readelf -SW "$OUT/rmc-work.o" | awk '$2 == "__mcount_loc" { print $6 }')
entries=$((16#${size:-0} / 8))
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
secs=$(awk -v us="$median" 'BEGIN { printf "%.3f", us / 1e6 }')
result=PASS
[ "$median" -lt 1000000 ] || result=MISS
[ "$sites" -eq $FUNCS ] && [ "$entries" -eq $FUNCS ] || result="WRONG"
echo
echo "recordmcount: one object, $FUNCS -pg functions: $sites sites, $entries entries"
printf '  %-26s %10s %10s   %s\n' "median of 5 runs" "$secs s" "< 1 s" "$result"
[ "$result" = PASS ] || [ "$result" = MISS ]
