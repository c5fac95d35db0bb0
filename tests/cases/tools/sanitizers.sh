# Programs built with a sanitizer (fntrace cc -fsanitize=...), by gcc
# (whose runtimes are shared libraries that must come first in the
# process) and clang (which links them into the program): under fntrace
# record each runs as without fntrace, its exit status, its output and
# its sanitizer's summary line the same, a clean run and a run the
# sanitizer catches (ASan's heap overflow and leak, LSan's leak, TSan's
# data race, UBSan's overflow with and without -fno-sanitize-recover),
# and the trace holds the calls made before the report.  Also: C++, the
# program started through a launcher or by its own exec, posix_spawn
# and system(), fntrace run with the tracer switched live by ctl, and
# attach and detach, twice (the second attach only starts the runtime
# again): for TSan with the main thread in its nanosleep interceptor and
# in pthread_join() (attach waits for a thread to come back to the
# program's code), and refused in one line when every thread stays in
# TSan's runtime, the program running on as it was.
#
# make check-sanitize runs the suite with ASAN_OPTIONS naming a file for
# the reports of fntrace itself: the programs here report on stderr, as
# without it, and so would fntrace.

. "$top/tests/san_lib.sh"
# x86_64's return sites, gcc's and clang's, leave every return address
# as it is: the stacks in the reports are the program's.
[ -n "${ARCH_RETURN_SITES:-}" ] && SAN_FRAMES=1

compilers=gcc
if command -v clang >/dev/null; then compilers="gcc clang"
else t_skip "clang builds" "clang is not installed"; fi

for cc in $compilers; do
	san_build $cc asan -fsanitize=address
	san_same "$cc asan clean" 0 ./asan clean
	san_calls "$cc asan clean" main steps step
	# Its returns go through return sites: ASan's fast unwinder at
	# malloc sees the program's addresses, and is left to do so.
	[ -n "${ARCH_RETURN_SITES:-}" ] && t_eq "$cc asan: ASAN_OPTIONS as the user set it" \
		"$ASAN_OPTIONS" "$(san_options ./asan)"
	san_same "$cc asan heap overflow" 1 ./asan overflow
	san_calls "$cc asan heap overflow" steps read_at
	# Built without fntrace cc: -pg (or a patchable entry) and no
	# return sites, every return address taken.
	if [ $cc = gcc ]; then flags=-pg; else flags=-fpatchable-function-entry=5; fi
	$cc -g -O1 $flags -fsanitize=address -o asan_hj "$PROG" -lpthread
	san_hijacked "$cc asan heap overflow" ./asan_hj overflow
	# Walked by libgcc's unwinder, the runtime's own blocks have stacks
	# that reach past the loader: LSan must find them reachable
	# (src/common/bulk.c), not leaked.
	SAN_FRAMES= san_same "$cc asan leak, hijacked" 1 ./asan_hj leak
	san_same "$cc asan leak" 1 ./asan leak
	san_calls "$cc asan leak" make

	san_build $cc asan_cxx -fsanitize=address
	san_same "$cc asan C++ clean" 0 ./asan_cxx clean
	san_calls "$cc asan C++ clean" caught deep
	san_same "$cc asan C++ overflow" 1 ./asan_cxx overflow
	san_calls "$cc asan C++ overflow" at
	san_same "$cc asan C++ leak" 1 ./asan_cxx leak
	san_calls "$cc asan C++ leak" lose

	san_build $cc lsan -fsanitize=leak
	san_same "$cc lsan leak" 1 ./lsan leak
	san_calls "$cc lsan leak" make
	# gcc's: clang's LSan alone keeps no frame pointers, and its
	# unwinder at malloc stops at the first frame without fntrace.
	if [ $cc = gcc ]; then
		$cc -g -O1 $flags -fsanitize=leak -o lsan_hj "$PROG" -lpthread
		san_hijacked_leak "$cc lsan leak" ./lsan_hj leak
	fi

	san_build $cc tsan -fsanitize=thread
	san_same "$cc tsan clean" 0 ./tsan clean
	san_calls "$cc tsan clean" steps step
	san_same "$cc tsan race" 1 ./tsan race
	san_calls "$cc tsan race" bump
	# Every return address taken (-pg, or clang's patchable entry): TSan's
	# entry hook is handed the real one by the runtime, and the race's
	# stacks are the program's.  gcc's programs call the hook through
	# their GOT (src/core/sanitized.c); clang's call the one they hold
	# directly, and its entry gets a detour (a pc fix, core/detours.c).
	$cc -g -O1 $flags -fsanitize=thread -o tsan_hj "$PROG" -lpthread
	SAN_FRAMES=1 san_same "$cc tsan race, hijacked" 1 ./tsan_hj race
	san_calls "$cc tsan race, hijacked" racer bump
	# clang's LTO code, generated at the link: fntrace cc makes the
	# image's XRay sleds return sites, and the stacks are the program's.
	if [ $cc = clang ] && [ -n "${ARCH_RETURN_SITES:-}" ]; then
		san_build $cc tsan_lto -flto -fsanitize=thread
		SAN_FRAMES=1 san_same "$cc tsan race, LTO" 1 ./tsan_lto race
		san_calls "$cc tsan race, LTO" bump
	fi

	san_build $cc ubsan -fsanitize=undefined
	san_same "$cc ubsan, recovering" 1 ./ubsan ub
	san_calls "$cc ubsan, recovering" add
	san_build $cc ubsan_abort -fsanitize=undefined -fno-sanitize-recover=all
	san_same "$cc ubsan, not recovering" 1 ./ubsan_abort ub
	san_calls "$cc ubsan, not recovering" add
done

# The runtime first in LD_PRELOAD for the program fntrace starts, and
# for each image started on the way: through launchers, by its own exec,
# posix_spawn and system(); and not for a program that needs none.
san_same "asan through sh -c" 1 sh -c './asan overflow; exit $?'
san_calls "asan through sh -c" read_at
for how in exec spawn system vfork; do
	san_same "asan started by $how" 1 ./asan "$how" overflow
	san_calls "asan started by $how" read_at
done
san_same "tsan through env" 1 env ./tsan race
# TSan reads the runtime's suppressions from tsan.supp beside it, which
# the package installs: record writes no file of its own for them.  A
# file the user names is read too: fntrace's then holds both.
TSAN_OPTIONS= "$FNTRACE" record -o e.data -- ./asan sh 'echo "tsan: $TSAN_OPTIONS"' >e.out 2>/dev/null
t_eq "TSan's suppressions: the file beside the runtime" \
	"tsan: suppressions=${LIBFNTRACE%/*}/tsan.supp" "$(grep '^tsan' e.out)"
printf 'race:bump\n' >user.supp
TSAN_OPTIONS=suppressions=$PWD/user.supp san_same "tsan, the user's suppressions" 0 ./tsan race
san_same "tsan started by vfork" 1 ./tsan vfork race
san_calls "tsan started by vfork" bump
# The image exec'd next needs no sanitizer: LD_PRELOAD holds the runtime
# alone again.
"$FNTRACE" record -o e.data -- ./asan sh 'echo "preload: $LD_PRELOAD"' >e.out 2>/dev/null
t_eq "no sanitizer runtime for an image that needs none" "preload: $LIBFNTRACE" \
	"$(grep '^preload' e.out)"

# A program built without call sites, with ASan: its functions traced
# through detours (a filter names them).  The runtime's records live in
# mappings LeakSanitizer does not read: nothing of the runtime's may be
# reported at exit, and the exit status is the program's.
$(t_cc gcc) -O2 -g -fsanitize=address -o asan_plain "$top/tests/progs/detours.c" -lpthread
./asan_plain run 5 >plain.out 2>plain.err
rc_plain=$?
"$FNTRACE" record -F leaf_add -F mix -o dp.data -- ./asan_plain run 5 >rec.out 2>rec.err
t_eq "asan, detours: exit status" "$rc_plain" "$?"
t_same "asan, detours: the program's output" plain.out rec.out
t_eq "asan, detours: no sanitizer report" 0 "$(grep -c 'Sanitizer' rec.err)"
"$FNTRACE" report -i dp.data --csv >dp.csv
t_ok "asan, detours: leaf_add traced" grep -q '^leaf_add,40,' dp.csv

# fntrace run, the tracer switched live; then attach.  The program calls
# step() until the file hold is gone, then does what its last argument
# says.
san_live() {
	local name=$1 prog=$2 mode=$3 pid rc_plain t
	"./$prog" hold nohold "$mode" >plain.out 2>plain.err
	rc_plain=$?
	touch hold
	"$FNTRACE" run -- "./$prog" hold hold "$mode" >live.out 2>live.err &
	pid=$!
	for i in $(seq 100); do t_endpoint "$pid" && break; sleep 0.1; done
	for t in function_graph function nop function_graph; do
		"$FNTRACE" ctl $pid current_tracer $t 2>ctl.err ||
			t_fail "$name: switched to $t" "$(cat ctl.err)"
	done
	for i in $(seq 50); do "$FNTRACE" ctl $pid trace | grep -q ' step()' && break; sleep 0.1; done
	t_ok "$name: step() traced" sh -c "'$FNTRACE' ctl $pid trace | grep -q ' step()'"
	rm hold
	wait $pid
	t_eq "$name: exit status" "$rc_plain" "$?"
	t_same "$name: the program's output" plain.out live.out
	san_summary plain.err >want.sum
	san_summary live.err >got.sum
	t_same "$name: the sanitizer's report lines" want.sum got.sum
	t_eq "$name: fntrace says only where it runs" "fntrace: ./$prog runs as pid $pid" \
		"$(grep '^fntrace' live.err)"
}
for cc in $compilers; do
	san_build $cc asan -fsanitize=address
	san_build $cc tsan -fsanitize=thread
	san_live "$cc asan: run, ctl" asan overflow
	san_live "$cc tsan: run, ctl" tsan race
done

# attach_round NAME PID N: attach, see step() traced, detach.
attach_round() {
	local name="$1 (attach $3)" pid=$2 rc
	"$FNTRACE" attach $pid 2>attach.err
	rc=$?
	[ $rc = 0 ] || rc="$rc: $(tr '\n' ' ' <attach.err)"
	t_eq "$name: attach" 0 "$rc"
	"$FNTRACE" ctl $pid current_tracer function_graph
	for i in $(seq 50); do "$FNTRACE" ctl $pid trace | grep -q ' step()' && break; sleep 0.1; done
	t_ok "$name: step() traced" sh -c "'$FNTRACE' ctl $pid trace | grep -q ' step()'"
	"$FNTRACE" detach $pid 2>attach.err
	rc=$?
	[ $rc = 0 ] || rc="$rc: $(tr '\n' ' ' <attach.err)"
	t_eq "$name: detach" 0 "$rc"
}

# san_attach NAME PROG HOW MODE: the program calls step() (in main, or
# in a thread main joins: HOW hold or joined) until the file hold is
# gone, then does MODE; attached to twice meanwhile.
san_attach() {
	local name=$1 prog=$2 how=$3 mode=$4 pid rc
	"./$prog" $how nohold "$mode" >plain.out 2>plain.err
	rc=$?
	touch hold
	# A fresh file: the last case's output would let attach in before
	# the program has even been exec'd.
	rm -f att.out
	"./$prog" $how hold "$mode" >att.out 2>att.err &
	pid=$!
	# Once in main: attached while the loader still runs ASan's start-up
	# (it holds the loader's lock a long time), attach's dlopen() waited
	# past its time limit and was abandoned halfway.
	for i in $(seq 100); do [ -s att.out ] && break; sleep 0.1; done
	attach_round "$name" $pid 1
	attach_round "$name" $pid 2
	rm hold
	wait $pid
	t_eq "$name: exit status" "$rc" "$?"
	t_same "$name: the program's output" plain.out att.out
	san_summary plain.err >want.sum
	san_summary att.err >got.sum
	t_same "$name: the sanitizer's report lines" want.sum got.sum
}

# Every thread in TSan's runtime (main in its read interceptor, and TSan's
# own thread): attach waits for the time limit, then says so; the program
# reads its line and ends as it would have.
san_attach_refused() {
	local name=$1 pid
	rm -f line.in att.out
	mkfifo line.in
	./tsan line clean <line.in >att.out 2>att.err &
	pid=$!
	exec 7>line.in
	for i in $(seq 100); do [ -s att.out ] && break; sleep 0.1; done
	t_error "$name: attach refused" 1 "came back to its own code from ThreadSanitizer's runtime" \
		"$FNTRACE" attach --timeout 1 $pid
	echo hello >&7
	exec 7>&-
	wait $pid
	t_eq "$name: ... and the program runs on as it was" 0 "$?"
	t_eq "$name: ... its output" "line: sum 9|read hello|clean: done" \
		"$(tr '\n' '|' <att.out | sed 's/|$//')"
	t_eq "$name: ... no report" "" "$(san_summary att.err)"
}

# san_attach_hijacked NAME PROG HOW: attached while it holds (HOW hold:
# alone; busy: with four threads calling into TSan's hooks and never its
# interceptors), the graph on when its threads race: the report's stacks
# are the program's, the runtime's fix of TSan's hook patched in under
# running threads.
san_attach_hijacked() {
	local name=$1 prog=$2 how=$3 pid rc
	"./$prog" $how nohold race >plain.out 2>plain.err
	rc=$?
	touch hold
	rm -f att.out
	"./$prog" $how hold race >att.out 2>att.err &
	pid=$!
	for i in $(seq 100); do [ -s att.out ] && break; sleep 0.1; done
	"$FNTRACE" attach $pid 2>attach.err
	t_eq "$name: attach" 0 "$?"
	"$FNTRACE" ctl $pid current_tracer function_graph
	rm hold
	wait $pid
	t_eq "$name: exit status" "$rc" "$?"
	san_frames plain.err >want.frames
	san_frames att.err >got.frames
	t_same "$name: the report's stacks" want.frames got.frames
}

for cc in $compilers; do
	if [ $cc = gcc ]; then flags=-pg; else flags=-fpatchable-function-entry=5; fi
	$cc -g -O1 $flags -fsanitize=thread -o tsan_hj "$PROG" -lpthread
	san_attach_hijacked "$cc tsan race, hijacked" tsan_hj hold
	san_attach_hijacked "$cc tsan race, hijacked, busy threads" tsan_hj busy
	san_build $cc asan -fsanitize=address
	san_attach "$cc asan" asan hold leak
	san_build $cc tsan -fsanitize=thread
	san_attach "$cc tsan race" tsan hold race
	san_attach "$cc tsan joined" tsan joined clean
	san_attach "$cc tsan joined race" tsan joined race
	san_attach_refused "$cc tsan reading"
	# Where debug registers do not trap (some virtual machines), the
	# thread is stepped out of TSan's runtime instead.
	FNTRACE_NO_HW_BREAK=1 san_attach "$cc tsan joined, stepped" tsan joined clean
	FNTRACE_NO_HW_BREAK=1 san_attach_refused "$cc tsan reading, stepped"
	# Where membarrier is missing, threads are synced by a signal: TSan's
	# own thread, which blocks every signal, is left out of the syncs.
	FNTRACE_NO_MEMBARRIER=1 san_attach "$cc tsan joined, synced by signals" tsan joined clean
done
