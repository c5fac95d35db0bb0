# Issue 10: the runtime on every other architecture.  Each case an
# architecture lists in tests/arch/<arch>.sh (ARCH_CASES) runs again with
# T_ARCH set: its programs cross-built, recorded and reported as on
# x86_64, and run under qemu-user through binfmt_misc (i386: natively, or
# under qemu-i386 on a kernel without IA-32 emulation).
# A case is one of tests/cases/, or of tests/cross/ (those that compare
# an architecture with x86_64, and so only run here).

. "$top/tests/arch/left_out.sh"
host=$(uname -m)
for entry in "$top"/src/arch/*/entry.S; do
	arch=$(basename "$(dirname "$entry")")
	[ "$arch" = "$host" ] && continue
	if [ ! -f "$BUILD/$arch/libfntrace.so" ]; then
		t_fail "cross: the $arch runtime is built" "no $BUILD/$arch/libfntrace.so"
		continue
	fi
	skip=$(arch_left_out "$arch")
	for c in $(. "$top/tests/arch/$arch.sh"; echo "$ARCH_CASES"); do
		case " $skip " in *" $c "*)
			t_skip "cross: $arch $c" "$(arch_left_out_why "$arch" "$c")"
			continue ;;
		esac
		mkdir -p "$arch-$c"
		file=$top/tests/cases/$c.sh
		[ -f "$file" ] || file=$top/tests/cross/$c.sh
		( cd "$arch-$c" && T_ARCH=$arch && . "$top/tests/lib.sh" && . "$file" ) ||
			t_fail "cross: $arch $c stopped with status $?"
	done
done
