#!/bin/bash
# What attaching leaves in memory, on a process whose own memory does not
# move: pbzip2 -p2 (scripts/build-pbzip2.sh) waiting on a FIFO between
# pieces of input, its threads alive.  ATTACH_CYCLES (100) times: attach,
# function_graph on while it compresses 20 000 more lines, detach.  Prints
# RSS and VmSize before and after cycles 1, 2, 5, 10, 20, 50 and 100:
# what the first attach leaves (the runtime, its tables, the buffer's
# touched pages) must not grow after.  Run by hand; exits non-zero only
# if a step failed or the output is not the untraced one.
set -eu
export LC_ALL=C

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
FNTRACE=${FNTRACE:-$BUILD/fntrace}
CYCLES=${ATTACH_CYCLES:-100}
work=$(mktemp -d /tmp/fntrace-attach-steady.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"

pb=$("$top/scripts/build-pbzip2.sh" 2>build.log) || { tail -n 3 build.log; exit 1; }
feed() { seq 1 300000; for i in $(seq "$CYCLES"); do seq 1 20000; done; }
feed | "$pb" -p2 -b1 -c >want.bz2

mkfifo fifo
"$pb" -p2 -b1 -c <fifo >got.bz2 &
pid=$!
exec 3>fifo
seq 1 300000 >&3
sleep 1
mem() { awk '/^VmRSS:/ { r = $2 } /^VmSize:/ { v = $2 } END { print "RSS " r " kB, VmSize " v " kB" }' \
	"/proc/$pid/status"; }
echo "attach steady: before: $(mem)"
failed=0
for i in $(seq "$CYCLES"); do
	"$FNTRACE" attach $pid 2>>err.txt || failed=$((failed + 1))
	"$FNTRACE" ctl $pid current_tracer function_graph 2>>err.txt || failed=$((failed + 1))
	seq 1 20000 >&3
	sleep 0.05
	"$FNTRACE" detach $pid 2>>err.txt || failed=$((failed + 1))
	case $i in 1|2|5|10|20|50|"$CYCLES") echo "attach steady: after $i: $(mem)" ;; esac
done
exec 3>&-
status=0
wait $pid || status=$?
same=no
cmp -s want.bz2 got.bz2 && same=yes
echo "attach steady: exit $status, output identical to the untraced run: $same, failed steps: $failed"
[ "$same" = yes ] && [ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
