# Library calls through the GOT (src/core/libcalls.c): a traced program's
# calls into libc and libm, traced when a filter names them, nested under
# their traced callers with the library's callbacks nested under them;
# switched live, the GOT as it was once they are off.  On x86_64, and on
# aarch64 under qemu-user (tests/arch/aarch64.sh), where there is no
# attach and fntrace cc builds for the host only.

# The programs' call sites: fentry calls on x86_64, patchable entries on
# aarch64 (gcc has no -mfentry there); gcc for the architecture.
if [ -n "$T_ARCH" ]; then flavor=gcc-patchable; sites="-fpatchable-function-entry=2"
else flavor=gcc-fentry; sites="-pg -mfentry"; fi
gcc_t=$(t_cc gcc)

# A function_graph report's calls, indented by depth, as t_graph_calls.
calls() { t_graph_calls "$1" | sed 's/ *$//'; }
# The csv report's hits of function $2 in $1 ("" if none).
hits() { awk -F, -v f="$2" '$1 == f { print $2 }' "$1"; }
# The lines of the first call to $2 in the graph $1, its braces included.
first_call() {
	calls "$1" | awk -v f="$2" '
		!on && $0 ~ "^ *" f "\\(\\) {$" { on = 1; match($0, /^ */); ind = RLENGTH }
		on { print substr($0, ind + 1) }
		on && $0 ~ "^ *} /\\* " f { exit }'
}

# run_checks TAG PROG: record -F '*' of "PROG run 3", its graph and counts.
run_checks() {
	local tag=$1 prog=$2
	"$prog" run 3 >want.out
	"$FNTRACE" record -F '*' -o "$tag.data" -- "$prog" run 3 >got.out 2>"$tag.err"
	t_eq "$tag: exit status" 0 "$?"
	t_same "$tag: output as untraced" want.out got.out
	t_ok "$tag: a library call's errno reaches its caller" grep -q '^read(-1): EBADF$' got.out
	"$FNTRACE" report -i "$tag.data" >"$tag.txt"
	t_eq "$tag: ... that call traced" 1 "$(calls "$tag.txt" | grep -c '^    read();$')"
	"$FNTRACE" report -i "$tag.data" --csv >"$tag.csv"
	t_eq "$tag: libc's calls nested under their traced caller" \
		"$(printf 'use_heap() {\n  malloc();\n  memset();\n  strlen();\n  free();\n} /* use_heap */')" \
		"$(first_call "$tag.txt" use_heap)"
	t_eq "$tag: qsort's callbacks nested under it, nothing else" "by_value();" \
		"$(first_call "$tag.txt" qsort | sed '1d;$d' | sort -u | sed 's/^ *//')"
	t_ok "$tag: a longjmp out of a traced function is unwound" \
		grep -q '} /\* jump_back: unwound \*/' "$tag.txt"
	t_eq "$tag: the calls after it at their depth" 1 "$(calls "$tag.txt" | grep -c '^  leave() {')"
	# (Its calls back into the program's PLT, __cxa_finalize on aarch64,
	# nest inside it.)
	t_eq "$tag: exit() is a call that never returns" "    exit() {" \
		"$(calls "$tag.txt" | sed -n '/^    exit() {$/,$p' | grep -v '^      ' | tail -n 1)"
	t_eq "$tag: ... the last at its depth or above" "" \
		"$(calls "$tag.txt" | sed -n '/^    exit() {$/,$p' | sed 1d | grep -v '^      ')"
	t_eq "$tag: as many malloc, strlen, free as the program made" \
		"$(sed -n 's/ qsort.*//p' got.out)" \
		"malloc $(hits "$tag.csv" malloc) strlen $(hits "$tag.csv" strlen) free $(hits "$tag.csv" free)"
	t_ok "$tag: library calls have durations" grep -q '[0-9] us *|  *malloc();' "$tag.txt"
}

t_build $flavor -O2 libcalls "$top/tests/progs/libcalls.c"
t_eq "lazy: built to bind lazily" "" "$(readelf -d libcalls | grep 'FLAGS.*NOW')"
run_checks "lazy" ./libcalls

# No filter: every traced function, no library call.
"$FNTRACE" record -o all.data -- ./libcalls run 3 >/dev/null 2>&1
"$FNTRACE" report -i all.data --csv >all.csv
t_eq "no filter: the program's functions" 3 "$(hits all.csv use_heap)"
t_eq "no filter: no library call" "" "$(hits all.csv malloc)$(hits all.csv qsort)"
# By name, and by the library's module.
"$FNTRACE" record -F malloc -o name.data -- ./libcalls run 3 >/dev/null 2>name.err
"$FNTRACE" report -i name.data --csv >name.csv
t_eq "-F malloc: malloc alone" "malloc,3" "$(tail -n +2 name.csv | cut -d, -f1,2 | tr '\n' ' ' | sed 's/ $//')"
# (":mod:libc", the kernel's form: every function of libc.so.6.)
"$FNTRACE" record -F ':mod:libc' -o mod.data -- ./libcalls run 3 >/dev/null 2>&1
"$FNTRACE" report -i mod.data --csv >mod.csv
t_eq "-F :mod:libc: libc's calls" "3 3 1" \
	"$(hits mod.csv malloc) $(hits mod.csv strlen) $(hits mod.csv qsort)"
t_eq "-F :mod:libc: none of the program's" "" \
	"$(hits mod.csv use_heap)$(hits mod.csv by_value)$(hits mod.csv main)"

# The function tracer: each call and its caller.
"$FNTRACE" record -t function -F malloc -F qsort -o fn.data -- ./libcalls run 1 >/dev/null 2>&1
"$FNTRACE" report -i fn.data >fn.txt
t_eq "function tracer: the calls and their callers" "malloc <-use_heap qsort <-sort_some" \
	"$(sed -n 's/.*: \([a-z_]* <-[a-z_]*\)$/\1/p' fn.txt | tr '\n' ' ' | sed 's/ $//')"

# Their arguments and return values, as any entry site's.
"$FNTRACE" record -F use_heap -F malloc -F strlen -A 'malloc@arg1' -R 'malloc@retval/x' \
	-R 'strlen@retval' -o args.data -- ./libcalls run 1 >/dev/null 2>&1
"$FNTRACE" report -i args.data >args.txt
t_ok "args: malloc's size and pointer" grep -q 'malloc(32); /\* = 0x[0-9a-f]* \*/' args.txt
t_ok "args: strlen's length" grep -q 'strlen(); /\* = 31 \*/' args.txt

# Bound at start-up, the GOT read-only after it (full RELRO).
# shellcheck disable=SC2086
$gcc_t -O2 $sites -g -o relro "$top/tests/progs/libcalls.c" -Wl,-z,relro,-z,now -lpthread
t_ok "relro: built bound now" sh -c "readelf -d relro | grep -q 'FLAGS.*NOW'"
run_checks "relro" ./relro

# -fno-plt: the calls go through GLOB_DAT slots, taken where the code only
# calls through them; getpid's, which also gives its address to the
# program, is left alone, and the address stays the library's.
# shellcheck disable=SC2086
$gcc_t -O2 $sites -fno-plt -o noplt "$top/tests/progs/libcalls.c" -lpthread
t_eq "-fno-plt: malloc and getpid called through GLOB_DAT slots" 2 \
	"$(readelf -rW noplt | grep -c 'R_[A-Z0-9_]*GLOB_DAT.* \(malloc\|getpid\)@')"
./noplt run 3 >want.out
"$FNTRACE" record -F '*' -o noplt.data -- ./noplt run 3 >got.out 2>/dev/null
t_eq "-fno-plt: exit status" 0 "$?"
t_same "-fno-plt: output as untraced" want.out got.out
t_ok "-fno-plt: getpid's address is the library's" grep -q "getpid the library's 1" got.out
"$FNTRACE" report -i noplt.data --csv >noplt.csv
t_eq "-fno-plt: malloc's calls traced, getpid's not" "3 3 " \
	"$(hits noplt.csv use_heap) $(hits noplt.csv malloc) $(hits noplt.csv getpid)"

# Built by fntrace cc, with gcc and with clang (for the host only).
[ -z "$T_ARCH" ] || t_skip "fntrace cc" "it builds for the host only"
[ -n "$T_ARCH" ] || for c in gcc clang; do
	FNTRACE_CC=$c "$FNTRACE" cc -O2 -o "cc_$c" "$top/tests/progs/libcalls.c" -lpthread 2>/dev/null
	run_checks "cc_$c" "./cc_$c"
done

# C++ exceptions thrown by a library call (__cxa_throw), through another
# (_Unwind_Resume, after a destructor ran), to a traced catcher.
t_build g++-pg -O2 throw "$top/tests/progs/libcalls_throw.cpp"
./throw >want.out
"$FNTRACE" record -F '*' -o throw.data -- ./throw >got.out 2>/dev/null
t_eq "throw: exit status" 0 "$?"
t_same "throw: output as untraced" want.out got.out
"$FNTRACE" report -i throw.data >throw.txt
t_eq "throw: __cxa_throw unwound, twice" 2 "$(calls throw.txt | grep -c '^ *} /\* __cxa_throw: unwound \*/')"
t_eq "throw: the catchers return, at their depth" 4 "$(calls throw.txt | grep -c '^  } /\* catcher \*/$')"
t_eq "throw: the trace goes on after them" 1 \
	"$(calls throw.txt | tac | sed '/^  } \/\* catcher \*\/$/,$d' | grep -c '^  operator delete\[\]();$')"
# libstdc++'s operator new[], by the name people write (its symbol _Znam).
"$FNTRACE" record -F 'operator*' -o new.data -- ./throw >/dev/null 2>&1
"$FNTRACE" report -i new.data --csv >new.csv
t_eq "operator new[] and delete[] by their C++ names" "1 1" \
	"$(hits new.csv 'operator new[]') $(hits new.csv 'operator delete[]')"

# A traced library dlopen()ed lazily and locally, and closed, 20 times:
# its calls into libc and into libm, which only it loaded (found in its
# own scope), on every load (its records taken again, not made anew).
# shellcheck disable=SC2086
$gcc_t -O2 $sites -fPIC -shared -o libcalls_m.so "$top/tests/progs/libcalls_lib.c" -lm
./libcalls dl "$PWD/libcalls_m.so" 20 >want.out
"$FNTRACE" record -F lib_work -F cos -F malloc -o dl.data -- ./libcalls dl "$PWD/libcalls_m.so" 20 \
	>got.out 2>/dev/null
t_eq "dlopen: exit status" 0 "$?"
t_same "dlopen: output as untraced" want.out got.out
"$FNTRACE" report -i dl.data >dl.txt
"$FNTRACE" report -i dl.data --csv >dl.csv
t_eq "dlopen: the library's calls to libc and libm under its function" \
	"$(printf 'lib_work() {\n  malloc();\n  cos();\n} /* lib_work */')" \
	"$(first_call dl.txt lib_work)"
t_eq "dlopen: on every load" "20 20 20" \
	"$(hits dl.csv lib_work) $(hits dl.csv malloc) $(hits dl.csv cos)"
t_eq "dlopen: one record per slot, whatever the loads" 1 \
	"$(grep -h ' cos$' dl.data/funcs-* | cut -d' ' -f2 | sort -u | wc -l)"

# A command to the program in live mode (on descriptor 3), its answer read.
ask() { echo "$1" >&3; read -r _ <&4; }

# live_checks TAG PROG: switched on and off by fntrace ctl; the program
# dumps its JUMP_SLOT words on request.
live_checks() {
	local tag=$1 prog=$2 pid
	rm -f cmd ans
	mkfifo cmd ans
	"$FNTRACE" run -- "$prog" live <cmd >ans 2>live.err &
	pid=$!
	exec 3>cmd 4<ans
	ask "work 0"		# the slots its answers use bound
	ask "got $tag.g0"
	rw() { grep -c "rw-p .*/${prog#./}\$" /proc/$pid/maps; }
	rw_before=$(rw)
	"$FNTRACE" ctl $pid set_ftrace_filter '*:mod:libc.so.6'
	"$FNTRACE" ctl $pid current_tracer function_graph
	ask "got $tag.g1"
	t_eq "$tag live: malloc's slot changed when on" 1 \
		"$(diff "$tag.g0" "$tag.g1" | grep -c '^> malloc ')"
	t_eq "$tag live: the GOT's protection back after the stores" "$rw_before" "$(rw)"
	ask "work 3"
	"$FNTRACE" ctl $pid trace >"$tag.trace"
	t_eq "$tag live: the calls traced" 3 "$(grep -c ' malloc();' "$tag.trace")"
	"$FNTRACE" ctl $pid set_ftrace_filter malloc
	t_eq "$tag live: enabled_functions" "malloc [libc.so.6] (1)" \
		"$("$FNTRACE" ctl $pid enabled_functions)"
	ask "got $tag.g2"
	t_eq "$tag live: only malloc's slot still changed" "malloc" \
		"$(diff "$tag.g0" "$tag.g2" | sed -n 's/^> \([^ ]*\) .*/\1/p' | tr '\n' ' ' | sed 's/ $//')"
	"$FNTRACE" ctl $pid current_tracer nop
	ask "got $tag.g3"
	t_same "$tag live: the GOT as it was once off" "$tag.g0" "$tag.g3"
	ask quit
	exec 3>&- 4<&-
	wait $pid
	t_eq "$tag live: exit status" 0 "$?"
}
live_checks lazy ./libcalls
live_checks relro ./relro

# Attached to a process started without the runtime: switched on, then
# detached while on, its GOT is what it was before the attach (the slots
# of the wrapped functions, pointed at the runtime's wrappers while it is
# attached, given back too).
attach_checks() {
	rm -f cmd ans
	mkfifo cmd ans
	./libcalls live <cmd >ans &
	local pid=$!
	exec 3>cmd 4<ans
	ask "work 0"
	ask "got at.g0"
	"$FNTRACE" attach $pid 2>/dev/null
	t_eq "attach: attached" 0 "$?"
	"$FNTRACE" ctl $pid set_ftrace_filter '*:mod:libc.so.6'
	"$FNTRACE" ctl $pid current_tracer function_graph
	ask "work 2"
	ask "got at.g1"
	"$FNTRACE" ctl $pid trace >at.trace
	t_eq "attach: the calls traced" 2 "$(grep -c ' strlen();' at.trace)"
	t_eq "attach: strlen's slot changed when on" 1 "$(diff at.g0 at.g1 | grep -c '^> strlen ')"
	"$FNTRACE" detach $pid 2>/dev/null
	t_eq "attach: detached" 0 "$?"
	ask "got at.g2"
	t_same "attach: the GOT as before the attach" at.g0 at.g2
	ask quit
	exec 3>&- 4<&-
	wait $pid
	t_eq "attach: exit status" 0 "$?"
}
if [ -z "$T_ARCH" ]; then attach_checks
else t_skip "attach" "no ptrace of a program under qemu-user"; fi

# Threads calling at once: report --stat counts every call they made.
"$FNTRACE" record -F malloc -F strlen -o thr.data -- ./libcalls threads 4 100000 >thr.out 2>thr.err
t_eq "threads: recorded" 0 "$?"
t_ok "threads: nothing lost" grep -q ', 0 lost ->' thr.err
"$FNTRACE" report -i thr.data --stat >thr.stat
t_eq "threads: --stat's hits are the calls the program counted" \
	"$(sed -n 's/ free.*//p' thr.out)" \
	"$(awk '$1 == "malloc" { m = $2 } $1 == "strlen" { s = $2 } END { print "malloc " m " strlen " s }' thr.stat)"

# Threads calling while it is switched on and off, four writes a round
# (make stress: 1000 rounds, LIBCALLS_ROUNDS).  They call LIBCALLS_CALLS
# times each, and on until every round is made: on a loaded machine, or
# with a sanitized fntrace, a fixed number of calls ran out first.
calls=${LIBCALLS_CALLS:-4000000} rounds=${LIBCALLS_ROUNDS:-60}
touch thr.hold
"$FNTRACE" run -- ./libcalls threads 4 "$calls" thr.hold >thr.out 2>/dev/null &
pid=$!
sleep 0.3
n=0
while kill -0 $pid 2>/dev/null && [ $n -lt "$rounds" ]; do
	"$FNTRACE" ctl $pid set_ftrace_filter 'malloc' 2>/dev/null
	"$FNTRACE" ctl $pid current_tracer function_graph 2>/dev/null
	"$FNTRACE" ctl $pid set_ftrace_filter '*:mod:libc.so.6' 2>/dev/null
	"$FNTRACE" ctl $pid current_tracer nop 2>/dev/null
	n=$((n + 1))
done
rm thr.hold
wait $pid
t_eq "threads: exit status" 0 "$?"
t_eq "threads: switched while they called" "$rounds" "$n"
made=$(sed -n 's/^malloc \([0-9]*\) strlen \1 .*/\1/p' thr.out)
t_eq "threads: every call made, malloc as often as strlen" yes \
	"$([ "${made:-0}" -ge $((4 * calls)) ] && echo yes || head -n 1 thr.out)"

# An architecture whose runtime has no library calls yet says so.
[ -n "$T_ARCH" ] && return 0
riscv64-linux-gnu-gcc -O2 -pg -o rv "$top/tests/progs/libcalls.c"
QEMU_LD_PREFIX=/usr/riscv64-linux-gnu "$FNTRACE" record -F malloc -F use_heap -o rv.data -- \
	./rv run 1 >/dev/null 2>rv.err
t_eq "riscv64: traced all the same" 0 "$?"
t_eq "riscv64: a library function named is said unsupported" \
	"fntrace: -F 'malloc' matched no function of the program (library calls: not supported on riscv64)" \
	"$(grep "'malloc'" rv.err)"
t_eq "x86_64: -F malloc matched" "" "$(grep 'matched no function' name.err)"
