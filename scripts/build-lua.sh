#!/bin/sh
# Build the Lua 5.4 interpreter from Debian's source package, in one of the
# instrumentation flavors fntrace traces, and print the binary's path.
# Usage: scripts/build-lua.sh plain|pg|fentry|nop|cc|clang|xray
#
# The C files are compiled directly (lua.c and the library, not luac.c), so
# the flags are exactly ours and not those of Debian's libtool build.
# Objects are compiled with -pg but the link is done WITHOUT -pg: linking
# with -pg pulls in gprof's start-up code (gcrt1.o, gmon.out at exit).
# Idempotent: nothing is rebuilt when the binary is newer than the sources
# and this script, and was built with the same flags.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${FNTRACE_CACHE:-$top/cache}
CC=${CC:-gcc}

die() { echo "build-lua.sh: $*" >&2; exit 1; }

# Compile flags per flavor (the link flags follow from them in link_flags).
flavor_flags() {
	case $1 in
	plain)  echo "" ;;
	pg)     echo "-pg" ;;
	fentry) echo "-pg -mfentry" ;;
	# gcc accepts -mnop-mcount only without PIE: the sites become 5-byte
	# nops listed in __mcount_loc.
	nop)    echo "-fno-pie -pg -mfentry -mrecord-mcount -mnop-mcount" ;;
	# fntrace cc adds its own flags (-pg -mfentry) and the nops.
	cc|clang) echo "" ;;
	# LLVM XRay, for the benchmarks: a sled in every function, however
	# small (the default threshold skips functions under 200 instructions).
	xray)   echo "-fxray-instrument -fxray-instruction-threshold=1" ;;
	*)      die "unknown flavor '$1' (plain, pg, fentry, nop, cc, clang, xray)" ;;
	esac
}

link_flags() {
	case $1 in
	nop) echo "-no-pie" ;;
	# the XRay runtime, and bench/xray_fdr.c, which starts FDR mode
	xray) echo "-fxray-instrument -Wl,--wrap=main $top/bench/xray_fdr.c" ;;
	*) echo "" ;;
	esac
}

# The compiler of a flavor: $CC, except for those named after theirs.
flavor_cc() {
	case $1 in
	cc) echo "${FNTRACE:-$top/build/fntrace} cc" ;;
	clang|xray) echo clang ;;
	*) echo "$CC" ;;
	esac
}

# The flags Lua's own Makefile uses for the "linux" target, minus readline,
# plus two defines that make call counts the same in every run (a tracer's
# counts are compared between runs):
# - a fixed string-hash seed: by default Lua seeds it from time() and
#   addresses (ASLR), which changes hash collisions, hence how often some
#   functions (mainpositionTV) run;
# - a one-line luaS_new cache: it is indexed by the C string's address, so
#   with ASLR its hits (and the calls to luaS_newlstr they save) vary;
# - no random pivots in table.sort: on unbalanced partitions it seeds them
#   from clock() and time(), which changes the comparisons made.
base_flags() {
	echo "-std=gnu99 -O2 -g -Wall -Wextra -DLUA_COMPAT_5_3 -DLUA_USE_LINUX" \
		"-Dluai_makeseed(L)=0x2545F491u -DSTRCACHE_N=1 -DSTRCACHE_M=2" \
		"-Dl_randomizePivot()=0u"
}

# The sources of the interpreter: every .c of src/ except the compiler luac.c.
lua_sources() {
	for f in "$1"/*.c; do
		case ${f##*/} in luac.c) ;; *) echo "$f" ;; esac
	done
}

# True when $out exists, was built with the flags in $stamp, and is newer
# than every source, header and this script.
up_to_date() {
	out=$1 stamp=$2 flags=$3 srcdir=$4
	[ -x "$out" ] && [ -f "$stamp" ] || return 1
	[ "$(cat "$stamp")" = "$flags" ] || return 1
	newer=$(find "$srcdir" "$0" -newer "$out" \( -name '*.[ch]' -o -name "${0##*/}" \) | head -n 1)
	[ -z "$newer" ]
}

# Compile every source into $objdir, one job per core.
compile_all() {
	srcdir=$1 objdir=$2 flags=$3
	mkdir -p "$objdir"
	jobs=$(nproc 2>/dev/null || echo 2)
	# shellcheck disable=SC2016 # $1, $CC... expand in the inner sh
	lua_sources "$srcdir" | CC=$CC FLAGS="$flags" OBJ="$objdir" \
		xargs -P "$jobs" -n 1 sh -c \
		'b=${1##*/}; exec $CC $FLAGS -c -o "$OBJ/${b%.c}.o" "$1"' sh ||
		die "compilation failed"
}

build() {
	flavor=$1
	src=$("$top/scripts/debsrc.sh" lua5.4)/src
	[ -f "$src/lua.c" ] || die "no lua.c in $src"
	out_dir=$CACHE/build/lua-$flavor
	out=$out_dir/lua
	cflags="$(base_flags) $(flavor_flags "$flavor")"
	lflags=$(link_flags "$flavor")
	CC=$(flavor_cc "$flavor")
	all="$CC $cflags | $lflags"
	if up_to_date "$out" "$out_dir/flags" "$all" "$src"; then
		echo "$out"
		return 0
	fi
	echo "build-lua.sh: building lua-$flavor" >&2
	# Objects and binary under names of this process, then one rename: a
	# build running in parallel (tests and bench) or a program still
	# running the old binary never sees a half-written file.
	tmp=$out_dir/tmp.$$
	rm -rf "$tmp"
	compile_all "$src" "$tmp" "$cflags"
	# shellcheck disable=SC2086
	$CC $lflags -o "$tmp/lua" "$tmp"/*.o -lm -ldl || die "link failed"
	mv -f "$tmp/lua" "$out"
	echo "$all" >"$tmp/flags" && mv -f "$tmp/flags" "$out_dir/flags"
	rm -rf "$tmp"
	echo "$out"
}

[ $# -eq 1 ] || die "usage: build-lua.sh plain|pg|fentry|nop|cc|clang|xray"
flavor_flags "$1" >/dev/null
build "$1"
