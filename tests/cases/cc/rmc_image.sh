# fntrace-recordmcount --image: the call sites of linked images, and the
# side files the runtime reads.
#  - x86_64 (gcc -pg, gcc -pg -mfentry, gcc -pg -fno-pie, clang -pg),
#    i386, aarch64: --image finds in a program and its library the
#    functions the per-object mode finds in their objects, from the
#    relocations -Wl,-q keeps, and at the same addresses by decoding;
#  - riscv64 linked with relaxation (-Wl,-q): every address holds the
#    4-byte "jal _mcount@plt" objdump shows, also after --gc-sections;
#    per-object entries go stale there (linker relaxation), the side file is right;
#  - side files: format, place, fntrace list, stripped images, errors;
#  - the runtime traces exactly what a side file lists, checks every site,
#    and ignores a malformed side file with one warning.

RMC=$BUILD/fntrace-recordmcount
MAIN_C=$top/tests/progs/rmc_main.c
LIB_C=$top/tests/progs/rmc_lib.c
SC=$PWD/sitecache

# The function names of a listing (their last field), sorted, on one line.
ri_names() { awk '{ print $NF }' "$1" | sort | tr '\n' ' ' | sed 's/ $//'; }

ri_have() { command -v "${1%% *}" >/dev/null; }

# ri_build DIR CC CFLAGS PROGFLAGS: DIR/prog and DIR/librmc.so linked with
# -Wl,-q, DIR/prog-noq and DIR/librmc-noq.so without.
ri_build() {
	local dir=$1 cc=$2 cflags=$3 progflags=$4
	mkdir -p "$dir"
	# shellcheck disable=SC2086
	$cc -O2 -g -pg $cflags -c -o "$dir/main.o" "$MAIN_C" &&
		$cc -O2 -g -pg $cflags -fPIC -c -o "$dir/lib.o" "$LIB_C" &&
		$cc -shared -Wl,-q -o "$dir/librmc.so" "$dir/lib.o" &&
		$cc -shared -o "$dir/librmc-noq.so" "$dir/lib.o" &&
		$cc -Wl,-q -o "$dir/prog" "$dir/main.o" -L"$dir" -lrmc $progflags &&
		$cc -o "$dir/prog-noq" "$dir/main.o" -L"$dir" -lrmc $progflags
}

# ri_same NAME CC CFLAGS PROGFLAGS: the image's functions are the objects'.
ri_same() {
	local dir=$1
	ri_have "$2" || { t_skip "image $1" "$2 is not installed"; return; }
	ri_build "$@" || { t_fail "image $1: builds"; return; }
	"$RMC" --list "$dir/main.o" "$dir/lib.o" >"$dir/obj.txt"
	"$RMC" --image --list "$dir/prog" "$dir/librmc.so" >"$dir/img.txt" 2>"$dir/img.err"
	t_eq "image $1: the functions of the objects" "$(ri_names "$dir/obj.txt")" \
		"$(ri_names "$dir/img.txt")"
	t_eq "image $1: nothing to say" "" "$(cat "$dir/img.err")"
	"$RMC" --image --list "$dir/prog-noq" "$dir/librmc-noq.so" | sed 's/-noq//' >"$dir/dec.txt"
	t_same "image $1: decoding finds the same sites" "$dir/img.txt" "$dir/dec.txt"
}

ri_same x86_64-pg gcc "" ""
ri_same x86_64-fentry gcc "-mfentry" ""
ri_same x86_64-nopie gcc "-fno-pie" "-no-pie"
ri_same x86_64-clang clang "" ""
ri_same i386 i686-linux-gnu-gcc "" ""
ri_same aarch64 aarch64-linux-gnu-gcc "" ""
ri_same riscv64 riscv64-linux-gnu-gcc "" ""

# The addresses of "jal _mcount@plt" in objdump -d output, as --list prints them.
ri_jals() {
	awk '$NF == "<_mcount@plt>" && $(NF - 2) == "jal" { sub(/:$/, "", $1); print "0x" $1 }' |
		sort
}

# ri_riscv_jal NAME IMG N: every site --image lists is a jal to _mcount@plt.
ri_riscv_jal() {
	"$RMC" --image --list "$2" | awk '{ print $1 }' | sort >"$2.img"
	riscv64-linux-gnu-objdump -d "$2" | ri_jals >"$2.jal"
	if [ "$(wc -l <"$2.img")" -eq "$3" ] && cmp -s "$2.img" "$2.jal"; then
		t_pass "$1: every site is the jal objdump shows"
	else t_fail "$1: every site is the jal objdump shows" \
		"$(diff "$2.jal" "$2.img" | head -n 4 | tr '\n' ' ')"; fi
}

ri_riscv() {
	local cc=riscv64-linux-gnu-gcc
	if ! ri_have $cc || ! ri_have riscv64-linux-gnu-objdump || [ ! -x riscv64/prog ]; then
		t_skip "image riscv64 relaxed" "no riscv64 toolchain"
		return
	fi
	ri_riscv_jal "image riscv64 relaxed prog" riscv64/prog 5
	ri_riscv_jal "image riscv64 relaxed lib" riscv64/librmc.so 4
	mkdir -p rv-gc
	$cc -O2 -g -pg -ffunction-sections -c -o rv-gc/main.o "$MAIN_C" &&
		$cc -Wl,-q,--gc-sections -o rv-gc/prog rv-gc/main.o -Lriscv64 -lrmc ||
		{ t_fail "image riscv64 --gc-sections: links"; return; }
	ri_riscv_jal "image riscv64 --gc-sections" rv-gc/prog 4
	t_eq "image riscv64 --gc-sections: never_called is gone" 0 \
		"$("$RMC" --image --list rv-gc/prog | grep -c never_called)"
	# Linker relaxation: per-object entries of sites after a relaxed call go stale;
	# the side file, from the final link, comes first and is right.
	mkdir -p rv-stale && cp riscv64/main.o rv-stale/
	"$RMC" rv-stale/main.o 2>rv-stale/rmc.err
	t_ok "relaxation: recordmcount warns of relaxation" grep -q 'linker may relax' rv-stale/rmc.err
	$cc -o rv-stale/prog rv-stale/main.o -Lriscv64 -lrmc
	riscv64-linux-gnu-objdump -d rv-stale/prog | ri_jals >rv-stale/jal
	FNTRACE_CACHE=$SC "$FNTRACE" list -a rv-stale/prog 2>/dev/null | awk '{ print $1 }' |
		sort >rv-stale/loc
	t_ok "relaxation: per-object entries miss sites after relaxation" \
		sh -c "! cmp -s rv-stale/jal rv-stale/loc"
	FNTRACE_CACHE=$SC "$RMC" --image rv-stale/prog
	FNTRACE_CACHE=$SC "$FNTRACE" list -a rv-stale/prog | awk '{ print $1 }' | sort >rv-stale/side
	t_same "relaxation: the side file of the final link is right" rv-stale/jal rv-stale/side
	t_eq "relaxation: relaxed sites are 4 bytes" 5 \
		"$(FNTRACE_CACHE=$SC "$FNTRACE" list -a rv-stale/prog | grep -c ' 4 frame ')"
}
ri_riscv

# --gc-sections on x86_64 too.
mkdir -p x86-gc
gcc -O2 -g -pg -ffunction-sections -c -o x86-gc/main.o "$MAIN_C" &&
	gcc -Wl,-q,--gc-sections -o x86-gc/prog x86-gc/main.o -Lx86_64-pg -lrmc
"$RMC" --image --list x86-gc/prog >x86-gc/img.txt
t_eq "image x86_64 --gc-sections: the functions left" "main parse_sum square weak_triple" \
	"$(ri_names x86-gc/img.txt)"

# ---- side files ----
prog=x86_64-pg/prog
id=$(readelf -n $prog | awk '/Build ID:/ { print $3 }')
FNTRACE_CACHE=$SC "$RMC" --image $prog
t_eq "side file: written, exit 0" 0 "$?"
t_ok "side file: named by the build-id" test -f "$SC/$id.sites"
t_eq "side file: header" "fntrace-sites 1 x86_64 $id" "$(head -n 1 "$SC/$id.sites")"
t_eq "side file: a line per site" 5 "$(tail -n +2 "$SC/$id.sites" |
	grep -Ec '^[0-9a-f]+ [0-9]+ (entry|frame) [0-9a-f]+ [a-z_]+$')"
t_eq "side file: no temporary file left" "$id.sites" "$(ls "$SC" | grep "^$id")"
FNTRACE_CACHE=$SC "$FNTRACE" list -a $prog | awk '{ print $1, $4 }' >side.txt
"$RMC" --image --list $prog >img.txt
t_same "side file: fntrace list reads it" img.txt side.txt
env -u FNTRACE_CACHE XDG_CACHE_HOME="$PWD/xdg" "$RMC" --image $prog
t_ok "side file: \$XDG_CACHE_HOME/fntrace" test -f "xdg/fntrace/$id.sites"
env -u FNTRACE_CACHE -u XDG_CACHE_HOME HOME="$PWD/home" "$RMC" --image $prog
t_ok "side file: ~/.cache/fntrace" test -f "home/.cache/fntrace/$id.sites"

# A stripped image keeps its build-id; its side file gives the names.
strip -o stripped $prog
FNTRACE_CACHE=$SC "$FNTRACE" list stripped >stripped.txt
t_eq "side file: a stripped program is listed with names" \
	"main never_called parse_sum square weak_triple" "$(ri_names stripped.txt)"

gcc -pg -Wl,--build-id=none -o noid "$MAIN_C" -Lx86_64-pg -lrmc
FNTRACE_CACHE=$SC "$RMC" --image noid 2>err.txt
t_eq "--image: no build-id fails" 1 "$?"
t_ok "--image: no build-id is said in one line" sh -c \
	"[ \$(wc -l <err.txt) -eq 1 ] && grep -q 'has no build-id' err.txt"
t_eq "--image --list: needs no build-id" 5 "$("$RMC" --image --list noid | wc -l)"
"$RMC" --image x86_64-pg/main.o 2>err.txt
t_eq "--image: an object is refused" "1 1" "$? $(grep -c 'not an executable or shared object' err.txt)"
"$RMC" --image --nop $prog 2>/dev/null
t_eq "--image --nop: a usage error" 2 "$?"
gcc -o plain "$MAIN_C" -Lx86_64-pg -lrmc
FNTRACE_CACHE=$PWD/plain-cache "$RMC" --image plain 2>err.txt
t_eq "--image: no -pg, no side file, exit 0" "0 0" "$? $(ls plain-cache 2>/dev/null | wc -l)"
t_ok "--image: no -pg is said" grep -q 'no calls to mcount' err.txt

# ---- the runtime ----
# ri_traced DIR: the functions a function_graph trace of ./DIR/rt shows.
ri_traced() {
	FNTRACE_CACHE=$SC "$FNTRACE" record -o "$1/t.data" -- "./$1/rt" >"$1/out.txt" 2>"$1/err.txt"
	"$FNTRACE" report -i "$1/t.data" >"$1/report.txt" 2>/dev/null
	t_graph_calls "$1/report.txt" | grep -o '[a-z_]*()' | tr -d '()' | sort -u |
		tr '\n' ' ' | sed 's/ $//'
}

# ri_side DIR PATTERN: the side file of DIR/rt, keeping the sites whose
# line matches PATTERN.
ri_side() {
	local id
	id=$(readelf -n "$1/rt" | awk '/Build ID:/ { print $3 }')
	FNTRACE_CACHE=$SC "$RMC" --image "$1/rt" &&
		grep -E "^fntrace-sites |$2" "$SC/$id.sites" >"$1/side" &&
		mv "$1/side" "$SC/$id.sites"
	echo "$SC/$id.sites"
}

all="compute fib leaf main scale through_pointer"
mkdir -p plain-pg && t_build gcc-pg -O2 plain-pg/rt "$top/tests/progs/graph.c"
./plain-pg/rt >plain-pg/want.txt
ri_side plain-pg ' (compute|fib)$' >/dev/null
t_eq "runtime: a side file's sites, and only those, are traced" "compute fib" \
	"$(ri_traced plain-pg)"
t_same "runtime: output as untraced" plain-pg/want.txt plain-pg/out.txt
t_eq "runtime: no warning" "" "$(grep -v 'recorded' plain-pg/err.txt)"

# Before __mcount_loc (recorded per object, without --nop).
mkdir -p loc && gcc -O2 -g -pg -c -o loc/rt.o "$top/tests/progs/graph.c" &&
	"$RMC" loc/rt.o && gcc -o loc/rt loc/rt.o
t_eq "runtime: the per-object table alone" "$all" "$(ri_traced loc)"
ri_side loc ' (leaf|scale)$' >/dev/null
t_eq "runtime: the side file before __mcount_loc" "leaf scale" "$(ri_traced loc)"

# Never trusted blindly: a site that is not one is left alone.
side=$(ri_side plain-pg ' compute$')
main_site=$("$RMC" --image --list plain-pg/rt | awk '$2 == "main" { print $1 }')
printf '%x 6 frame %x main\n' $((main_site + 1)) $((main_site - 4)) >>"$side"
t_eq "runtime: a claim that is no site is not patched" "compute" "$(ri_traced plain-pg)"
t_same "runtime: ... and the program runs as untraced" plain-pg/want.txt plain-pg/out.txt

# A malformed side file: one warning, then the image's own sites.
echo "zz 6 frame 0 main" >>"$side"
t_eq "runtime: a malformed side file is not used" "$all" "$(ri_traced plain-pg)"
t_eq "runtime: ... with one warning" 1 "$(grep -c 'side file .*: line 4: .*not used' plain-pg/err.txt)"
FNTRACE_CACHE=$SC "$FNTRACE" list plain-pg/rt >/dev/null 2>err.txt
t_eq "list: ... with one warning" 1 "$(grep -c 'not used' err.txt)"
