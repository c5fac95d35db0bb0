# Helpers of the fntrace cc cases (cc.sh, cc_lto.sh), sourced by them.
#   cc_make DIR [VAR=VALUE...]    the project tests/progs/ccproj, built in DIR
#   cc_nops NAME IMG NOPS N       IMG has N sites, each one of NOPS
#   cc_graph_want FILE            the graph of ccproj's programs, traced
#   lto_hits DATA                 a recording's hits per function
#   lto_callgrind OUT CMD...      CMD's calls per function, by callgrind
#   lto_calls DIR NAME PROG ARGS  PROG's calls of functions with sites
#   lto_both PLAIN LTO NAME       hits of functions both call as often

PROJ=$top/tests/progs/ccproj
IMAGE_AWK=$top/tests/rmc_image.awk
NOCACHE=$PWD/no-side-files	# side files of other runs must not count

# cc_make DIR [VAR=VALUE...]: build the project in DIR, as make of its own.
cc_make() {
	local dir=$1
	shift
	mkdir -p "$dir"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$@" make -s -C "$dir" -f "$PROJ/Makefile" \
		SRC="$PROJ" CC="$FNTRACE cc" >"$dir/make.out" 2>&1
}

# cc_nops NAME IMG NOPS N: IMG has N sites, and each holds one of NOPS
# (hex bytes a site begins with), read from the image, not from fntrace.
cc_nops() {
	FNTRACE_CACHE=$NOCACHE "$FNTRACE" list -a "$2" | awk '{ print $1 }' >"$2.sites"
	readelf -x .text "$2" | awk -v what=nops -v entries="$2.sites" -v nops="$3" \
		-f "$IMAGE_AWK" >"$2.bad"
	if [ "$(wc -l <"$2.sites")" -eq "$4" ] && [ ! -s "$2.bad" ]; then
		t_pass "$1: $4 sites, all nops"
	else
		t_fail "$1: $4 sites, all nops" "$(wc -l <"$2.sites") sites; $(head -n 2 "$2.bad" |
			tr '\n' ' ')"
	fi
}

cc_graph_want() {
	cat >"$1" <<'W'
main() {
  calc_total() {
    square();
    util_clamp();
    square();
    util_clamp();
    square();
    util_clamp();
  } /* calc_total */
  util_report();
} /* main */
W
}

# lto_hits DATA: "function,hits" per function of the recording, sorted.
lto_hits() {
	"$FNTRACE" report -i "$1" --csv 2>/dev/null | tail -n +2 | cut -d, -f1,2 | LC_ALL=C sort
}

# lto_callgrind OUT CMD...: "function,calls" per function callgrind saw
# called while CMD ran (stdin as given), sorted; a recursive function's
# cycles ("f'2") counted as its own.
lto_callgrind() {
	local out=$1
	shift
	valgrind --tool=callgrind --compress-strings=no --compress-pos=no \
		--callgrind-out-file="$out.cg" "$@" >/dev/null 2>&1
	awk '/^cfn=/ { f = substr($0, 5); sub(/'"'"'[0-9]+$/, "", f) }
		/^calls=/ { split($1, c, "="); n[f] += c[2] }
		END { for (f in n) print f "," n[f] }' "$out.cg" | LC_ALL=C sort >"$out"
}

# lto_calls DIR NAME PROG ARGS... < INPUT: DIR/NAME.calls, "function,calls"
# for each function of PROG with a site, as callgrind counts them.
lto_calls() {
	local dir=$1 name=$2 prog=$3
	shift 2
	lto_callgrind "$dir/$name.cg.all" "$@"
	FNTRACE_CACHE=$NOCACHE "$FNTRACE" list "$prog" | LC_ALL=C sort -u >"$dir/sites"
	LC_ALL=C join -t, "$dir/sites" "$dir/$name.cg.all" >"$dir/$name.calls"
}

# lto_both PLAIN LTO NAME: LTO/NAME.both, "function,hits,hits" for the
# functions both builds keep and call as often (NAME.calls, NAME.hits).
lto_both() {
	LC_ALL=C join -t, "$1/$3.calls" "$2/$3.calls" | awk -F, '$2 == $3 { print $1 }' \
		>"$2/$3.same"
	LC_ALL=C join -t, "$1/$3.hits" "$2/$3.hits" | LC_ALL=C join -t, - "$2/$3.same" \
		>"$2/$3.both"
}
