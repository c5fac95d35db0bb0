# Acceptance test on a real program: the Lua 5.4 interpreter from Debian's
# sources, built with -pg, runs tests/real/workload.lua (about 2 million
# calls). fntrace's per-function hit counts must equal uftrace's exactly,
# and the program's output must be the same as an untraced run.
#
# Sourced by tests/run.sh (cwd is a scratch dir; $top, $BUILD, t_* helpers).
# This test is required: when something it needs is missing it fails, it
# never skips. REAL_LUA_FLAVORS (default "pg") also checks other builds
# (fentry, nop) against the same uftrace counts, which do not depend on the
# flavor.

rl_work=$top/tests/real/workload.lua

# Build one flavor; its path goes to stdout, build messages to rl_build.log.
rl_build() {
	"$top/scripts/build-lua.sh" "$1" 2>>rl_build.log
}

# uftrace's counts for lua-pg: U.table, in the format compare_counts.sh reads.
rl_uftrace() {
	command -v uftrace >/dev/null || { echo "uftrace is not installed"; return 1; }
	uftrace record --no-libcall -d U.data "$1" "$rl_work" >U.out 2>U.err ||
		{ echo "uftrace record failed: $(tail -n 2 U.err | tr '\n' ' ')"; return 1; }
	cmp -s U.out plain.out || { echo "the program's output differs under uftrace"; return 1; }
	uftrace report -d U.data -f call -s call --no-pager >U.table 2>U.err ||
		{ echo "uftrace report failed: $(tail -n 2 U.err | tr '\n' ' ')"; return 1; }
}

# When counts differ, show the exact count too (callcount.so, which does
# not depend on return addresses), so the wrong side is obvious.
rl_referee() {
	lua=$1 flavor=$2
	[ "$flavor" = nop ] && return 0   # nop sites never call mcount
	"$top/tests/real/callcount.sh" exact.csv "$lua" "$rl_work" >/dev/null 2>&1 || return 0
	echo "exact counts (callcount.so) of the functions above:"
	awk -F, 'NR == FNR { if (FNR > 1) exact[$1] = $2; next }
		 FNR > 1 && $1 in exact { printf "  %-32s %12s\n", $1, exact[$1] }' \
		exact.csv diff.txt
}

# Record one flavor with fntrace and compare with uftrace's counts.
rl_check_flavor() {
	flavor=$1
	name="real_lua ($flavor)"
	lua=$(rl_build "$flavor") ||
		{ t_fail "$name: build" "$(tail -n 3 rl_build.log | tr '\n' ' ')"; return; }
	if [ ! -x "$FNTRACE" ]; then
		t_fail "$name: fntrace record" "$FNTRACE is not built"
		return
	fi
	rm -rf F.data
	rc=0
	"$FNTRACE" record -o F.data -- "$lua" "$rl_work" >F.out 2>F.err || rc=$?
	if [ $rc -ne 0 ]; then
		t_fail "$name: fntrace record" "exit status $rc: $(tail -n 3 F.err | tr '\n' ' ')"
		return
	fi
	t_same "$name: output under fntrace equals the untraced output" plain.out F.out
	if ! "$FNTRACE" report -i F.data --stat --csv >F.csv 2>F.err; then
		t_fail "$name: fntrace report --stat --csv" "$(tail -n 3 F.err | tr '\n' ' ')"
		return
	fi
	if "$top/tests/real/compare_counts.sh" U.table F.csv 10 >cmp.txt 2>&1; then
		t_pass "$name: per-function counts equal uftrace's ($(head -n 1 cmp.txt))"
	else
		t_fail "$name: per-function counts differ from uftrace's"
		cat cmp.txt
		tail -n +2 cmp.txt | awk 'NR > 1 { print $1 "," }' | sed '1i function,' >diff.txt
		rl_referee "$lua" "$flavor"
	fi
}

rl_main() {
	if ! plain=$(rl_build plain) || ! pg=$(rl_build pg); then
		t_fail "real_lua: build Lua from Debian sources" "$(tail -n 3 rl_build.log | tr '\n' ' ')"
		return
	fi
	"$plain" "$rl_work" >plain.out 2>&1 ||
		{ t_fail "real_lua: untraced run" "$(tail -n 3 plain.out | tr '\n' ' ')"; return; }
	why=$(rl_uftrace "$pg") || { t_fail "real_lua: uftrace reference" "$why"; return; }
	for flavor in ${REAL_LUA_FLAVORS:-pg}; do
		rl_check_flavor "$flavor"
	done
}

rl_main
