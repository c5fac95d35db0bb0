# fntrace-recordmcount on tests/progs/rmc_{main,lib}.c, compiled by every
# compiler at -O0 and -O2, with and without -ffunction-sections:
#  - the sites --list gives equal those tests/rmc_sites.awk reads from the
#    arch's `objdump -dr` (an independent finder: text, not bytes);
#  - linked (recorded, and with --nop; with and without --gc-sections),
#    every __mcount_loc entry is a call (the image's own relocations, kept
#    with -Wl,-q) or a nop, and there is one per function that is left;
#  - no TEXTREL in the PIE nor in the shared library;
#  - the program prints what it printed before recording.

RMC=$BUILD/fntrace-recordmcount
SITES_AWK=$top/tests/rmc_sites.awk
IMAGE_AWK=$top/tests/rmc_image.awk
MAIN_C=$top/tests/progs/rmc_main.c
LIB_C=$top/tests/progs/rmc_lib.c

# The arch's nops as file bytes, as the brief for each arch spells them.
rmc_nops() {
	case $1 in
	x86_64) echo "0f1f440000 660f1f440000" ;;
	i386) echo "3e8d742600 8db600000000" ;;
	aarch64) echo "1f2003d5" ;;
	riscv64) echo "1300000013000000" ;;
	mips) echo "0000000000000000" ;;
	esac
}

# rmc_unmatched FILE [FIELD]: of the lines of FILE and those on stdin,
# keyed by FIELD (1; 0: the whole line), each key not as many times in
# both, with how many more FILE has (none: the two are the same
# multiset, in any order).
rmc_unmatched() {
	awk -v k="${2:-1}" 'FILENAME == ARGV[1] { n[$k]++; next } { n[$k]-- }
		END { for (a in n) if (n[a]) printf "%s %+d\n", a, n[a] }' "$1" -
}

# rmc_list_check NAME ARCH OBJDUMP OBJ: --list against objdump.
rmc_list_check() {
	"$RMC" --list "$5" >got.txt
	"$4" -dr "$5" | awk -v arch="$2" -v mode=obj -f "$SITES_AWK" |
		rmc_unmatched got.txt 0 >bad.txt
	if [ -s got.txt ] && [ ! -s bad.txt ]; then t_pass "$1: $3 --list = objdump"
	else t_fail "$1: $3 --list = objdump" "--list - objdump: $(head -n 6 bad.txt | tr '\n' ' ')"; fi
}

# rmc_readelf IMG [SECTION]: IMG.elf, the header, dynamic section,
# relocations and hex dump of __mcount_loc (and of SECTION) readelf shows,
# read by rmc_entries, rmc_image_check and rmc_no_textrel (one readelf
# run for all: the case runs hundreds).
rmc_readelf() {
	readelf -hdrW -x __mcount_loc ${2:+-x "$2"} "$1" >"$1.elf" 2>/dev/null
}

# rmc_entries IMG: the __mcount_loc entries, after dynamic relocation.
rmc_entries() {
	awk -v what=entries -v section=__mcount_loc -v relfile="$1.elf" -f "$IMAGE_AWK" "$1.elf"
}

# rmc_image_check NAME ARCH OBJDUMP IMG MODE: entries against the image.
rmc_image_check() {
	local name=$1 arch=$2 objdump=$3 img=$4 mode=$5
	if [ "$mode" = rec ]; then
		rmc_readelf "$img"
		rmc_entries "$img" >"$img.ent"
		"$objdump" -dr "$img" | awk -v arch="$arch" -v mode=image -f "$SITES_AWK" |
			rmc_unmatched "$img.ent" >"$img.bad"
		if [ -s "$img.ent" ] && [ ! -s "$img.bad" ]; then
			t_pass "$name: entries are the calls"
		else t_fail "$name: entries are the calls" \
			"entries - calls: $(head -n 6 "$img.bad" | tr '\n' ' ')"; fi
	else
		rmc_readelf "$img" .text
		rmc_entries "$img" >"$img.ent"
		awk -v what=nops -v section=.text -v entries="$img.ent" \
			-v nops="$(rmc_nops "$arch")" -f "$IMAGE_AWK" "$img.elf" >"$img.bad"
		if [ -s "$img.ent" ] && [ ! -s "$img.bad" ]; then t_pass "$name: entries are nops"
		else t_fail "$name: entries are nops" "$(head -n 3 "$img.bad" | tr '\n' ' ')"; fi
	fi
}

# rmc_no_textrel NAME IMG: after rmc_image_check (IMG.elf).
rmc_no_textrel() {
	if grep -q TEXTREL "$2.elf"; then t_fail "$1: no TEXTREL"
	else t_pass "$1: no TEXTREL"; fi
}

# rmc_compile DIR CC "OPT FS" CFLAGS: DIR/main.o with CFLAGS, and DIR/lib.o
# position-independent (CFLAGS may say -fno-pic).
rmc_compile() {
	local dir=$1 cc=$2 opts=$3 cflags=$4
	mkdir -p "$dir"
	# shellcheck disable=SC2086
	$cc $opts $cflags -g -pg -c -o "$dir/main.o" "$MAIN_C" &&
		$cc $opts -fPIC -g -pg -c -o "$dir/lib.o" "$LIB_C"
}

# rmc_link DIR CC PROGFLAGS BOTHFLAGS: DIR/librmc.so and DIR/prog, their
# relocations kept (-q) for rmc_image_check.
rmc_link() {
	local dir=$1 cc=$2 progflags=$3 both=$4 shape
	case $both in *--gc-sections*) shape=gc ;; *) shape=all ;; esac
	case $both in *--no-relax*) shape=$shape-norelax ;; esac
	# shellcheck disable=SC2086
	rmc_ld "$dir" "$cc" so-$shape -shared -Wl,-q -o "$dir/librmc.so" "$dir/lib.o" $both \
			2>"$dir/ld.err" &&
		rmc_ld "$dir" "$cc" prog-$shape -Wl,-q -o "$dir/prog" "$dir/main.o" -L"$dir" -lrmc \
			-Wl,-rpath,"$PWD/$dir" $progflags $both 2>>"$dir/ld.err" ||
		{ cat "$dir/ld.err"; return 1; }
}

# rmc_ld DIR CC SHAPE ARGS...: CC ARGS, a link of DIR's files.  clang's
# driver costs a tenth of a CPU second a start (its libraries'
# relocations) and a link runs no more than the linker, so the command it
# runs (clang -###) is kept per configuration ($RMC_LD) and SHAPE, with
# DIR a variable, and run as it is: the same linker, arguments and files.
rmc_ld() {
	local dir=$1 cc=$2 kept=$RMC_LD/$3 D cmd
	shift 3
	case $cc in clang*) ;; *) $cc "$@"; return ;; esac
	if [ ! -f "$kept" ]; then
		$cc -### "$@" 2>&1 | grep '^ "' | sed "s|$dir|\${D}|g" >"$kept.new" &&
			[ "$(wc -l <"$kept.new")" -eq 1 ] && mv "$kept.new" "$kept" ||
			{ echo "rmc_ld: no link command from $cc -###" >&2; return 1; }
	fi
	read -r cmd <"$kept"
	# shellcheck disable=SC2034 # the kept command says ${D}
	D=$dir
	eval "$cmd"
}

# rmc_variant NAME ARCH CC OBJDUMP LDFLAGS RUN SRC MODE GC: process a copy
# of SRC's objects (MODE rec or nop), link it, check it.
rmc_variant() {
	local name=$1 arch=$2 cc=$3 objdump=$4 ldflags=$5 run=$6 src=$7 mode=$8 gc=$9
	local dir=$src-$mode$gc nopflag= both=${10} want
	[ "$mode" = nop ] && nopflag=--nop
	[ -n "$gc" ] && both="$both -Wl,--gc-sections"
	name="$name $mode${gc:+ gc}"
	mkdir -p "$dir" && cp "$src"/main.o "$src"/lib.o "$dir"/
	"$RMC" $nopflag "$dir/main.o" "$dir/lib.o" 2>"$dir/rmc.err"
	t_eq "$name: recorded" 0 "$?"
	# riscv without function sections: the sites after a relaxable call are
	# said to go stale (linked here with --no-relax); otherwise silence.
	local warns=0 o
	case $both in *--no-relax*)
		for o in main.o lib.o; do	# clang emits no R_RISCV_RELAX
			readelf -rW "$dir/$o" | grep -q R_RISCV_RELAX && warns=$((warns + 1))
		done ;;
	esac
	t_eq "$name: relaxation warnings" $warns "$(grep -c 'linker may relax' "$dir/rmc.err")"
	rmc_link "$dir" "$cc" "$ldflags" "$both" || { t_fail "$name: links"; return; }
	rmc_image_check "$name prog" "$arch" "$objdump" "$dir/prog" "$mode"
	rmc_image_check "$name lib" "$arch" "$objdump" "$dir/librmc.so" "$mode"
	rmc_no_textrel "$name prog" "$dir/prog"
	rmc_no_textrel "$name lib" "$dir/librmc.so"
	# shellcheck disable=SC2086
	$run "$PWD/$dir/prog" >"$dir/out.txt" 2>&1
	t_same "$name: same output" "$src/ref.txt" "$dir/out.txt"
	# Functions: 5 in the program (square parse_sum weak_triple never_called
	# main), 4 in the library (lib_twice lib_sum lib_hook lib_unused, which
	# --gc-sections keeps: a shared object exports it).
	want="5 4"
	[ -n "$gc" ] && want="4 4"
	# (readelf, not nm: nm loads the linker plugins of /usr/lib/bfd-plugins,
	# LLVM's among them, 80 ms of CPU a start against 4.)
	if [ -n "$gc" ] && readelf -sW "$dir/prog" | grep -q never_called; then
		t_fail "$name: never_called is gone"
	fi
	t_eq "$name: one entry per function" "$want" \
		"$(wc -l <"$dir/prog.ent") $(wc -l <"$dir/librmc.so.ent")"
}

# rmc_config NAME ARCH CC OBJDUMP CFLAGS LDFLAGS RUN...
rmc_config() {
	local name=$1 arch=$2 cc=$3 objdump=$4 cflags=$5 ldflags=$6 opt fs dir both
	shift 6
	if ! command -v "${cc%% *}" >/dev/null || ! command -v "$objdump" >/dev/null; then
		t_skip "recordmcount $name" "$cc or $objdump is not installed"
		return
	fi
	RMC_LD=$PWD/$name.ld
	mkdir -p "$RMC_LD"
	for opt in -O0 -O2; do
		for fs in "" -ffunction-sections; do
			dir=$name$opt${fs:+-fs}
			rmc_compile "$dir" "$cc" "$opt $fs" "$cflags" ||
				{ t_fail "$dir: compiles"; continue; }
			rmc_list_check "$dir" "$arch" main.o "$objdump" "$dir/main.o"
			rmc_list_check "$dir" "$arch" lib.o "$objdump" "$dir/lib.o"
			both=
			# riscv: without function sections, relaxing one call moves the
			# sites after it (see docs/recordmcount.md): link with --no-relax.
			[ "$arch" = riscv64 ] && [ -z "$fs" ] && both=-Wl,--no-relax
			rmc_link "$dir" "$cc" "$ldflags" "$both" &&
				"$@" "$PWD/$dir/prog" >"$dir/ref.txt" 2>&1 ||
				{ t_fail "$dir: reference build runs"; continue; }
			t_eq "$dir: reference output" "14 20 101 15" "$(cat "$dir/ref.txt")"
			rmc_variant "$dir" "$arch" "$cc" "$objdump" "$ldflags" "$*" "$dir" rec "" "$both"
			rmc_variant "$dir" "$arch" "$cc" "$objdump" "$ldflags" "$*" "$dir" nop "" "$both"
			[ -n "$fs" ] || continue
			rmc_variant "$dir" "$arch" "$cc" "$objdump" "$ldflags" "$*" "$dir" rec gc "$both"
			rmc_variant "$dir" "$arch" "$cc" "$objdump" "$ldflags" "$*" "$dir" nop gc "$both"
		done
	done
}

rmc_config x86_64 x86_64 gcc objdump "" -pie
rmc_config x86_64-clang x86_64 clang objdump "" -pie
rmc_config i386 i386 i686-linux-gnu-gcc objdump "" -pie
rmc_config aarch64 aarch64 aarch64-linux-gnu-gcc aarch64-linux-gnu-objdump "" -pie \
	qemu-aarch64 -L /usr/aarch64-linux-gnu
rmc_config riscv64 riscv64 riscv64-linux-gnu-gcc riscv64-linux-gnu-objdump "" -pie \
	qemu-riscv64 -L /usr/riscv64-linux-gnu
rmc_config mips mips mips-linux-gnu-gcc mips-linux-gnu-objdump "" -pie \
	qemu-mips -L /usr/mips-linux-gnu
rmc_config mips-nopic mips mips-linux-gnu-gcc mips-linux-gnu-objdump \
	"-fno-pic -mno-abicalls" -no-pie qemu-mips -L /usr/mips-linux-gnu
rmc_config mipsel mips mipsel-linux-gnu-gcc mipsel-linux-gnu-objdump "" -pie \
	qemu-mipsel -L /usr/mipsel-linux-gnu
rmc_config mipsel-nopic mips mipsel-linux-gnu-gcc mipsel-linux-gnu-objdump \
	"-fno-pic -mno-abicalls" -no-pie qemu-mipsel -L /usr/mipsel-linux-gnu
# The other x86 call forms: __fentry__ at the entry; e8 in i386 non-PIE.
rmc_config x86_64-fentry x86_64 gcc objdump "-mfentry" -pie
rmc_config i386-nopie i386 i686-linux-gnu-gcc objdump "-fno-pie" -no-pie
# clang for the other arches: no "mov x0, x30" / "mv a0, ra"; on mips the
# stack adjustment in the delay slot of "jalr t9" even in PIC code.
rmc_config aarch64-clang aarch64 "clang --target=aarch64-linux-gnu" \
	aarch64-linux-gnu-objdump "" -pie qemu-aarch64 -L /usr/aarch64-linux-gnu
rmc_config riscv64-clang riscv64 "clang --target=riscv64-linux-gnu" \
	riscv64-linux-gnu-objdump "" -pie qemu-riscv64 -L /usr/riscv64-linux-gnu
rmc_config mipsel-clang mips "clang --target=mipsel-linux-gnu" \
	mipsel-linux-gnu-objdump "" -pie qemu-mipsel -L /usr/mipsel-linux-gnu
