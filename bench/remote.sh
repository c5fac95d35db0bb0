#!/bin/bash
# record --host against a local recording (docs/design.md, *Remote
# recording*): the same run, at a steady rate of trace (RATE_MB, default
# 100 MB/s, for RUN_SECONDS, default 5), recorded to the local disk and sent
# to 'fntrace listen' on loopback.  For each: the events recorded, the
# events lost (the program's buffers full) and dropped (the recorder's
# storage, disk or stream, refused them), the trace's size, and the rate
# it went at.  The target: --host loses and drops no more than the local
# disk.  Not a timed test: run it alone (BUILD, or ./build).
set -eu
export LC_ALL=C
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
FNTRACE=${FNTRACE:-$BUILD/fntrace}
RATE_MB=${RATE_MB:-100}
RUN_SECONDS=${RUN_SECONDS:-5}
OUT=$(mktemp -d /tmp/fntrace-bench-remote.XXXXXX)
trap 'kill $listener 2>/dev/null; rm -rf "$OUT"' EXIT
listener=

gcc -pg -O2 -o "$OUT/rate" "$top/bench/remote_rate.c" -lpthread
cd "$OUT"

# info_value DIR KEY: a number from 'fntrace info' (events, lost, dropped).
info_value() {
	"$FNTRACE" info -i "$1" | awk -v k="$2" '$1 == k { print $2 + 0; f = 1; exit }
		END { if (!f) print 0 }'
}

# The bytes a call of outer() (and its inner()) costs, from a short run
# as fast as it goes.
"$FNTRACE" record -o calib.data -- ./rate 0.3 0 2>/dev/null
calls=$("$FNTRACE" report -i calib.data --stat --csv | awk -F, '$1 == "outer" { print $2 }')
bytes=$(stat -c %s calib.data/trace.dat)
per_call=$(( bytes / calls ))
per_ms=$(( RATE_MB * 1000000 / 1000 / per_call ))
echo "bench: $per_call bytes a call of outer (function_graph); $per_ms a ms for $RATE_MB MB/s"

# report NAME DIR SECONDS: one line.
report() {
	local size events lost dropped
	size=$(stat -c %s "$2/trace.dat")
	events=$(info_value "$2" events)
	lost=$(info_value "$2" lost)
	dropped=$(info_value "$2" dropped)
	awk -v n="$1" -v s="$size" -v e="$events" -v l="$lost" -v d="$dropped" -v t="$3" \
		'BEGIN { printf "%-8s %12d events %8.1f MB %7.1f MB/s  lost %d  dropped %d\n",
			 n, e, s / 1e6, s / 1e6 / t, l, d }'
}

t0=$EPOCHREALTIME
"$FNTRACE" record -o local.data -- ./rate "$RUN_SECONDS" "$per_ms" 2>local.err
local_s=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')

"$FNTRACE" listen --bind 127.0.0.1 --port 0 -o recv --once >recv.port 2>recv.err &
listener=$!
for i in $(seq 100); do
	port=$(awk '{ print $4; exit }' recv.port 2>/dev/null)
	[ -n "$port" ] && break
	sleep 0.1
done
t0=$EPOCHREALTIME
"$FNTRACE" record --host "127.0.0.1:$port" -- ./rate "$RUN_SECONDS" "$per_ms" 2>remote.err
remote_s=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')
wait "$listener" || true
listener=
dir=$(ls -d recv/*-rate-* | head -n 1)

report local local.data "$local_s"
report --host "$dir" "$remote_s"
l_loss=$(( $(info_value local.data lost) + $(info_value local.data dropped) ))
r_loss=$(( $(info_value "$dir" lost) + $(info_value "$dir" dropped) ))
if [ "$r_loss" -le "$l_loss" ]; then
	echo "bench: --host lost no more than the local disk ($r_loss <= $l_loss events)"
else
	echo "bench: --host lost more than the local disk ($r_loss > $l_loss events)"
fi
