#!/bin/sh
# Build zlib from Debian's source package the way a user would build a
# project for tracing, with its own configure and Makefile and
# CC="fntrace cc", and print the build directory (libz.a, libz.so.*,
# example, minigzip and their shared-library twins examplesh, minigzipsh).
# Usage: scripts/build-zlib.sh FNTRACE [TRIPLE [CFLAGS [minigzip]]]
#
# With TRIPLE (e.g. aarch64-linux-gnu; "-" for the host), for that
# architecture: fntrace cc runs TRIPLE-gcc (FNTRACE_CC), and ar and ranlib
# are TRIPLE's too; for the host, fntrace cc runs $FNTRACE_CC if set.
# With CFLAGS, compiled with those.  With "minigzip" last, only libz.a and
# minigzip: half the time of a whole build, and all most tests run.  Each
# compiler, CFLAGS and target has a build directory of its own.
#
# Built out of the source tree (zlib's configure supports it), under a
# name of this process, then renamed into place. Rebuilt only when the
# fntrace binary (which holds "fntrace cc" and the recorder) or this script
# changed: a stamp keeps their checksums.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${FNTRACE_CACHE:-$top/cache}
triple=${2:-}
[ "$triple" = - ] && triple=
cflags=${3:-}
target=${4:-}
# FNTRACE_CC (for the host: a triple sets its own) names a build of its own.
tool=
[ -n "$triple" ] || tool=${FNTRACE_CC:-}
key=${tool:+$tool/}$cflags${target:+/$target}
out=$CACHE/build/zlib-cc${triple:+-$triple}${key:+-$(echo "$key" | cksum | cut -d' ' -f1)}

die() { echo "build-zlib.sh: $*" >&2; exit 1; }

[ $# -ge 1 ] && [ $# -le 4 ] && case $target in ""|minigzip) ;; *) false ;; esac ||
	die "usage: build-zlib.sh FNTRACE [TRIPLE [CFLAGS [minigzip]]]"
fntrace=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -x "$fntrace" ] || die "$1 is not an executable"
stamp=$(cksum <"$fntrace")/$(cksum <"$0")/$key

# One build of a kind at a time: another run of this script wanting the
# same one (tests/cases/arch/cross.sh runs real_zlib for the architectures at
# once, each with the host's build) waits for it, then uses it.
mkdir -p "$CACHE/build"
exec 9>"$out.lock"
flock 9
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ]; then
	echo "$out"
	exit 0
fi
src=$("$top/scripts/debsrc.sh" zlib) || die "cannot fetch zlib's sources"
echo "build-zlib.sh: building zlib with $fntrace cc" >&2
tmp=$out.tmp.$$
rm -rf "$tmp"
mkdir -p "$tmp"
if [ -n "$triple" ]; then
	export FNTRACE_CC=$triple-gcc AR=$triple-ar RANLIB=$triple-ranlib
fi
[ -z "$cflags" ] || export CFLAGS="$cflags"
(cd "$tmp" && CC="$fntrace cc" "$src/configure" >configure.out 2>&1) ||
	die "configure failed (see $tmp/configure.out)"
# Our own make, not a job of the one that may be running this script.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$tmp" -j"$(nproc 2>/dev/null || echo 2)" \
	$target >"$tmp/make.out" 2>&1 ||
	die "make failed (see $tmp/make.out)"
[ -x "$tmp/minigzip" ] && { [ -n "$target" ] || [ -x "$tmp/example" ]; } ||
	die "no example or minigzip after make"
echo "$stamp" >"$tmp/stamp"
# Another run of this script (a second suite on the same tree) may have
# put its build in place meanwhile, and be using it: that one stays, and
# this one goes.
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ]; then
	rm -rf "$tmp"
else
	rm -rf "$out"
	mv -T "$tmp" "$out" 2>/dev/null || rm -rf "$tmp"
fi
[ -f "$out/stamp" ] || die "no build in $out"
echo "$out"
