# What a person sees of an exported trace, in a real browser: Debian's
# Chromium, headless, driven by puppeteer-core (tests/browser/view.mjs),
# opens the SVG flame graph (hover, click to zoom, search, flip), and
# speedscope, served from 127.0.0.1 out of its npm package, with the
# Chrome JSON and with the folded stacks.  The checks are on what the
# pages show: frame names in the DOM, no console error.  The screenshots
# stay in $BROWSER_SHOTS (default build/browser/) for a person to look
# at; the README's come from there.

shots=${BROWSER_SHOTS:-$BUILD/browser}
rm -rf "$shots"
mkdir -p "$shots"

t_build gcc-pg -O2 viewed "$top/tests/progs/viewed.c"
"$FNTRACE" record -o v.data -- ./viewed >/dev/null 2>&1
t_eq "browser: the program recorded" 0 "$?"

npm=$("$top/scripts/npm-deps.sh" 2>npm.err)
t_ok "browser: puppeteer-core and speedscope installed" test -f "$npm/node_modules/speedscope/dist/release/index.html"

# Every function of the program, in both threads (compress_worker's is
# the second).
names=main,parse_config,read_rows,read_row,blur,blur_row,pixel_sum,spin,write_output,split_tile,compress_worker,deflate_block

# export_as FORMAT FILE: 0 if written; 2 if this build has no such
# format yet (the case then skips what needs it); 1 otherwise.
export_as() {
	if "$FNTRACE" export -i v.data --format "$1" -o "$2" 2>"$1.err"; then return 0; fi
	grep -q "unknown export format" "$1.err" && return 2
	return 1
}

args=
export_as svg flame.svg
case $? in
0) t_pass "browser: export --format svg"
   args="$args --svg flame.svg --hover blur_row --zoom read_rows --search spin" ;;
2) t_skip "browser: the flame graph" "no --format svg in this build" ;;
*) t_fail "browser: export --format svg" "$(cat svg.err)" ;;
esac
export_as chrome trace.json
case $? in
0) t_pass "browser: export --format chrome"
   args="$args --chrome trace.json --callees read_row" ;;
2) t_skip "browser: speedscope" "no --format chrome in this build" ;;
*) t_fail "browser: export --format chrome" "$(cat chrome.err)" ;;
esac
export_as folded stacks.folded
case $? in
0) t_pass "browser: export --format folded"
   args="$args --folded stacks.folded" ;;
2) t_skip "browser: folded stacks in speedscope" "no --format folded in this build" ;;
*) t_fail "browser: export --format folded" "$(cat folded.err)" ;;
esac
[ -n "$args" ] || return 0

# shellcheck disable=SC2086
NPM_DIR=$npm node "$top/tests/browser/view.mjs" --out "$shots" --names "$names" $args >view.out 2>&1
t_eq "browser: the pages were driven to the end" "0 yes" "$? $(sed -n 's/^done //p' "$shots/results.txt")"
[ -s view.out ] && sed 's/^/  view.mjs: /' view.out | head -n 20

seen() { sed -n "s/^$1 //p" "$shots/results.txt"; }
# How many of spin's ends this run has in the same nanosecond as its
# tail-calling caller's: what once made speedscope drop an end.
tail_ties() {
	python3 -c '
import json, sys
evs = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] == "E"]
print(sum(a["name"] == "spin" and b["name"] in ("read_row", "blur_row") and a["ts"] == b["ts"]
          and a["tid"] == b["tid"] for a, b in zip(evs, evs[1:])))' trace.json
}
want=$(echo "$names" | tr , ' ')
if [ -f flame.svg ]; then
	t_eq "browser: svg: no console or page error" "" "$(cat "$shots/errors-svg.txt")"
	t_eq "browser: svg: every step done" "" "$(seen svg.failed)"
	t_eq "browser: svg: every function has a frame" "$want" "$(seen svg.names)"
	t_eq "browser: svg: hover shows name and calls" "shown" "$(seen svg.hover)"
	t_eq "browser: svg: the tooltip counts blur_row's 12 calls" 1 "$(seen svg.tooltip | grep -cE '(^|[^0-9.])12 calls')"
	t_eq "browser: svg: the tooltip has a total and a self time" 2 \
		"$(seen svg.tooltip | grep -oE '[0-9.]+ (ns|us|µs|ms|s)\b' | wc -l | tr -d ' ')"
	t_eq "browser: svg: a click on read_rows zooms it to the full width" "full-width" "$(seen svg.zoom)"
	t_eq "browser: svg: search highlights spin's frames, no other" "spin" "$(seen svg.search)"
	t_eq "browser: svg: search highlights every frame of spin" 0 "$(seen svg.search_missed)"
	t_ok "browser: svg: spin has several frames" test "$(seen svg.search_frames)" -ge 5
	t_eq "browser: svg: the icicle/flame toggle turns it over" "flipped" "$(seen svg.flip)"
	t_ok "browser: svg: screenshot" test -s "$shots/flame.png"
fi
if [ -f trace.json ]; then
	t_eq "browser: speedscope: no console or page error" "" "$(cat "$shots/errors-speedscope.txt")"
	t_eq "browser: speedscope: every step done" "" "$(seen speedscope.failed)"
	t_eq "browser: speedscope: one profile per thread" "2" "$(seen speedscope.profiles)"
	t_eq "browser: speedscope: every function in the sandwich tables" "$want" "$(seen speedscope.names)"
	# speedscope adds main's time up from its children's, in floating
	# point: a sum a hair short of the whole is shown as ">99%".
	case $(seen speedscope.main_total) in
	"100%"|">99%") t_pass "browser: speedscope: main is all of its thread" ;;
	*) t_fail "browser: speedscope: main is all of its thread" "$(seen speedscope.main_total)" ;;
	esac
	# read_row's last act is a jump to spin (viewed.c): spin returns
	# straight to read_rows, and the two frames end within a nanosecond,
	# often in the same one.  speedscope shows spin inside read_row.
	t_eq "browser: speedscope: the tail-called spin is inside read_row" "read_row spin" "$(seen speedscope.callees)"
	echo "  browser: tail calls that ended with their caller in the same ns: $(tail_ties)"
	t_ok "browser: speedscope: screenshots" test -s "$shots/speedscope.png" -a -s "$shots/speedscope-sandwich.png"
fi
if [ -f stacks.folded ]; then
	t_eq "browser: folded: no console or page error" "" "$(cat "$shots/errors-folded.txt")"
	t_eq "browser: folded: every step done" "" "$(seen folded.failed)"
	t_eq "browser: folded: every function in speedscope's sandwich table" "$want" "$(seen folded.names)"
fi
