# fntrace cc and LTO on a real autotools project, built as its users
# build one: xz from Debian's sources (scripts/build-xz.sh), configured as
# it comes, then make CC="fntrace cc" CFLAGS=..., without and with LTO
# (gcc's -flto; clang's -flto=thin).  xz -3 compressing the same input
# under fntrace record, each build:
#  - the output is the same build's untraced, and fntrace says 0 lost;
#  - every function's hits are its calls as callgrind counts them in the
#    same program (LTO inlines a function into some of its callers: it is
#    called, and hit, fewer times);
#  - the functions both builds keep, called as often in both, are hit as
#    often.

. "$top/tests/cc_lib.sh"

if ! command -v valgrind >/dev/null; then
	t_skip "lto xz" "valgrind (callgrind) is not installed"
	return 0
fi
seq 1 30000 >input

# xz_build NAME COMPILER CFLAGS: NAME/xz, built so; 1 if it could not be.
xz_build() {
	local xz
	mkdir -p "$1"
	if ! xz=$(FNTRACE_CC=$2 "$top/scripts/build-xz.sh" "$FNTRACE" "$3" 2>"$1/build.log"); then
		t_fail "lto xz $1: make CC=\"fntrace cc\" CFLAGS=\"$3\"" \
			"$(tail -n 2 "$1/build.log" | tr '\n' ' ')"
		return 1
	fi
	cp "$xz" "$1/xz"
	t_eq "lto xz $1: make's output has no word of fntrace's" "" \
		"$(grep -i 'fntrace:' "${xz%/src/xz/xz}/make.log")"
}

# xz_traced NAME: NAME/xz compressing the input, recorded: its hits, and
# its calls (of functions with sites) by callgrind.
xz_traced() {
	local d=$1
	"$d/xz" -3 -c input >"$d/want.xz"
	FNTRACE_CACHE=$NOCACHE "$FNTRACE" record -o "$d/x.data" -- "$d/xz" -3 -c input \
		>"$d/got.xz" 2>"$d/record.err"
	t_eq "lto xz $d: exit status" 0 "$?"
	t_ok "lto xz $d: the output untraced xz's" cmp -s "$d/want.xz" "$d/got.xz"
	t_ok "lto xz $d: 0 lost" grep -q ' 0 lost' "$d/record.err"
	lto_hits "$d/x.data" >"$d/x.hits"
	lto_calls "$d" x "$d/xz" -3 -c input
	t_ok "lto xz $d: sites in $(wc -l <"$d/sites") functions, more than 60" \
		test "$(wc -l <"$d/sites")" -gt 60
	t_same "lto xz $d: every function's hits are its calls (callgrind)" "$d/x.calls" "$d/x.hits"
}

# xz_vs PLAIN LTO: the functions both keep and call as often, hit as often.
xz_vs() {
	lto_both "$1" "$2" x
	t_ok "lto xz $2: as many hits as $1 ($(wc -l <"$2/x.both") functions, at least 30)" \
		awk -F, '$2 != $3 { bad = 1 } END { exit bad || NR < 30 }' "$2/x.both"
}

# clang's without -g: valgrind 3.19 cannot read clang 14's DWARF 5.
for build in "gcc -O2_-g -flto" "clang -O2 -flto=thin"; do
	set -- $build
	o=$(echo "$2" | tr _ ' ')
	if xz_build "$1-plain" "$1" "$o" && xz_build "$1-lto" "$1" "$o $3"; then
		xz_traced "$1-plain"
		xz_traced "$1-lto"
		xz_vs "$1-plain" "$1-lto"
	fi
done
