# fntrace cc and LTO: code generated at the link gets the call
# sites a build without LTO has, recorded in the image, with no gprof
# start-up code.
#  - tests/progs/ccproj with make and CFLAGS=-flto: gcc (-flto, -flto=auto
#    with fat objects; its ccdemo is linked without -flto, from objects
#    that say so), clang (-flto, and -flto=thin with lld and gold): runs
#    with no runtime, every site a nop, the graph traced;
#  - a shared library and its program (rmc_lib.c, rmc_main.c) with
#    -fPIC -shared -flto, C++ (cxx_names.cpp; throw_loop.cpp, exceptions
#    through traced frames): each function's hits as without LTO;
#  - an archive of LTO objects linked without -flto (an LTO link all the
#    same), and clang's images with both tables (-pg and LTO objects);
#  - the cross compilers' gcc -flto (aarch64, riscv64, i386, mips), and
#    clang's -flto for riscv64: the graph under qemu-user;
#  - zlib from Debian's sources with CFLAGS="-O2 -flto" (gcc) and
#    "-flto=thin" (clang): every function's hits are the calls callgrind
#    counts in the same program, and, for the functions both keep, the
#    hits without LTO where the programs make the same calls;
#  - the refusals: clang's LTO for mips; an LTO link whose code gets no
#    call sites (bitcode fntrace cc did not compile).

. "$top/tests/cc_lib.sh"
# gcc's nops; clang's patchable entry is 0f 1f 44 00 08.
NOPS_X86="0f1f4400 660f1f440000"
cc_graph_want graph.want

# lto_no_gprof NAME IMG: nothing of gprof's start-up code in IMG (crti.o's
# weak reference to __gmon_start__ is in every program), and no gmon.out
# after it ran in the current directory.  (readelf, not nm: nm loads the
# linker plugins of /usr/lib/bfd-plugins, LLVM's among them, 80 ms of CPU
# a start against 4.)
lto_no_gprof() {
	local bad
	bad=$(readelf -sW "$2" 2>/dev/null | awk '$8 ~ /^(__monstartup|_mcleanup|__gmon_start__)(@|$)/ &&
		!($8 ~ /^__gmon_start__/ && $5 == "WEAK" && $7 == "UND") { print $8 }')
	t_eq "$1: no gprof start-up code" "" "$bad$(ls gmon.out 2>/dev/null)"
}

# lto_graph NAME IMG: traced, the graph of ccproj.
lto_graph() {
	FNTRACE_CACHE=$NOCACHE "$FNTRACE" record -o "$2.data" -- "$2" >/dev/null 2>&1
	"$FNTRACE" report -i "$2.data" >"$2.txt" 2>/dev/null
	t_graph_calls "$2.txt" >"$2.graph"
	t_same "$1: the graph" graph.want "$2.graph"
}

# lto_proj NAME COMPILER CFLAGS LDFLAGS [NOPS]: ccproj built and traced.
lto_proj() {
	local dir=$1 prog
	if ! cc_make "$dir" FNTRACE_CC="$2" CFLAGS="$3" LDFLAGS="$4"; then
		t_fail "lto $1: make" "$(tail -n 3 "$dir/make.out" | tr '\n' ' ')"
		return
	fi
	t_eq "lto $1: make says nothing" "" "$(cat "$dir/make.out")"
	for prog in ccdemo cconeshot; do
		t_eq "lto $1 $prog: runs with no runtime" "total = 10" "$("$dir/$prog")"
		lto_no_gprof "lto $1 $prog" "$dir/$prog"
		cc_nops "lto $1 $prog" "$dir/$prog" "${5:-$NOPS_X86}" 5
		lto_graph "lto $1 $prog" "$dir/$prog"
	done
}

lto_proj gcc gcc "-O2 -g -flto" ""
lto_proj gcc-auto-fat gcc "-O2 -g -flto=auto -ffat-lto-objects" ""
lto_proj clang clang "-O2 -g -flto" "-flto"
if command -v ld.lld >/dev/null; then
	lto_proj clang-thin-lld clang "-O2 -g -flto=thin" "-flto=thin -fuse-ld=lld"
else t_skip "lto clang-thin-lld" "ld.lld is not installed"; fi
if command -v ld.gold >/dev/null; then
	lto_proj clang-thin-gold clang "-O2 -g -flto=thin" "-flto=thin -fuse-ld=gold"
else t_skip "lto clang-thin-gold" "ld.gold is not installed"; fi

# lto_same_hits NAME PLAIN LTO MIN: the functions both recordings have
# (at least MIN) were hit as often.
lto_same_hits() {
	LC_ALL=C join -t, "$2" "$3" >"$3.both"
	if [ "$(wc -l <"$3.both")" -ge "$4" ] && ! awk -F, '$2 != $3 { bad = 1 } END { exit bad }' \
	   "$3.both"; then
		t_fail "$1: as many hits as without LTO" "$(awk -F, '$2 != $3' "$3.both" | head -n 3 |
			tr '\n' ' ')"
	elif [ "$(wc -l <"$3.both")" -lt "$4" ]; then
		t_fail "$1: as many hits as without LTO" "only $(wc -l <"$3.both") functions in both"
	else
		t_pass "$1: as many hits as without LTO ($(wc -l <"$3.both") functions)"
	fi
}

# ---- a shared library and its program ----
LIB_C=$top/tests/progs/rmc_lib.c
MAIN_C=$top/tests/progs/rmc_main.c

# lto_lib DIR COMPILER FLAGS...: DIR/librmc.so and DIR/prog, by fntrace cc.
lto_lib() {
	local dir=$1 cc=$2
	shift 2
	mkdir -p "$dir"
	FNTRACE_CC=$cc "$FNTRACE" cc -O2 "$@" -fPIC -shared -o "$dir/librmc.so" "$LIB_C" &&
		FNTRACE_CC=$cc "$FNTRACE" cc -O2 "$@" -c -o "$dir/main.o" "$MAIN_C" &&
		FNTRACE_CC=$cc "$FNTRACE" cc -O2 "$@" -o "$dir/prog" "$dir/main.o" -L"$dir" -lrmc
}

# lto_lib_case NAME COMPILER LTOFLAGS: with LTO as without.
lto_lib_case() {
	local name=$1 out d
	# shellcheck disable=SC2086
	if ! lto_lib "$name-plain" "$2" >"$name.out" 2>&1 ||
	   ! lto_lib "$name" "$2" $3 >>"$name.out" 2>&1; then
		t_fail "lto $name: builds" "$(tail -n 2 "$name.out" | tr '\n' ' ')"
		return
	fi
	t_eq "lto $name: builds, says nothing" "" "$(cat "$name.out")"
	t_eq "lto $name: the library's sites" "lib_hook lib_sum lib_twice lib_unused" \
		"$(FNTRACE_CACHE=$NOCACHE "$FNTRACE" list "$name/librmc.so" | sort | tr '\n' ' ' |
		sed 's/ $//')"
	cc_nops "lto $name librmc.so" "$name/librmc.so" "$NOPS_X86" 4
	lto_no_gprof "lto $name prog" "$name/prog"
	for d in "$name-plain" "$name"; do
		out=$(LD_LIBRARY_PATH=$d FNTRACE_CACHE=$NOCACHE "$FNTRACE" record -o "$d.data" -- \
			"$d/prog" 2>/dev/null)
		lto_hits "$d.data" >"$d.hits"
	done
	t_eq "lto $name: runs traced" "14 20 101 15" "$out"
	t_ok "lto $name: the library's calls are traced" grep -q '^lib_twice,4$' "$name.hits"
	lto_same_hits "lto $name" "$name-plain.hits" "$name.hits" 6
}

lto_lib_case lib-gcc gcc -flto
lto_lib_case lib-clang-thin clang -flto=thin

# lto_archive NAME COMPILER LDFLAGS: the library's LTO objects in an
# archive, the program's compiled without LTO, linked without -flto: the
# archive makes it an LTO link (gcc's plugin generates that code anyway);
# with clang the image has both tables, patchable entries beside -pg's.
lto_archive() {
	local dir=$1 out
	mkdir -p "$dir"
	if ! { FNTRACE_CC=$2 "$FNTRACE" cc -O2 -flto -c -o "$dir/lib.o" "$LIB_C" &&
	       ar rcs "$dir/librmc.a" "$dir/lib.o" &&
	       FNTRACE_CC=$2 "$FNTRACE" cc -O2 -c -o "$dir/main.o" "$MAIN_C" &&
	       FNTRACE_CC=$2 "$FNTRACE" cc $3 -o "$dir/prog" "$dir/main.o" "$dir/librmc.a"
	     } >"$dir.out" 2>&1; then
		t_fail "lto $1: builds" "$(tail -n 2 "$dir.out" | tr '\n' ' ')"
		return
	fi
	FNTRACE_CACHE=$NOCACHE "$FNTRACE" list "$dir/prog" >"$dir.sites"
	t_eq "lto $1: the sites of both" "lib_hook lib_sum lib_twice main parse_sum square weak_triple" \
		"$(grep -Ex 'lib_(hook|sum|twice)|main|parse_sum|square|weak_triple' "$dir.sites" |
		sort | tr '\n' ' ' | sed 's/ $//')"
	out=$(FNTRACE_CACHE=$NOCACHE "$FNTRACE" record -o "$dir.data" -- "$dir/prog" 2>/dev/null)
	t_eq "lto $1: runs traced" "14 20 101 15" "$out"
	lto_hits "$dir.data" >"$dir.hits"
	t_ok "lto $1: the archive's and the object's calls are traced" \
		sh -c "grep -q '^lib_twice,4\$' '$dir.hits' && grep -q '^square,3\$' '$dir.hits'"
}

lto_archive archive-gcc gcc ""
if command -v ld.lld >/dev/null; then
	lto_archive archive-clang clang -fuse-ld=lld
else t_skip "lto archive-clang" "ld.lld is not installed"; fi

# ---- C++ ----
# lto_cxx NAME COMPILER LTOFLAGS: cxx_names.cpp with LTO as without.
lto_cxx() {
	local d flags=
	for d in "$1-plain" "$1"; do
		[ "$d" = "$1" ] && flags=$3
		# shellcheck disable=SC2086
		FNTRACE_CXX=$2 "$FNTRACE" c++ -O2 $flags -o "$d" \
			"$top/tests/progs/cxx_names.cpp" >"$d.out" 2>&1 ||
			{ t_fail "lto $1: builds" "$(tail -n 2 "$d.out" | tr '\n' ' ')"; return; }
		FNTRACE_CACHE=$NOCACHE "$FNTRACE" record -o "$d.data" -- "./$d" >/dev/null 2>&1
		lto_hits "$d.data" >"$d.hits"
	done
	lto_no_gprof "lto $1" "$1"
	lto_same_hits "lto $1" "$1-plain.hits" "$1.hits" 4
}

lto_cxx cxx-gcc g++ -flto
lto_cxx cxx-clang clang++ -flto=thin
FNTRACE_CXX=g++ "$FNTRACE" c++ -O2 -flto -o throwing "$top/tests/progs/throw_loop.cpp" \
	>throwing.out 2>&1
t_eq "lto c++ throw_loop: builds, says nothing" "" "$(cat throwing.out)"
FNTRACE_CACHE=$NOCACHE "$FNTRACE" record -o throwing.data -- ./throwing >throwing.run 2>/dev/null
t_eq "lto c++ throw_loop: traced, it runs the same" 40 "$(cat throwing.run)"
t_eq "lto c++ throw_loop: every catcher call in the graph" 40 \
	"$("$FNTRACE" report -i throwing.data 2>/dev/null | grep -c 'catcher() {')"

# ---- cross compilers ----
# lto_cross NAME TRIPLE NOPS: ccproj by TRIPLE-gcc -flto, run under
# qemu-user (i386 natively), traced.
lto_cross() {
	if ! command -v "$2-gcc" >/dev/null || [ ! -d "/usr/$2" ]; then
		t_skip "lto $1" "$2-gcc is not installed"
		return
	fi
	export QEMU_LD_PREFIX=/usr/$2
	lto_proj "$1" "$2-gcc" "-O2 -g -flto" "" "$3"
	unset QEMU_LD_PREFIX
}

lto_cross aarch64 aarch64-linux-gnu "1f2003d5"
lto_cross riscv64 riscv64-linux-gnu "1300000013000000"
lto_cross i386 i686-linux-gnu "3e8d742600 8db600000000"
lto_cross mips mips-linux-gnu "000000000000000000000000 0000000000000000"

# clang's LTO for riscv64: patchable entries (four compressed nops); its
# link needs the ABI the compiles had, which clang 14 forgets there.
if command -v clang >/dev/null && [ -d /usr/riscv64-linux-gnu ]; then
	export QEMU_LD_PREFIX=/usr/riscv64-linux-gnu
	lto_proj clang-riscv64 "clang --target=riscv64-linux-gnu" "-O2 -g -flto" "-flto" \
		"0100010001000100"
	unset QEMU_LD_PREFIX
else t_skip "lto clang-riscv64" "clang or the riscv64 libraries are not installed"; fi

# ---- zlib ----
# lto_zlib_run DIR NAME ARGS < INPUT: DIR/minigzip ARGS recorded as
# DIR/NAME.hits, its calls (of functions with sites) by callgrind as
# DIR/NAME.calls.
lto_zlib_run() {
	local dir=$1 name=$2 input
	shift 2
	input=$(mktemp "$PWD/in.XXXXXX")
	cat >"$input"
	FNTRACE_CACHE=$NOCACHE "$FNTRACE" record -o "$dir/$name.data" -- "$dir/minigzip" "$@" \
		<"$input" >"$dir/$name.out" 2>/dev/null
	lto_hits "$dir/$name.data" >"$dir/$name.hits"
	lto_calls "$dir" "$name" "$dir/minigzip" "$@" <"$input"
	rm -f "$input"
}

# lto_zlib NAME COMPILER CFLAGS: zlib built with those, its minigzip
# traced compressing and decompressing: the hits are callgrind's calls.
lto_zlib() {
	local z dir=$1 w
	z=$(FNTRACE_CC=$2 "$top/scripts/build-zlib.sh" "$FNTRACE" - "$3" minigzip 2>"$dir.log") ||
		{ t_fail "lto zlib $1: builds with make CC=\"fntrace cc\" CFLAGS=\"$3\"" \
			"$(tail -n 3 "$dir.log" | tr '\n' ' ')"; return 1; }
	mkdir -p "$dir"
	cp "$z/minigzip" "$z/make.out" "$dir/"
	t_eq "lto zlib $1: make says nothing" "" "$(cat "$dir/make.out")"
	t_ok "lto zlib $1: minigzip has its sites" \
		test "$(FNTRACE_CACHE=$NOCACHE "$FNTRACE" list "$dir/minigzip" | wc -l)" -gt 20
	cc_nops "lto zlib $1 minigzip" "$dir/minigzip" "$NOPS_X86" \
		"$(FNTRACE_CACHE=$NOCACHE "$FNTRACE" list "$dir/minigzip" | wc -l)"
	lto_no_gprof "lto zlib $1" "$dir/minigzip"
	lto_zlib_run "$dir" c <data.txt
	lto_zlib_run "$dir" d -d <data.gz
	gzip -dc "$dir/c.out" | cmp -s - data.txt
	t_eq "lto zlib $1: minigzip traced compresses the same" 0 "$?"
	t_ok "lto zlib $1: minigzip traced decompresses the same" cmp -s "$dir/d.out" data.txt
	for w in c d; do
		t_same "lto zlib $1 ($w): every function's hits are its calls (callgrind)" \
			"$dir/$w.calls" "$dir/$w.hits"
	done
}

# lto_zlib_vs PLAIN LTO: the functions both keep, hit as often where the
# two programs make as many calls to them (callgrind).
lto_zlib_vs() {
	local w
	for w in c d; do
		lto_both "$1" "$2" $w
		t_ok "lto zlib $2 ($w): as many hits as without LTO ($(wc -l <"$2/$w.both") functions)" \
			awk -F, '$2 != $3 { bad = 1 } END { exit bad || NR < 10 }' "$2/$w.both"
	done
}

seq 1 20000 >data.txt
gzip -c data.txt >data.gz
if ! command -v valgrind >/dev/null; then
	t_skip "lto zlib" "valgrind (callgrind) is not installed"
elif lto_zlib zlib-gcc-plain gcc "-O2" && lto_zlib zlib-gcc-lto gcc "-O2 -flto"; then
	lto_zlib_vs zlib-gcc-plain zlib-gcc-lto
	lto_zlib zlib-clang-thin clang "-O2 -flto=thin"
fi

# ---- refusals ----
printf 'int main(void) { return 0; }\n' >x.c
t_error "lto: clang's LTO for mips is refused" 1 "clang's -flto cannot be traced on mips" \
	env FNTRACE_CC="clang --target=mips-linux-gnu" "$FNTRACE" cc -O2 -flto -o mipsx x.c
clang -O2 -flto -c -o foreign.o x.c
t_error "lto: bitcode fntrace cc did not compile: the link is refused" 1 \
	"foreign has no call sites: its LTO code got none" \
	env FNTRACE_CC=clang "$FNTRACE" cc -flto -o foreign foreign.o
t_eq "lto: ... and its output removed" no "$([ -e foreign ] && echo yes || echo no)"

# A stripped link: gcc's code keeps fntrace's table of names, clang's LTO
# code has only its symbols, which -s (or ld's --strip-all) removes: the
# link is refused, its output removed; -Wl,-S (debug only) keeps them.
printf '%s\n' '__attribute__((noinline)) int f(int x) { return x + 1; }' \
	'int main(int argc, char **argv) { return f(argc) - argc - 1; }' >s.c
"$FNTRACE" cc -O2 -flto -s -o s-gcc s.c
t_eq "lto: gcc, stripped (-s): built" 0 "$?"
"$FNTRACE" record -o s-gcc.data ./s-gcc 2>s-gcc.err
t_eq "lto: gcc, stripped (-s): main and f traced" "f main" \
	"$("$FNTRACE" report -i s-gcc.data --stat --csv | cut -d, -f1 | grep -xE 'f|main' | sort | xargs)"
for s in -s -Wl,--strip-all; do
	t_error "lto: clang, stripped ($s): refused" 1 \
		"^fntrace: cc: s-clang: its [1-9][0-9]* call sites name no function: the link stripped the symbols" \
		env FNTRACE_CC=clang "$FNTRACE" cc -O2 -flto $s -o s-clang s.c
	t_eq "lto: clang, stripped ($s): its output removed" no \
		"$([ -e s-clang ] && echo yes || echo no)"
done
env FNTRACE_CC=clang "$FNTRACE" cc -O2 -flto -Wl,-S -o s-clang s.c
t_eq "lto: clang, debug stripped (-Wl,-S): built" 0 "$?"
"$FNTRACE" record -o s-clang.data ./s-clang 2>s-clang.err
t_eq "lto: clang, debug stripped (-Wl,-S): main and f traced" "f main" \
	"$("$FNTRACE" report -i s-clang.data --stat --csv | cut -d, -f1 | grep -xE 'f|main' | sort | xargs)"
