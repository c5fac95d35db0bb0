# Helpers for the cases of programs built with a sanitizer
# (tests/cases/tools/sanitizers.sh, tests/cases/arch/sanitizers_arch.sh):
# the sanitizers' options without make check-sanitize's log file (the
# programs here report on stderr, as without fntrace), a build, and the
# comparison of a run under fntrace record with one without.

ASAN_OPTIONS=$(printf '%s' "${ASAN_OPTIONS:-}" | sed 's/:*log_path=[^:]*//')
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1
UBSAN_OPTIONS=$(printf '%s' "${UBSAN_OPTIONS:-}" | sed 's/:*log_path=[^:]*//')
export ASAN_OPTIONS UBSAN_OPTIONS
PROG=$top/tests/progs/sanitize.c
PROG_CXX=$top/tests/progs/sanitize_cxx.cpp

# san_build CC NAME FLAGS...: fntrace cc (c++ for a .cpp) with compiler CC.
san_build() {
	local cc=$1 out=$2 src=$PROG cmd=cc; shift 2
	case $out in *_cxx) src=$PROG_CXX cmd=c++ ;; esac
	case $cc in *gcc) cxx=${cc%gcc}g++ ;; *) cxx=clang++ ;; esac
	FNTRACE_CC=$cc FNTRACE_CXX=$cxx "$FNTRACE" $cmd -g -O1 "$@" -o "$out" "$src" -lpthread
}

# The lines a sanitizer's report is known by: its error, its summary;
# pids, thread ids and addresses taken out.
san_summary() {
	grep -E 'ERROR: |WARNING: ThreadSanitizer|^SUMMARY: |runtime error: ' "$1" |
		sed -E 's/==[0-9]+==/==PID==/; s/(pid|tid)=[0-9]+/\1=N/g; s/0x[0-9a-f]+/ADDR/g'
}

# The stacks a sanitizer's report shows: each frame's function, file and
# line (addresses taken out).
san_frames() {
	grep -E '^ *#[0-9]+ ' "$1" | sed -E 's/0x[0-9a-f]+//g'
}

# The stack of the error itself (the report's first), as san_frames.
san_error_frames() {
	awk '/^ *#[0-9]+ / { seen = 1; print; next } seen { exit }' "$1" | sed -E 's/0x[0-9a-f]+//g'
}

# The stacks as san_frames, each without the C library's start-up
# frames below the program's outermost (__libc_start_main, _start,
# start_thread, clone): ASan's fast unwinder stops where the frame
# pointers end, libgcc's goes on through them.
san_program_frames() {
	san_frames "$1" | grep -vE ' in (__libc_start|_start|start_thread|clone)'
}

# san_hijacked NAME CMD...: a program whose returns fntrace takes by
# their return addresses (no return sites): the stack of the error is
# still the program's, walked by libgcc's unwinder (ASan's on a fatal
# error) with the real addresses put back; and so are the allocation
# stacks, which fntrace has ASan walk the same way
# (fast_unwind_on_malloc=0, src/target/asan_env.c): the report's stacks
# are the program's frame for frame, down to its outermost.  A user's
# own fast_unwind_on_malloc is left as it is.  CMD's first word is a
# build of sanitize.c.
san_hijacked() {
	local name=$1 mine; shift
	"$@" >plain.out 2>plain.err
	"$FNTRACE" record -o h.data -- "$@" >rec.out 2>rec.err
	san_error_frames plain.err >want.frames
	san_error_frames rec.err >got.frames
	t_ok "$name, hijacked: the error has a stack" test -s want.frames
	t_same "$name, hijacked: the error's stack is the program's" want.frames got.frames
	san_program_frames plain.err >want.frames
	san_program_frames rec.err >got.frames
	t_ok "$name, hijacked: the report has an allocation stack" \
		grep -q '^allocated by' rec.err
	t_same "$name, hijacked: every stack is the program's" want.frames got.frames
	t_eq "$name, hijacked: the options the program reads" \
		"$ASAN_OPTIONS:fast_unwind_on_malloc=0" "$(san_options "$1")"
	mine=$ASAN_OPTIONS:fast_unwind_on_malloc=1
	t_eq "$name, hijacked: the user's fast_unwind_on_malloc kept" \
		"$mine" "$(ASAN_OPTIONS=$mine san_options "$1")"
}

# san_hijacked_leak NAME CMD...: LSan's report of a leak, whose stack
# is the allocation's, as san_hijacked's: the program's, frame for frame.
san_hijacked_leak() {
	local name=$1; shift
	"$@" >plain.out 2>plain.err
	"$FNTRACE" record -o h.data -- "$@" >rec.out 2>rec.err
	san_program_frames plain.err >want.frames
	san_program_frames rec.err >got.frames
	t_ok "$name, hijacked: the leak has a stack" grep -q ' in make ' want.frames
	t_same "$name, hijacked: the leak's stack is the program's" want.frames got.frames
}

# san_options PROG: ASAN_OPTIONS as PROG (sanitize.c) has it, under
# fntrace record.
san_options() {
	"$FNTRACE" record -o o.data -- "$1" options 2>/dev/null | sed -n 2p
}

# san_same NAME WANT_REPORT CMD...: CMD under fntrace record as without:
# exit status, stdout, the report's lines (WANT_REPORT 1: there is one),
# and fntrace's one line; with SAN_FRAMES set (where returns go through
# return sites, not hijacked), the report's stacks too.  The report of
# the recording in s.txt.
san_same() {
	local name=$1 want=$2 rc_plain rc; shift 2
	"$@" >plain.out 2>plain.err
	rc_plain=$?
	rm -rf s.data
	"$FNTRACE" record -o s.data -- "$@" >rec.out 2>rec.err
	rc=$?
	t_eq "$name: exit status" "$rc_plain" "$rc"
	t_same "$name: the program's output" plain.out rec.out
	san_summary plain.err >want.sum
	san_summary rec.err >got.sum
	t_eq "$name: a report without fntrace: $want" "$want" "$([ -s want.sum ] && echo 1 || echo 0)"
	t_same "$name: the sanitizer's report lines" want.sum got.sum
	if [ -n "${SAN_FRAMES:-}" ]; then
		san_frames plain.err >want.frames
		san_frames rec.err >got.frames
		t_same "$name: the report's stacks" want.frames got.frames
	fi
	t_eq "$name: fntrace's one line" "fntrace: recorded" \
		"$(grep '^fntrace' rec.err | cut -c1-17 | tr '\n' ' ' | sed 's/ $//')"
	"$FNTRACE" report -i s.data >s.txt 2>&1
}

# san_calls NAME FUNC...: each FUNC was called in the recording.
san_calls() {
	local name=$1 f; shift
	for f in "$@"; do
		t_ok "$name: $f() traced" grep -q " $f()" s.txt
	done
}
