# The whole life of a process is traced: calls made by constructors (the
# program's, at priority 101 and the default, a C++ static object's, a
# linked library's, which glibc runs before the preloaded runtime's own,
# and a dlopen()ed library's, run inside dlopen), by atexit handlers
# registered before main and in main, and by destructors (the program's,
# the static object's, the linked library's at exit, the dlopen()ed one's
# at dlclose).  Each stage writes its name as it runs: the trace must
# have the same calls, as many times, in the same order, for both
# tracers.  What fntrace cc links starts the runtime from the program's
# .preinit_array and reads a library before its constructors, whatever
# compiled its objects (fntrace cc, -fpatchable-function-entry: sites that
# are nops); -pg builds start it from the first call to mcount.

progs=$top/tests/progs

# build_life FLAVOR [LINKER]: lifetime, its library and the dlopen()ed
# one, in FLAVOR/ (cc: fntrace cc; otherwise a flavour of tests/arch/),
# linked by LINKER (default: the compiler).
build_life() {
	local dir=$PWD/$1 compile link_flags flags
	mkdir -p "$dir"
	if [ "$1" = cc ]; then
		compile="env FNTRACE_CC=$(t_cc gcc) $FNTRACE cc" flags= link_flags=
	else
		arch_flavor "$1" || return 1
		compile=$(t_cc "$cc") link_flags=$link
	fi
	local linker=${2:-$compile}
	# shellcheck disable=SC2086
	$compile $flags -O2 -g -fPIC -c -o "$dir/lib.o" "$progs/lifetime_lib.c" &&
	$compile $flags -O2 -g -fPIC -c -o "$dir/dl.o" "$progs/lifetime_dl.c" &&
	$compile $flags -O2 -g -c -o "$dir/main.o" "$progs/lifetime.c" &&
	$compile $flags -O2 -g -fno-exceptions -c -o "$dir/object.o" "$progs/lifetime_object.cpp" &&
	$linker -shared -o "$dir/liblifetime_lib.so" "$dir/lib.o" &&
	$linker -shared -o "$dir/liblifetime_dl.so" "$dir/dl.o" &&
	$linker $link_flags -o "$dir/lifetime" "$dir/main.o" "$dir/object.o" \
		-L"$dir" -llifetime_lib -Wl,-rpath,"$dir"
}

# The calls of functions named in_* in a report, one per line, in its
# order: "in_x();" or "in_x() {" in a graph, ": in_x <-parent" in a
# function trace (not a parent, nor _GLOBAL__sub_I_in_x).
stages_of() {
	awk 'match($0, / in_[a-z0-9_]+(\(\)| <-)/) {
		name = substr($0, RSTART + 1, RLENGTH - 1); sub(/(\(\)| <-)$/, "", name); print name }' "$1"
}

check_life() {
	local flavor=$1 tracer=$2 dir=$PWD/$1
	"$FNTRACE" record -t "$tracer" -o "$flavor-$tracer.data" -- \
		"$dir/lifetime" "$dir/liblifetime_dl.so" >"$flavor-$tracer.out" 2>"$flavor-$tracer.err"
	t_eq "lifetime: $flavor $tracer: the program ran to its end" 0 "$?"
	t_same "lifetime: $flavor $tracer: its output as untraced (float arguments kept)" \
		"$flavor.want" "$flavor-$tracer.out"
	"$FNTRACE" report -i "$flavor-$tracer.data" >"$flavor-$tracer.txt" 2>/dev/null
	stages_of "$flavor-$tracer.txt" >"$flavor-$tracer.traced"
	t_same "lifetime: $flavor $tracer: every stage's call traced, in order" \
		"$flavor-$tracer.out" "$flavor-$tracer.traced"
}

# A patchable entry of one instruction, where the arch has one
# (ARCH_PATCHABLE_LIVE), linked by fntrace cc.  (Entries of several
# instructions, gcc's five 1-byte nops on x86, cannot be changed once
# other threads may run: a library dlopen()ed after start-up keeps them,
# as the design says.)
for flavor in cc gcc-pg gcc-fentry ${ARCH_PATCHABLE_LIVE:-}; do
	linker=
	case $flavor in
	cc) ;;
	"${ARCH_PATCHABLE_LIVE:-}") linker="env FNTRACE_CC=$(t_cc gcc) $FNTRACE cc" ;;
	# -pg: where the arch's mcount starts the runtime (ARCH_EARLY_MCOUNT).
	*) [ -n "${ARCH_EARLY_MCOUNT:-}" ] || continue ;;
	esac
	case " $FLAVORS cc " in *" $flavor "*) ;; *) continue ;; esac
	if ! build_life "$flavor" "$linker" >"build-$flavor.log" 2>&1; then
		t_fail "lifetime: $flavor builds" "$(tail -n 3 "build-$flavor.log" | tr '\n' ' ')"
		continue
	fi
	"$flavor/lifetime" "$PWD/$flavor/liblifetime_dl.so" >"$flavor.want"
	t_eq "lifetime: $flavor: each of the 14 stages ran, once" "14 14" \
		"$(wc -l <"$flavor.want") $(sort -u "$flavor.want" | wc -l)"
	check_life "$flavor" function_graph
	check_life "$flavor" function
done

# Under qemu-user (T_ARCH), the rest is not tried: the control endpoint
# is a native matter (tests/cases/control/control.sh).
[ -n "$T_ARCH" ] && return 0

# fntrace run, and a recorder attached while main waits: everything after
# it, up to the last destructor, is in the recording.  (But for the
# dlopen()ed library's names: record -p reads the function table every
# 2 s, and a library opened and closed between two reads is not in it;
# its calls are there, named by their ids.)
dir=$PWD/cc
mkdir -p sync
"$FNTRACE" run -- "$dir/lifetime" "$dir/liblifetime_dl.so" "$PWD/sync" >run.out 2>run.err &
pid=$!
for i in $(seq 300); do [ -e sync/ready ] && t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" record -p $pid -o live.data >live.log 2>&1 &
rec=$!
for i in $(seq 300); do
	[ "$("$FNTRACE" ctl $pid current_tracer 2>/dev/null)" = function_graph ] && break
	sleep 0.1
done
touch sync/go
wait $pid
t_eq "lifetime: run: the program ran to its end" 0 "$?"
wait $rec
t_eq "lifetime: run: record -p ends with it" 0 "$?"
"$FNTRACE" report -i live.data >live.txt 2>/dev/null
stages_of live.txt >live.traced
t_ok "lifetime: run: ... the dlopen()ed library's six calls, by id" \
	test "$(grep -c '<id [0-9]*>()' live.txt)" -ge 6
sed '1,/^in_main$/d; /^in_dl_/d' run.out >live.want
t_same "lifetime: run: from the switch on, every stage's call traced, to the last destructor" \
	live.want live.traced
