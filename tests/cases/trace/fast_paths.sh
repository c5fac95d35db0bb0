# The graph hooks' fast paths (x86_64's entry.S) against the C path.  A
# depth limit too deep to matter sends every call through C; the calls
# traced, with their nesting, must be the same one for one, for each way
# a return is caught: a return site (fntrace cc), a hijacked return from
# an -mfentry site, and one from a -pg site after the frame is set up;
# and with a trigger set, which only its function's calls take to C.
# Elsewhere both recordings go through C, and must agree all the same.

[ -z "$T_ARCH" ] || return 0

fast_vs_c() {
	local name=$1 bin=$2
	"$FNTRACE" record -o "$name-fast.data" -- "./$bin" 3 >"$name-fast.out" 2>/dev/null
	"$FNTRACE" record -D 100000 -o "$name-c.data" -- "./$bin" 3 >"$name-c.out" 2>/dev/null
	t_same "fast paths, $name: the program's output" "$name-fast.out" "$name-c.out"
	"$FNTRACE" report -i "$name-fast.data" | t_graph_calls /dev/stdin >"$name-fast.txt"
	"$FNTRACE" report -i "$name-c.data" | t_graph_calls /dev/stdin >"$name-c.txt"
	t_ok "fast paths, $name: the trace has micro's calls" \
		sh -c "[ \$(grep -c '^ *fib' $name-fast.txt) -gt 30000 ]"
	t_same "fast paths, $name: the same calls as through C" "$name-c.txt" "$name-fast.txt"
	# A trigger sends its function's calls to C, the others' not.
	"$FNTRACE" record --trigger=scale:stacktrace:3 -o "$name-trig.data" -- "./$bin" 3 \
		>"$name-trig.out" 2>/dev/null
	"$FNTRACE" report -i "$name-trig.data" >"$name-trig.txt"
	t_eq "fast paths, $name, a trigger on scale: its stack traces" 3 \
		"$(grep -c '/\* <stack trace>' "$name-trig.txt")"
	grep -v '/\* <stack trace>' "$name-trig.txt" | t_graph_calls /dev/stdin >"$name-trig.calls"
	t_same "fast paths, $name, a trigger on scale: the same calls as through C" \
		"$name-c.txt" "$name-trig.calls"
}

if "$FNTRACE" cc -O2 -o micro-cc "$top/bench/micro.c"; then
	fast_vs_c cc micro-cc
else
	t_fail "fast paths: fntrace cc builds bench/micro.c"
fi
for flavor in gcc-fentry gcc-pg; do
	t_build "$flavor" -O2 "micro-$flavor" "$top/bench/micro.c" ||
		{ t_fail "fast paths: $flavor builds bench/micro.c"; continue; }
	fast_vs_c "$flavor" "micro-$flavor"
done
