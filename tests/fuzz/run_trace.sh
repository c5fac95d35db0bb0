#!/bin/sh
# Run the trace fuzzer: tests/fuzz/run_trace.sh FUZZER OUTDIR SECONDS
# Seeds: real recordings (function_graph with -A/-R, --auto-args with
# structs, the function tracer, a forked child, whole calls of
# tracing_thresh), their chunks moved to
# pid 100, the process fuzz_trace.c describes.  The log is
# OUTDIR/fuzz-0.log; a crashing input is saved as OUTDIR/crash-* (and the
# run stops).
set -eu
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") out=$2 secs=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
fntrace=$top/build/fntrace
seeds=$out/trace-seeds corpus=$out/trace-corpus
mkdir -p "$seeds" "$corpus"

# as_pid100 IN OUT: every chunk's pid made 100 (header 16 bytes; a chunk
# is a 72-byte head, struct ft_chunk: pid first and used at 24, then its
# events).
as_pid100() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
at = 16
while at + 72 <= len(b):
    struct.pack_into('<I', b, at, 100)
    at += 72 + struct.unpack_from('<I', b, at + 24)[0]
open(sys.argv[2], 'wb').write(b)
PY
}

seed() {	# seed NAME PROGRAM FNTRACE-RECORD-OPTIONS...
	name=$1 prog=$2; shift 2
	"$fntrace" record -o "$seeds/$name.data" "$@" -- "$prog" >/dev/null 2>&1 || return 0
	as_pid100 "$seeds/$name.data/trace.dat" "$seeds/$name.dat"
}
gcc -O2 -g -pg -o "$seeds/args" "$top/tests/progs/args.c"
gcc -O2 -g -pg -o "$seeds/structs" "$top/tests/progs/struct_args.c"
gcc -O2 -g -pg -o "$seeds/fork" "$top/tests/progs/robust_fork.c" -lpthread 2>/dev/null || true
gcc -O2 -g -pg -I"$top/tests/progs" -o "$seeds/thresh" "$top/tests/progs/thresh.c"
seed args "$seeds/args" -A 'add3@arg1,arg2/x,arg3/u8' -R 'add3@retval/i32' \
	-A 'greet@arg1/s,arg2' -A 'area@farg1,farg2' -R 'area@retval/f' -A 'outer@arg1,arg2/s'
seed structs "$seeds/structs" -a
seed function "$seeds/args" -t function
seed thresh "$seeds/thresh" --tracing-thresh=1000
[ -x "$seeds/fork" ] && seed fork "$seeds/fork"
cp "$seeds"/*.dat "$corpus"/
cp "$top"/tests/fuzz/trace-regressions/*.dat "$corpus"/ 2>/dev/null || true

cd "$out"
"$bin" -max_total_time="$secs" -rss_limit_mb=2048 -max_len=65536 \
	-artifact_prefix="$out/" "$corpus" >"$out/fuzz-0.log" 2>&1 || true
grep -E '^#[0-9]+ +DONE|^Done' "$out/fuzz-0.log" | tail -n 2
if ls "$out"/crash-* "$out"/leak-* "$out"/timeout-* >/dev/null 2>&1; then
	echo "fuzz: the fuzzer found a failing input in $out" >&2
	exit 1
fi
