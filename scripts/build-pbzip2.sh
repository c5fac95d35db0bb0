#!/bin/sh
# Build pbzip2 from Debian's source package with fntrace's own compiler
# wrapper (fntrace c++), and print the binary's path: a real
# multi-threaded C++ program (a reader, a writer and -pN compressing
# threads around a queue) for attaching to while it works.
# Usage: scripts/build-pbzip2.sh
#
# Why pbzip2: three C++ files and the system's libbz2, built in seconds
# with its own Makefile, whose one-command compile-and-link is what
# fntrace c++ splits; its output is byte-for-byte deterministic whatever
# the threads' timing, so a traced run can be compared with cmp.
# Idempotent: nothing is rebuilt once the binary exists.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${FNTRACE_CACHE:-$top/cache}
out=$CACHE/build/pbzip2-pg
bin=$out/pbzip2

die() { echo "build-pbzip2.sh: $*" >&2; exit 1; }

if [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi
# The fntrace of the build under test (make check-sanitize's has its own).
fntrace=${FNTRACE:-${BUILD:-$top/build}/fntrace}
[ -x "$fntrace" ] || die "build fntrace first (make)"
[ -e /usr/include/bzlib.h ] || die "libbz2-dev is not installed"
src=$("$top/scripts/debsrc.sh" pbzip2) || die "cannot fetch pbzip2's sources"
# Built under a name of this process, then renamed: a parallel run never
# sees a half-built tree.
tmp=$out.tmp.$$
rm -rf "$tmp"
mkdir -p "$CACHE/build"
cp -r "$src" "$tmp"
make -C "$tmp" -s CXX="$fntrace c++" pbzip2 >"$tmp/make.log" 2>&1 ||
	die "make failed (see $tmp/make.log)"
[ -x "$tmp/pbzip2" ] || die "no pbzip2 after make"
rm -rf "$out"
mv -T "$tmp" "$out" 2>/dev/null || { rm -rf "$tmp"; [ -x "$bin" ] || die "cannot rename $tmp"; }
echo "$bin"
