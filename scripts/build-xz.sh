#!/bin/sh
# Build xz (with liblzma linked in statically) from Debian's source
# package and print the binary's path: a real multi-threaded program.
# Usage: scripts/build-xz.sh [FNTRACE CFLAGS]
#
# With no argument, built with -pg, for the live-tracing tests (xz -T2).
# -pg goes in CPPFLAGS: autotools passes CPPFLAGS to every compile and to
# no link, and a link with -pg would pull in gprof's start-up code.
# Nothing is rebuilt once the binary exists.
#
# With FNTRACE and CFLAGS, as a user builds an autotools project for
# tracing: configured as it comes (CC=$FNTRACE_CC), then make CC="FNTRACE cc"
# CFLAGS="CFLAGS" (with FNTRACE_CC, if set, naming the compiler).  Each
# compiler and CFLAGS has a build directory of its own, rebuilt when the
# fntrace binary (which holds fntrace cc) or this script changed.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${FNTRACE_CACHE:-$top/cache}

die() { echo "build-xz.sh: $*" >&2; exit 1; }

[ $# -eq 0 ] || [ $# -eq 2 ] || die "usage: build-xz.sh [FNTRACE CFLAGS]"
if [ $# -eq 2 ]; then
	fntrace=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	[ -x "$fntrace" ] || die "$1 is not an executable"
	key=${FNTRACE_CC:-gcc}/$2
	out=$CACHE/build/xz-cc-$(echo "$key" | cksum | cut -d' ' -f1)
	stamp=$(cksum <"$fntrace")/$(cksum <"$0")/$key
	set -- CC="${FNTRACE_CC:-gcc}"
else
	out=$CACHE/build/xz-pg
	stamp=pg
	set -- CPPFLAGS=-pg CFLAGS="-O2 -g"
fi

# One build of a kind at a time: real_xz and real_xz_kevents want the
# same one at once.
mkdir -p "$CACHE/build"
exec 9>"$out.lock"
flock 9
if [ -x "$out/src/xz/xz" ] && [ "$(cat "$out/stamp" 2>/dev/null || echo pg)" = "$stamp" ]; then
	echo "$out/src/xz/xz"
	exit 0
fi
src=$("$top/scripts/debsrc.sh" xz-utils) || die "cannot fetch xz-utils' sources"
rm -rf "$out"
mkdir -p "$out"
cd "$out"
# Only what xz -3 uses (the tests compress, and compare the output): the
# LZMA2 filter (and LZMA1, which it needs) and the CRC checks; no other
# filter, decoder or tool, and no dependency tracking.  Run by /bin/sh
# (dash), not the bash configure picks: its thousands of small checks
# cost 30% less.  Together: a third less CPU time (120 s to 80).  The
# arguments now: -pg's flags, or the compiler fntrace cc will run.
CONFIG_SHELL=/bin/sh /bin/sh "$src/configure" -q "$@" \
	--disable-shared --enable-static \
	--enable-encoders=lzma1,lzma2 --enable-decoders=lzma1,lzma2 --enable-checks=crc32,crc64 \
	--disable-microlzma --disable-lzip-decoder --disable-dependency-tracking \
	--disable-nls --disable-doc --disable-scripts --disable-lzmadec \
	--disable-lzmainfo --disable-xzdec >configure.log 2>&1 || die "configure failed (see $out/configure.log)"
if [ "$stamp" = pg ]; then
	make -s -j"$(nproc)" >make.log 2>&1
else
	make -s -j"$(nproc)" CC="$fntrace cc" CFLAGS="${key#*/}" >make.log 2>&1
fi || die "make failed (see $out/make.log)"
[ -x src/xz/xz ] || die "no src/xz/xz after make"
echo "$stamp" >stamp
echo "$out/src/xz/xz"
