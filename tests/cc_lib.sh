# Helpers of the fntrace cc cases (cc.sh, cc_lto.sh), sourced by them.
#   cc_make DIR [VAR=VALUE...]    the project tests/progs/ccproj, built in DIR
#   cc_nops NAME IMG NOPS N       IMG has N sites, each one of NOPS
#   cc_graph_want FILE            the graph of ccproj's programs, traced

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
