# Arguments and return values (record -A/-R, set_ftrace_args): every type
# a spec takes, in every build flavour; strings read without faulting the
# program; live through ctl and record -p; C++; the exports; refusals.

# The specs and what they give: tests/progs/args.specs, args.expected
# (at_page_end() is not inlined at -O0).
a_specs=$(cat "$top/tests/progs/args.specs")

cp "$top/tests/progs/args.expected" want.txt

for flavor in $FLAVORS; do
	t_build "$flavor" -O2 args "$top/tests/progs/args.c" || { t_fail "$flavor: build"; continue; }
	./args >plain.out
	# shellcheck disable=SC2086
	"$FNTRACE" record -o a.data $a_specs -- ./args >got.out 2>rec.err
	t_eq "$flavor: exit status" 0 "$?"
	t_same "$flavor: the program's output is what it is untraced" plain.out got.out
	"$FNTRACE" report -i a.data >report.txt
	t_graph_calls report.txt | grep -v '^# program' >calls.txt
	t_same "$flavor: every type, as the kernel's funcgraph-args prints it" want.txt calls.txt
done

# -O0 keeps every argument on the stack too: the registers still hold them
# at the call site.
t_build gcc-pg -O0 args0 "$top/tests/progs/args.c"
# shellcheck disable=SC2086
"$FNTRACE" record -o o0.data $a_specs -- ./args0 >/dev/null 2>&1
"$FNTRACE" report -i o0.data >o0.txt
t_graph_calls o0.txt | grep -v '^# program' >o0calls.txt
t_same "gcc-pg -O0: the same values" want.txt o0calls.txt

# Only the functions named go through the capturing path; report --stat
# is what it is without arguments.
t_build gcc-pg -O2 args "$top/tests/progs/args.c"
"$FNTRACE" record -o none.data -- ./args >/dev/null 2>&1
"$FNTRACE" report -i none.data --stat | awk 'NR > 2 { print $1, $2 }' | sort >stat_none.txt
"$FNTRACE" report -i a.data --stat | awk 'NR > 2 { print $1, $2 }' | sort >stat_args.txt
t_same "report --stat unchanged by arguments" stat_none.txt stat_args.txt
"$FNTRACE" record -o one.data -A 'greet@arg2' -- ./args >/dev/null 2>&1
"$FNTRACE" report -i one.data >one.txt
t_ok "unnamed functions keep their plain lines" grep -q 'add3();' one.txt
t_eq "a named one gets its values" 7 "$(grep -c 'greet([0-9]*);' one.txt)"

# A value named in the spec is printed with its name, as --auto-args
# names them from DWARF.
"$FNTRACE" record -o named.data -A 'greet@arg1/s:who,arg2:times' -A 'area@farg2:h' \
	-- ./args >/dev/null 2>&1
"$FNTRACE" report -i named.data >named.txt
t_ok "named values" grep -q 'greet(who="world", times=2);' named.txt
t_ok "a named floating-point value" grep -q 'area(h=-4);' named.txt
t_ok "the specs are kept in the data directory" \
	grep -qx 'greet@arg1/s:who,arg2:times' named.data/args

# The exports carry them.
"$FNTRACE" export -i a.data --format chrome -o a.json
t_ok "chrome: a call's arguments are its begin's args" \
	grep -q '"ph":"B","name":"add3","args":{"arg1":"1","arg2":"-2","arg3":"3000000000"}' a.json
t_ok "chrome: a typed return value on its end" \
	grep -q '"ph":"E","name":"area","args":{"retval":"-6"}' a.json
t_ok "chrome: the file is JSON" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' a.json
"$FNTRACE" export -i named.data --format chrome -o named.json
t_ok "chrome: values keyed by the names the spec gives them" \
	grep -q '"ph":"B","name":"greet","args":{"who":"\\"world\\"","times":"2"}' named.json
"$FNTRACE" export -i named.data --format perfetto -o named.pftrace
protoc --decode_raw <named.pftrace >named.raw
t_ok "perfetto: values keyed by their names" \
	sh -c 'grep -q "\"who\"" named.raw && grep -q "\"times\"" named.raw && ! grep -q "\"arg1\"" named.raw'

# C++: a method's this is arg1; names demangled in the report.
t_build g++-pg -O2 cxx "$top/tests/progs/args_cxx.cpp"
"$FNTRACE" record -o cxx.data -A '*Parser5parse*@arg2/s,arg3' -R '*Parser5parse*@retval' \
	-A '_Z5twiceIiET_S0_@arg1/i32' -R '_Z5twiceIiET_S0_@retval/i32' \
	-A '_Z5twiceIdET_S0_@farg1' -R '_Z5twiceIdET_S0_@retval/f' -- ./cxx >cxx.out 2>/dev/null
t_eq "C++: output as untraced" 79 "$(cat cxx.out)"
"$FNTRACE" report -i cxx.data >cxx.txt
t_ok "C++: a method" grep -q 'calc::Parser::parse("1+2\*x", 5); /\* = 16 \*/' cxx.txt
t_ok "C++: a template, int" grep -q 'int twice<int>(21); /\* = 42 \*/' cxx.txt
t_ok "C++: a template, double" grep -q 'double twice<double>(1.25); /\* = 2.5 \*/' cxx.txt

# Live: set_ftrace_args on a running process, appended to, cleared.
"$FNTRACE" run -- ./args 30 >/dev/null 2>&1 &
pid=$!
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" ctl $pid set_ftrace_args 'add3@arg1,arg3/x'
"$FNTRACE" ctl --append $pid set_ftrace_args 'add3@retval/x'
t_eq "ctl: set_ftrace_args lists the specs" "add3@arg1,arg3/x add3@retval/x" \
	"$("$FNTRACE" ctl $pid set_ftrace_args | tr '\n' ' ' | sed 's/ $//')"
"$FNTRACE" ctl $pid set_ftrace_filter add3
"$FNTRACE" ctl $pid current_tracer function_graph
sleep 0.5
"$FNTRACE" ctl $pid trace >live.txt
t_ok "ctl: live calls with their values" \
	grep -Eq 'add3\(([0-9]+), 0x[0-9a-f]+\); /\* = 0x[0-9a-f]+ \*/' live.txt
t_eq "ctl: every call has them" 0 "$(grep -c 'add3();' live.txt)"
"$FNTRACE" ctl $pid set_ftrace_args 'add3@arg9' 2>err.txt
t_eq "ctl: a value beyond the registers is refused" 1 "$?"
t_ok "ctl: ... with why" grep -q 'arg9: only the first 6 integer arguments are in registers' err.txt
"$FNTRACE" ctl $pid set_ftrace_args ''
"$FNTRACE" ctl $pid trace ''
sleep 0.3
"$FNTRACE" ctl $pid trace >cleared.txt
t_ok "ctl: cleared, plain calls again" grep -q 'add3();' cleared.txt
t_eq "ctl: ... and no values" 0 "$(grep -c 'add3([0-9]' cleared.txt)"

# record -p sets them too, and leaves them for the next recording to set.
"$FNTRACE" record -p $pid -d 1 -o p.data -A 'add3@arg2' >/dev/null 2>&1
t_eq "record -p -A: exit status" 0 "$?"
"$FNTRACE" report -i p.data >p.txt
t_ok "record -p -A: values" grep -Eq 'add3\([0-9]+\);' p.txt

# --auto-args on a running process: through ctl, and with record -p.
"$FNTRACE" ctl $pid current_tracer function_graph
"$FNTRACE" ctl --auto-args $pid set_ftrace_args
t_eq "ctl --auto-args: exit status" 0 "$?"
t_ok "ctl --auto-args: the DWARF's specs set" \
	"$FNTRACE" ctl $pid set_ftrace_args | grep -qx 'add3@arg1/i64:a,arg2/i64:b,arg3/i64:c,retval/i64'
"$FNTRACE" ctl $pid trace ''
sleep 0.3
"$FNTRACE" ctl $pid trace >auto_live.txt
t_ok "ctl --auto-args: live calls, named" \
	grep -Eq 'add3\(a=[0-9]+, b=[0-9]+, c=[0-9]+\); /\* = [0-9]+ \*/' auto_live.txt
t_error "ctl --auto-args: another file refused, a usage error" 2 \
	"writes set_ftrace_args, not current_tracer" "$FNTRACE" ctl --auto-args $pid current_tracer
"$FNTRACE" ctl $pid set_ftrace_args ''
"$FNTRACE" record -p $pid -d 1 -a -o pa.data >/dev/null 2>&1
t_eq "record -p --auto-args: exit status" 0 "$?"
"$FNTRACE" report -i pa.data >pa.txt
t_ok "record -p --auto-args: values named" \
	grep -Eq 'add3\(a=[0-9]+, b=[0-9]+, c=[0-9]+\); /\* = [0-9]+ \*/' pa.txt
t_ok "record -p --auto-args: the specs kept" grep -q '^greet@arg1/s:who,arg2/i32:times' pa.data/args
kill $pid 2>/dev/null
wait $pid 2>/dev/null

# The capturing path runs where floating-point arguments are live: it
# must call no libc function that may use the vector registers (gcc
# turns a structure's initializer into memset, and aarch64's memset
# clears with them).  Each runtime's ft_args_entry and ft_args_exit,
# their static helpers inlined.
for rt in "$BUILD/libfntrace.so" "$BUILD"/*/libfntrace.so; do
	[ -f "$rt" ] || continue
	arch=$(basename "$(dirname "$rt")")
	[ "$rt" = "$BUILD/libfntrace.so" ] && arch=native
	dump=objdump
	[ "$arch" != native ] && [ "$arch" != i386 ] && . "$top/tests/arch/$arch.sh" &&
		dump=$ARCH_TRIPLE-objdump
	command -v "$dump" >/dev/null 2>&1 || continue
	"$dump" -d --no-show-raw-insn "$rt" |
		awk '/^[0-9a-f]+ <.*>:$/ { on = $2 ~ /^<ft_args_(entry|exit)>:$/ } on' >capture.s
	t_ok "$arch: the capturing path is there to check" grep -q . capture.s
	t_eq "$arch: the capturing path calls no memset, memcpy or memmove" "" \
		"$(grep -E 'mem(set|cpy|move)' capture.s)"
done
. "$top/tests/arch/${T_ARCH:-x86_64}.sh"

# Refusals: a spec that cannot be one is a usage error (2, the line and
# the hint), one this program cannot give a failure (1, one line); no data
# directory either way.
t_refused() {
	rm -rf bad.data
	# shellcheck disable=SC2086
	t_error "refused: $1: status $2, saying '$4'" "$2" "$4" "$FNTRACE" record -o bad.data $3 -- ./args
	t_ok "refused: $1: no data directory" test ! -e bad.data
}
t_refused "no @" 2 "-A add3" "want FUNCTION@"
t_refused "unknown type" 2 "-A add3@arg1/q" "no such type"
t_refused "retval with -A" 2 "-A add3@retval" "the return value goes with -R"
t_refused "arguments with -R" 2 "-R add3@arg1" "arguments go with -A"
t_refused "function tracer" 2 "-t function -A add3@arg1" "need the function_graph tracer"
t_refused "arg7 on x86_64" 1 "-A add3@arg7" "x86_64 passes 6 integer arguments in registers"
t_refused "farg9 on x86_64" 1 "-A add3@farg9" "8 floating-point arguments"
t_refused "a name that is not one" 2 "-A add3@arg1:1x" "not a name"
t_refused "a named return value" 2 "-R add3@retval:sum" "the return value has no name"
# Where the runtime does not hand its registers over yet, the CLI says so.
if command -v i686-linux-gnu-gcc >/dev/null; then
	i686-linux-gnu-gcc -O2 -pg -o args-i386 "$top/tests/progs/args.c"
	rm -rf bad.data
	"$FNTRACE" record -o bad.data -A add3@arg1 -- ./args-i386 >/dev/null 2>err.txt
	t_ok "refused: i386 program: exit non-zero" test $? -ne 0
	t_ok "refused: i386 program: saying not yet" \
		grep -q 'arguments cannot be recorded for i386 programs yet' err.txt
fi
