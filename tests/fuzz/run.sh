#!/bin/sh
# Run the recordmcount fuzzer: tests/fuzz/run.sh FUZZER OUTDIR SECONDS
# Seeds: the test programs compiled with -pg by every compiler present,
# processed and not, so that mutations start from real objects of each
# architecture.  The log is OUTDIR/fuzz-0.log; a crashing input is saved
# as OUTDIR/crash-* (and the run stops).
set -eu
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") out=$2 secs=$3	# run from $out
top=$(cd "$(dirname "$0")/../.." && pwd)
seeds=$out/seeds corpus=$out/corpus
mkdir -p "$seeds" "$corpus"

seed() {	# seed NAME CC FLAGS...
	name=$1 cc=$2; shift 2
	command -v "$cc" >/dev/null 2>&1 || return 0
	"$cc" "$@" -pg -c -o "$seeds/$name.o" "$top/tests/progs/rmc_lib.c" 2>/dev/null || return 0
	cp "$seeds/$name.o" "$seeds/$name-nop.o"
	"$top/build/fntrace-recordmcount" --nop "$seeds/$name-nop.o" 2>/dev/null || true
}
seed x86_64 gcc -O2 -ffunction-sections
seed x86_64-clang clang -O0
seed i386 i686-linux-gnu-gcc -O2
seed aarch64 aarch64-linux-gnu-gcc -O2 -ffunction-sections
seed riscv64 riscv64-linux-gnu-gcc -O0
seed mips mips-linux-gnu-gcc -O2
seed mipsel mips-linux-gnu-gcc -EL -O2 -fno-pic -mno-abicalls
# Linked images for --image: shared objects (no C library needed) with
# their relocations kept, laid out small.
image_seed() {	# image_seed NAME CC
	command -v "$2" >/dev/null 2>&1 || return 0
	"$2" -O2 -pg -fPIC -shared -nostdlib -Wl,-q,-z,noseparate-code,-z,max-page-size=4096 \
		-o "$seeds/$1.so" "$top/tests/progs/rmc_lib.c" 2>/dev/null || true
}
image_seed x86_64-image gcc
image_seed i386-image i686-linux-gnu-gcc
image_seed aarch64-image aarch64-linux-gnu-gcc
image_seed riscv64-image riscv64-linux-gnu-gcc
# Images linked from recordmcount's objects: __fntrace_funcs read in place.
functable_seed() {	# functable_seed NAME CC
	command -v "$2" >/dev/null 2>&1 || return 0
	"$2" -O2 -pg -fPIC -c -o "$seeds/$1.o" "$top/tests/progs/rmc_lib.c" 2>/dev/null &&
		"$top/build/fntrace-recordmcount" --nop "$seeds/$1.o" 2>/dev/null &&
		"$2" -shared -nostdlib -Wl,-z,noseparate-code,-z,max-page-size=4096 \
			-o "$seeds/$1.so" "$seeds/$1.o" 2>/dev/null || true
}
functable_seed x86_64-functable gcc
functable_seed aarch64-functable aarch64-linux-gnu-gcc
cp "$seeds"/*.o "$seeds"/*.so "$top"/tests/fuzz/regressions/*.bin "$corpus"/ 2>/dev/null || true

cd "$out"
"$bin" -max_total_time="$secs" -jobs=1 -workers=1 -max_len=16384 \
	-artifact_prefix="$out/" "$corpus" "$seeds" >/dev/null 2>&1 || true
tail -n 5 "$out/fuzz-0.log"
if ls "$out"/crash-* "$out"/leak-* "$out"/timeout-* >/dev/null 2>&1; then
	echo "fuzz: the fuzzer found a failing input in $out" >&2
	exit 1
fi
