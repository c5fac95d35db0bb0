# fntrace cc, the compiler wrapper that builds programs for tracing.
#  - the small project tests/progs/ccproj with make CC="$FNTRACE cc", by
#    gcc and clang: it runs with no runtime loaded, every site is a nop,
#    and fntrace record traces the expected graph; so does the program
#    it compiles and links in one command; fntrace c++ for C++;
#  - what reaches the compiler: the instrumentation on compiles only, -pg
#    never on a link, -E/-S/-M/-MM and commands without input untouched,
#    the words of @FILE arguments;
#    failures of the compiler and of the recorder;
#  - cross builds for riscv64, aarch64 and i386: sites nops, runs under qemu
#    (i386: natively);
#  - zlib from Debian's sources, built with its own configure and Makefile.

. "$top/tests/cc_lib.sh"
NOPS_X86="0f1f440000 660f1f440000"

cc_graph_want graph.want

# cc_native NAME COMPILER NOPS [VAR=VALUE...]: build (with these make
# variables), run, check the sites, trace.
cc_native() {
	local dir=$1 cc=$2 nops=$3 prog
	shift 3
	if ! cc_make "$dir" FNTRACE_CC="$cc" "$@"; then
		t_fail "cc $dir: make" "$(tail -n 3 "$dir/make.out" | tr '\n' ' ')"
		return
	fi
	t_eq "cc $dir: make says nothing" "" "$(cat "$dir/make.out")"
	for prog in ccdemo cconeshot; do
		t_eq "cc $dir $prog: runs with no runtime" "total = 10" "$("$dir/$prog")"
		cc_nops "cc $dir $prog" "$dir/$prog" "$nops" 5
		FNTRACE_CACHE=$NOCACHE "$FNTRACE" record -o "$dir/$prog.data" -- "$dir/$prog" \
			>/dev/null 2>&1
		"$FNTRACE" report -i "$dir/$prog.data" >"$dir/$prog.txt" 2>/dev/null
		t_graph_calls "$dir/$prog.txt" >"$dir/$prog.graph"
		t_same "cc $dir $prog: the graph" graph.want "$dir/$prog.graph"
	done
}

cc_native gcc gcc "$NOPS_X86"
cc_native clang clang "$NOPS_X86"

# fntrace c++: the C++ driver, for CXX="fntrace c++"; exceptions thrown
# through its traced frames are caught.
FNTRACE_CACHE=$NOCACHE "$FNTRACE" c++ -O2 -o throwing "$top/tests/progs/throw_loop.cpp" >cxx.out 2>&1
t_eq "c++: compiles and links" "" "$(cat cxx.out)"
t_eq "c++: runs with no runtime" 40 "$(./throwing)"
cc_nops "c++ throwing" throwing "$NOPS_X86" 3
FNTRACE_CACHE=$NOCACHE "$FNTRACE" record -o cxx.data -- ./throwing >cxx.run 2>/dev/null
t_eq "c++: traced, it runs the same" 40 "$(cat cxx.run)"
t_eq "c++: every catcher call in the graph" 40 \
	"$("$FNTRACE" report -i cxx.data 2>/dev/null | grep -c 'catcher() {')"

# ---- what the compiler is given ----
cat >logcc <<EOF
#!/bin/sh
echo "\$*" >>"$PWD/logcc.log"
exec gcc "\$@"
EOF
chmod +x logcc
printf 'int main(void) { return 0; }\n' >x.c
mkdir -p tmp

# cc_log ARGS...: run fntrace cc through logcc; logcc.log has what gcc got.
LOGCC=$PWD/logcc
CCTMP=$PWD/tmp
cc_log() {
	: >"$LOGCC.log"
	TMPDIR=$CCTMP FNTRACE_CC=$LOGCC "$FNTRACE" cc "$@"
}

for args in "-E x.c -o x.i" "-S x.c -o x.s" "-M x.c" "-MM x.c" "--version" "-dumpmachine"; do
	# shellcheck disable=SC2086
	cc_log $args >/dev/null 2>&1
	t_eq "cc: $args is passed on untouched" "$args" "$(cat "$LOGCC.log")"
done
# gcc's return sites, asked for once the compiler is seen to take them.
RS="-minstrument-return=nop5 -mrecord-return"
cc_log -O2 -c -o x.o x.c
t_eq "cc: -c gets the instrumentation" "-dumpmachine|-dumpmachine $RS|-pg -mfentry $RS -O2 -c -o x.o x.c" \
	"$(tr '\n' '|' <"$LOGCC.log" | sed 's/|$//')"
t_ok "cc: -c records the object" sh -c "readelf -S x.o | grep -q __mcount_loc"
t_ok "cc: ... and makes its table of return sites writable (no DT_TEXTREL in a PIE)" \
	sh -c "readelf -SW x.o | grep -q '__return_loc .* WA '"
cat >refusecc <<EOF
#!/bin/sh
# A compiler that refuses gcc's return-site flags and XRay's, as an old
# clang does.
case "\$*" in *-minstrument-return*|*-fxray-*) exit 1 ;; esac
echo "\$*" >>"$PWD/logcc.log"
exec gcc "\$@"
EOF
chmod +x refusecc
: >"$LOGCC.log"
TMPDIR=$CCTMP FNTRACE_CC=$PWD/refusecc "$FNTRACE" cc -O2 -c -o x.o x.c
t_eq "cc: a compiler without return sites gets -pg -mfentry only" \
	"-dumpmachine|-pg -mfentry -O2 -c -o x.o x.c" "$(tr '\n' '|' <"$LOGCC.log" | sed 's/|$//')"
cc_log -pg -o x x.o -lm
t_ok "cc: a link never gets -pg" grep -Eq '^[^ ]*/fntrace-startup\.o -o x x\.o -lm$' "$LOGCC.log"
t_ok "cc: ... nor does its start-up object's compile" \
	grep -Eq '^-O2 -fPIC -fno-lto -w -c -x c [^ ]*/fntrace-startup\.c -o [^ ]*/fntrace-startup\.o$' "$LOGCC.log"
cc_log -O2 -DX=1 -o y x.c -lm
t_eq "cc: compile and link is split in two (and the start-up object)" 5 "$(wc -l <"$LOGCC.log")"
t_ok "cc: ... a compile without the link options" \
	grep -Eq "^-pg -mfentry $RS -O2 -DX=1 -c x.c -o .*/0-x\.o\$" "$LOGCC.log"
t_ok "cc: ... a link of the recorded object without -pg" \
	grep -Eq '^[^ ]*/fntrace-startup\.o -O2 -DX=1 -o y .*/0-x\.o -lm$' "$LOGCC.log"
t_eq "cc: ... whose temporary files are gone" "" "$(ls tmp)"
printf 'int g(void) { return 0; }\n' >g.c
cc_log -MMD -o prog.exe x.c g.c
t_eq "cc: -MMD in a split command: the file the command would write" \
	"prog.exe: g.c" "$(cat prog.d)"
cc_log -MD -MF deps.d x.c
t_eq "cc: -MD: or the one -MF names, with the target after the source" \
	"x.o: x.c" "$(head -n 1 deps.d | cut -d' ' -f1-2)"
cc_log -MMD -o z x.c
t_eq "cc: ... and nothing left behind" "" "$(ls tmp)"
t_ok "cc: ... and the program has its table" sh -c "readelf -S y | grep -q __mcount_loc"
mkdir -p noo && cp x.c noo/ && (cd noo && cc_log -c x.c)

# Response files: their words are arguments like any other (quotes and
# backslashes as gcc reads them, one file naming another).
mkdir -p "s p"
printf '%s\n' '-O2 -c' "-o 's p/r.o' @inner.rsp" >outer.rsp
printf '%s\n' '"x.c" -DQ=a\ b' >inner.rsp
cc_log @outer.rsp
t_eq "cc: @FILE is read, quotes and all" "-dumpmachine|-dumpmachine $RS|-pg -mfentry $RS -O2 -c -o s p/r.o x.c -DQ=a b" \
	"$(tr '\n' '|' <"$LOGCC.log" | sed 's/|$//')"
t_ok "cc: ... and the object it names is recorded" sh -c "readelf -S 's p/r.o' | grep -q __mcount_loc"
cc_log @missing.rsp -c x.c 2>/dev/null
t_eq "cc: an unreadable @FILE goes to the compiler as it is" "@missing.rsp -c x.c" "$(cat "$LOGCC.log")"
t_ok "cc: -c without -o records NAME.o" sh -c "readelf -S noo/x.o | grep -q __mcount_loc"

printf 'int main(void) { return }\n' >bad.c
cc_log -c -o bad.o bad.c 2>/dev/null
t_eq "cc: a failed compile: its status, no object" "1 no" "$? $([ -e bad.o ] && echo yes || echo no)"
cat >junkcc <<'EOF'
#!/bin/sh
# A "compiler" whose objects the recorder refuses.
[ "$1" = -dumpmachine ] && { echo x86_64-linux-gnu; exit 0; }
while [ $# -gt 1 ]; do [ "$1" = -o ] && echo junk >"$2"; shift; done
EOF
chmod +x junkcc
FNTRACE_CC=$PWD/junkcc "$FNTRACE" cc -c -o junk.o x.c 2>err.txt
t_eq "cc: an object the recorder refuses: failure, no object" "1 no" \
	"$? $([ -e junk.o ] && echo yes || echo no)"
t_eq "cc: ... said in one line" 1 "$(wc -l <err.txt)"
FNTRACE_CC=$PWD/nonexistent "$FNTRACE" cc -c -o n.o x.c 2>err.txt
t_eq "cc: no compiler: failure in one line" "1 1" "$? $(grep -c 'cannot run' err.txt)"
t_ok "cc --help" sh -c "'$FNTRACE' cc --help | grep -q 'usage: fntrace cc'"

# ---- cross ----
# cc_cross NAME COMPILER NOPS QEMU...
cc_cross() {
	local dir=$1 cc=$2 nops=$3 prog
	shift 3
	if ! command -v "$cc" >/dev/null || ! command -v "$1" >/dev/null; then
		t_skip "cc $dir" "$cc or $1 is not installed"
		return
	fi
	if ! cc_make "$dir" FNTRACE_CC="$cc"; then
		t_fail "cc $dir: make" "$(tail -n 3 "$dir/make.out" | tr '\n' ' ')"
		return
	fi
	t_eq "cc $dir: make says nothing" "" "$(cat "$dir/make.out")"
	for prog in ccdemo cconeshot; do
		t_eq "cc $dir $prog: runs" "total = 10" "$("$@" "$dir/$prog")"
		cc_nops "cc $dir $prog" "$dir/$prog" "$nops" 5
	done
}

cc_cross riscv64 riscv64-linux-gnu-gcc "1300000013000000" qemu-riscv64 -L /usr/riscv64-linux-gnu
cc_cross aarch64 aarch64-linux-gnu-gcc "1f2003d5" qemu-aarch64 -L /usr/aarch64-linux-gnu
# i386 runs natively: "env" stands where qemu would.
cc_cross i386 i686-linux-gnu-gcc "3e8d742600 8db600000000" env
# riscv: the other calls are still relaxed (a 4-byte jal to calc_total).
if [ -x riscv64/ccdemo ]; then
	t_ok "cc riscv64: the link still relaxes calls" sh -c \
		"riscv64-linux-gnu-objdump -d riscv64/ccdemo | grep -Eq 'jal\s+[0-9a-f]+ <calc_total>'"
fi

# ---- compiler options ----
# -fomit-frame-pointer, which gcc refuses beside -pg: left out of the
# instrumented compile.  On x86_64 (-mfentry) that changes nothing, from
# -O1 on, and nothing is said; elsewhere -pg keeps the frame pointer,
# said in one line.  clang takes it beside -pg -mfentry: kept.
cc_log -O2 -fomit-frame-pointer -c -o fp.o x.c
t_ok "cc: -fomit-frame-pointer: gcc's instrumented compile goes without it" \
	grep -Eq "^-pg -mfentry $RS -O2 -c -o fp.o x.c\$" "$LOGCC.log"
for f in "" -fomit-frame-pointer; do
	# shellcheck disable=SC2086
	"$FNTRACE" cc -O2 $f -I"$PROJ" -c -o "fp$f.o" "$PROJ/calc.c" 2>>fp.err
	objdump -d --no-show-raw-insn "fp$f.o" | tail -n +4 >"fp$f.dis"
done
t_eq "cc: ... which on x86_64 is said nowhere" "" "$(cat fp.err)"
t_same "cc: ... and the code is the same" fp.dis fp-fomit-frame-pointer.dis
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	FNTRACE_CC=aarch64-linux-gnu-gcc "$FNTRACE" cc -O2 -fomit-frame-pointer -c -o fp64.o x.c \
		2>fp64.err
	t_eq "cc: -fomit-frame-pointer on aarch64: built, one line says it was left out" "0 1 1" \
		"$? $(wc -l <fp64.err) $(grep -c 'note: -fomit-frame-pointer left out: -pg needs the frame pointer on aarch64$' fp64.err)"
	t_ok "cc: ... and the object is recorded" sh -c "readelf -S fp64.o | grep -q __mcount_loc"
else
	t_skip "cc: -fomit-frame-pointer on aarch64" "aarch64-linux-gnu-gcc is not installed"
fi
printf '#!/bin/sh\necho "$*" >>"%s/logclang.log"\nexec clang "$@"\n' "$PWD" >logclang
chmod +x logclang
: >logclang.log
FNTRACE_CC=$PWD/logclang "$FNTRACE" cc -O2 -fomit-frame-pointer -c -o fpc.o x.c
XRAY="-fxray-instrument -fxray-instrumentation-bundle=function-exit -fxray-instruction-threshold=1"
t_ok "cc: ... clang's is kept" \
	grep -Eq "^-pg -mfentry $XRAY -O2 -fomit-frame-pointer -c -o fpc.o x.c\$" logclang.log
t_ok "cc: clang gets XRay's exit sleds, for return sites, once it is seen to take them" \
	sh -c "grep -v -e -pg logclang.log | grep -qF -e '$XRAY -S -x c /dev/null -o /dev/null'"
: >logclang.log
FNTRACE_CC=$PWD/logclang "$FNTRACE" cc -O2 -o fpc fpc.o
t_eq "cc: ... and its link none of XRay's (which would link XRay's runtime)" "" \
	"$(grep -e -fxray logclang.log)"

# The code models and -fno-plt: traced.  gcc's -mcmodel=large calls
# __fentry__ through a register: its functions get patchable entries
# (five one-byte nops, whose table needs no text relocation).
cc_native gcc-large gcc "9090909090" CFLAGS="-O2 -g -mcmodel=large"
t_eq "cc gcc-large: no text relocations" "" "$(readelf -d gcc-large/ccdemo | grep TEXTREL)"
cc_native clang-large clang "$NOPS_X86" CFLAGS="-O2 -g -mcmodel=large"
cc_native gcc-medium gcc "$NOPS_X86" CFLAGS="-O2 -g -mcmodel=medium"
cc_native gcc-noplt gcc "$NOPS_X86" CFLAGS="-O2 -g -fno-plt"
cc_native gcc-noplt-nopie gcc "$NOPS_X86" CFLAGS="-O2 -g -fno-plt -fno-pie" LDFLAGS=-no-pie
cc_native clang-noplt clang "$NOPS_X86" CFLAGS="-O2 -g -fno-plt"
if command -v riscv64-linux-gnu-gcc >/dev/null; then
	export QEMU_LD_PREFIX=/usr/riscv64-linux-gnu
	for m in medlow medany; do
		cc_native "riscv64-$m" riscv64-linux-gnu-gcc "1300000013000000" \
			CFLAGS="-O2 -g -mcmodel=$m"
	done
	unset QEMU_LD_PREFIX
else
	t_skip "cc riscv64 code models" "riscv64-linux-gnu-gcc is not installed"
fi

# ---- zlib ----
cc_zlib() {
	local z data
	z=$("$top/scripts/build-zlib.sh" "$FNTRACE" 2>zlib.log) ||
		{ t_fail "zlib: builds with make CC=\"fntrace cc\"" "$(tail -n 3 zlib.log | tr '\n' ' ')"; return; }
	"$z/example" zex.tmp >zex.out 2>&1
	t_eq "zlib: example passes" "0 1" "$? $(grep -c 'large_inflate(): OK' zex.out)"
	seq 1 2000 >data.txt
	"$z/minigzip" <data.txt | "$z/minigzip" -d >back.txt
	t_same "zlib: minigzip round trip" data.txt back.txt
	cc_nops "zlib minigzip" "$z/minigzip" "$NOPS_X86" \
		"$(FNTRACE_CACHE=$NOCACHE "$FNTRACE" list "$z/minigzip" | wc -l)"
	t_ok "zlib: minigzip has its 100-odd sites" \
		test "$(wc -l <"$z/minigzip.sites")" -gt 100
	cc_nops "zlib libz.so" "$z/libz.so" "$NOPS_X86" \
		"$(FNTRACE_CACHE=$NOCACHE "$FNTRACE" list "$z/libz.so" | wc -l)"
	FNTRACE_CACHE=$NOCACHE "$FNTRACE" record -o z.data -- "$z/minigzip" <data.txt >z.gz 2>/dev/null
	gzip -dc z.gz >z.txt
	t_same "zlib: minigzip traced compresses the same" data.txt z.txt
	"$FNTRACE" report -i z.data --csv >z.csv 2>/dev/null
	t_ok "zlib: deflate and its helpers are traced" sh -c \
		"grep -q '^deflate,' z.csv && grep -q '^longest_match,' z.csv && grep -q '^crc32_z,' z.csv"
	LD_LIBRARY_PATH=$z FNTRACE_CACHE=$NOCACHE "$FNTRACE" record -F '*:mod:libz' -o zs.data -- \
		"$z/minigzipsh" <data.txt >/dev/null 2>&1
	"$FNTRACE" report -i zs.data --csv >zs.csv 2>/dev/null
	t_ok "zlib: libz.so is traced in minigzipsh" grep -q '^deflate,' zs.csv
}
cc_zlib
