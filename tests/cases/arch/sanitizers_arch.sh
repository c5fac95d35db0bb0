# Programs built with a sanitizer by the architecture's own gcc (run
# with T_ARCH, from tests/arch/<arch>.sh's case list): under fntrace
# record each runs as without fntrace, its exit status, output and
# report the same, and the trace holds the calls made before the report
# (helpers: tests/san_lib.sh).  Each sanitizer whose runtime the cross
# gcc has: ASan on aarch64, riscv64 and i386, UBSan on aarch64 and i386,
# TSan on aarch64 (riscv64's ASan does not run under qemu-riscv64, with
# fntrace or without: said as skipped).  Under qemu-user LSan cannot run, with fntrace or
# without: it stops the threads to scan them with ptrace, which the
# emulator does not give a guest ("LeakSanitizer has encountered a fatal
# error"); ASan's leak check is off there.  Where the arch has return
# sites for clang (aarch64), clang's ASan build's stacks are compared too.

# Natively, tests/cases/tools/sanitizers.sh covers these and more.
[ -n "$T_ARCH" ] || return 0

. "$top/tests/san_lib.sh"
[ -n "${ARCH_EMULATED:-}" ] && ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0

gcc=$(t_cc gcc)
# i386 programs run on the host's 32-bit libraries (no QEMU_LD_PREFIX),
# which hold no sanitizer runtime: the cross ones are found by rpath.
rpath=
[ -z "${QEMU_LD_PREFIX:-}" ] && rpath=-Wl,-rpath,/usr/$ARCH_TRIPLE/lib

# has_runtime NAME: the cross gcc has libNAME.so (it prints the bare
# name for one it lacks).
has_runtime() {
	case $($gcc -print-file-name="lib$1.so") in /*) return 0 ;; esac
	return 1
}

# usable NAME: the clean build runs without fntrace (ASan's allocator
# does not fit the address space qemu-riscv64 gives it: a CHECK fails
# before main).
usable() {
	"./$1" clean >/dev/null 2>usable.err && return 0
	t_skip "$1 on $T_ARCH" "it fails without fntrace: $(grep -m1 . usable.err)"
	return 1
}

kinds=0
if has_runtime asan && san_build "$gcc" asan -fsanitize=address $rpath && usable asan; then
	kinds=$((kinds + 1))
	san_same "asan clean" 0 ./asan clean
	san_calls "asan clean" main steps step
	san_same "asan heap overflow" 1 ./asan overflow
	san_calls "asan heap overflow" steps read_at
	# gcc has no return sites but on x86_64: every return address taken.
	san_hijacked "asan heap overflow" ./asan overflow
	san_same "asan started by posix_spawn" 1 ./asan spawn overflow
	san_calls "asan started by posix_spawn" read_at
fi
if has_runtime ubsan && san_build "$gcc" ubsan -fsanitize=undefined $rpath && usable ubsan; then
	kinds=$((kinds + 1))
	san_same "ubsan, recovering" 1 ./ubsan ub
	san_calls "ubsan, recovering" add
	san_build "$gcc" ubsan_abort -fsanitize=undefined -fno-sanitize-recover=all $rpath
	san_same "ubsan, not recovering" 1 ./ubsan_abort ub
	san_calls "ubsan, not recovering" add
fi
# A TSan program takes some 20 s of CPU to start under qemu-user: the
# race alone is run (twice: without fntrace, then under it), which
# makes it the check that TSan runs here too.  A clean program's run
# stays free of reports under fntrace natively (sanitizers.sh).
if has_runtime tsan && san_build "$gcc" tsan -fsanitize=thread $rpath; then
	kinds=$((kinds + 1))
	# No return sites, but gcc copies the return address to a register
	# before _mcount takes its slot, and hands TSan's entry hook that
	# copy: the race's stacks are the program's.
	SAN_FRAMES=1 san_same "tsan race" 1 ./tsan race
	san_calls "tsan race" racer bump
fi
t_ok "$gcc has a sanitizer that runs here to try" test "$kinds" -gt 0

# clang links TSan's runtime into the program, exports its interface
# (--dynamic-list) and calls the entry hook directly, past the GOT, with
# what the return slot holds: return_to_handler wherever the graph took
# the call.  No clang TSan runtime is installed for the target: clang's
# objects, with patchable entries (every return hijacked), are linked by
# the cross gcc with its libtsan.a, exported the same way (-rdynamic).
# The runtime's pc fix (core/detours.c) hands the hook the real return
# address: the race's stacks are the program's, frame for frame, and
# fntrace says nothing but its one line.
if [ "$T_ARCH" = aarch64 ] && [ -f "$($gcc -print-file-name=libtsan.a)" ]; then
	$(t_cc clang) -g -O1 -fsanitize=thread -fpatchable-function-entry=2 -c -o ctsan.o "$PROG" &&
		$gcc -fsanitize=thread -static-libtsan -rdynamic -o ctsan ctsan.o -lpthread
	SAN_FRAMES=1 san_same "clang tsan race, hijacked" 1 ./ctsan race
	san_calls "clang tsan race, hijacked" racer bump
fi

# clang's builds have return sites where the arch takes them (aarch64):
# nothing hijacked, the report's stacks are the program's, frame for
# frame.  No ASan runtime of clang's is installed for the target, so
# clang's objects (fntrace cc) are linked by the cross gcc with its
# libasan, whose interface version is clang 14's.  Built without return
# sites (every return hijacked, and x30 saved after the hijack, where the
# runtime cannot give it back), the unwinder steps through a frame at
# return_to_handler, which the wrappers of _Unwind_Backtrace and
# backtrace() pass over: the stacks are the program's all the same.
if [ -n "${ARCH_RETURN_SITES:-}" ] && has_runtime asan; then
	FNTRACE_CC=$(t_cc clang) "$FNTRACE" cc -g -O1 -fsanitize=address -c -o casan.o "$PROG" &&
		$gcc -fsanitize=address $rpath -o casan casan.o -lpthread
	SAN_FRAMES=1 san_same "clang asan heap overflow, return sites" 1 ./casan overflow
	san_calls "clang asan heap overflow, return sites" steps read_at
	$(t_cc clang) -g -O1 -fsanitize=address -fpatchable-function-entry=2 -c -o casan_hj.o "$PROG" &&
		$gcc -fsanitize=address $rpath -o casan_hj casan_hj.o -lpthread
	san_hijacked "clang asan heap overflow" ./casan_hj overflow
fi
