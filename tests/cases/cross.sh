# Issue 10: the runtime on every other architecture.  Each case an
# architecture lists in tests/arch/<arch>.sh (ARCH_CASES) runs again with
# T_ARCH set: its programs cross-built, recorded and reported as on
# x86_64, and run under qemu-user through binfmt_misc (i386: natively).

host=$(uname -m)
for entry in "$top"/src/arch/*/entry.S; do
	arch=$(basename "$(dirname "$entry")")
	[ "$arch" = "$host" ] && continue
	if [ ! -f "$BUILD/$arch/libfntrace.so" ]; then
		t_fail "cross: the $arch runtime is built" "no $BUILD/$arch/libfntrace.so"
		continue
	fi
	for c in $(. "$top/tests/arch/$arch.sh"; echo "$ARCH_CASES"); do
		mkdir -p "$arch-$c"
		( cd "$arch-$c" && T_ARCH=$arch && . "$top/tests/lib.sh" && . "$top/tests/cases/$c.sh" ) ||
			t_fail "cross: $arch $c stopped with status $?"
	done
done
