#!/bin/bash
# Attach and detach, ATTACH_CYCLES times (100), during one run of xz -T2
# built from Debian's sources (scripts/build-xz.sh): each time every
# function traced with function_graph for a moment, then detached.
# Reports whether the output is the untraced one, whether every attach
# had every site (available_filter_functions as fntrace list has them), and
# the process's RSS before the first attach, after the first detach and
# after the last, beside the RSS of the same xz run untraced beside it at
# that moment (xz's own dictionaries grow while it works: what
# attaching adds must not grow without bound).  Run by hand (it builds
# xz from Debian's sources); exits non-zero only if something went wrong.
set -eu
export LC_ALL=C

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
FNTRACE=${FNTRACE:-$BUILD/fntrace}
CYCLES=${ATTACH_CYCLES:-100}
work=$(mktemp -d /tmp/fntrace-attach-cycles.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"

xz=$("$top/scripts/build-xz.sh" 2>build.log) || { tail -n 3 build.log; exit 1; }
# Enough work for every cycle: xz -9 on 40 MB keeps two threads busy.
awk 'BEGIN { srand(11); for (i = 0; i < 1200000; i++)
	printf "%d line %d of the attach cycles %x\n", i, int(rand() * 1000), i * 2654435761 % 65536 }' >input
"$xz" -T2 -9 -c input >want.xz

rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

sites=$("$FNTRACE" list "$xz" | wc -l)

"$xz" -T2 -9 -c input >/dev/null &
plain=$!
"$xz" -T2 -9 -c input >got.xz &
pid=$!
sleep 0.5
rss_start=$(rss $pid)
short=0 failed=0 done=0 start=$EPOCHREALTIME
for i in $(seq "$CYCLES"); do
	kill -0 $pid 2>/dev/null || break
	if ! "$FNTRACE" attach $pid 2>>err.txt; then failed=$((failed + 1)); continue; fi
	n=$("$FNTRACE" ctl $pid available_filter_functions 2>>err.txt | wc -l)
	[ "$n" -eq "$sites" ] || short=$((short + 1))
	"$FNTRACE" ctl $pid current_tracer function_graph 2>>err.txt || failed=$((failed + 1))
	sleep 0.05
	"$FNTRACE" detach $pid 2>>err.txt || failed=$((failed + 1))
	[ $i -eq 1 ] && rss_first=$(rss $pid)
	done=$i
done
rss_end=$(rss $pid 2>/dev/null || echo 0)
rss_plain=$(rss $plain 2>/dev/null || echo 0)
kill $plain 2>/dev/null || :
elapsed=$(echo "$EPOCHREALTIME $start" | awk '{ printf "%.1f", $1 - $2 }')
status=0
wait $pid || status=$?
same=no
cmp -s want.xz got.xz && same=yes

echo "attach cycles: $done of $CYCLES done in $elapsed s while xz -T2 -9 ran (exit $status)"
echo "attach cycles: output identical to the untraced run: $same"
echo "attach cycles: attaches with fewer than all $sites sites: $short; failed steps: $failed"
echo "attach cycles: RSS ${rss_start} kB before, ${rss_first:-?} kB after the first detach, ${rss_end} kB after the last (untraced xz then: ${rss_plain} kB)"
[ "$same" = yes ] && [ "$status" -eq 0 ] && [ "$short" -eq 0 ] && [ "$failed" -eq 0 ] &&
	[ "$done" -eq "$CYCLES" ]
