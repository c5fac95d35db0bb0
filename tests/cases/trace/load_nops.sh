# At load, with no recorder, every call site becomes a nop and nothing is
# traced: the program reads its own code to show it.

cat >selfbytes.c <<'C'
#include <stdio.h>
__attribute__((noinline)) int work(int x) { return x * 3 + 1; }
int main(void)
{
	const unsigned char *p = (const unsigned char *)work;
	for (int i = 0; i < 32; i++) printf("%02x", p[i]);
	printf(" %d\n", work(4));
	return 0;
}
C

# The bytes at the site, for each flavour: before (as compiled) and after.
check_flavor() {
	flavor=$1 want=$2
	t_build "$flavor" -O2 selfbytes selfbytes.c || { t_fail "load: build $flavor"; return; }
	LD_PRELOAD=$LIBFNTRACE ./selfbytes >after.txt 2>err.txt
	case $(cat after.txt) in
	*"$want"*" 13") t_pass "load: $flavor site is a nop" ;;
	*) t_fail "load: $flavor site is a nop" "got $(cat after.txt)" ;;
	esac
	t_eq "load: $flavor prints nothing of its own" "" "$(cat err.txt)"
}
if [ "$T_ARCH" = i386 ]; then
	# i386's nops: "lea 0(%esi),%esi", 6 bytes, and "ds lea 0(%esi,%eiz),%esi".
	check_flavor gcc-pg "8db600000000"
	check_flavor gcc-pg-nopie "5589e53e8d742600"
	check_flavor gcc-fentry "3e8d742600"
	check_flavor gcc-nop "3e8d742600"
	check_flavor gcc-patchable "3e8d742600"
	check_flavor clang-pg "3e8d742600"
	check_flavor clang-patchable "3e8d742600"
else
	check_flavor gcc-pg "554889e5660f1f440000"
	check_flavor gcc-fentry "660f1f440000"
	check_flavor gcc-nop "0f1f440000"
	check_flavor gcc-patchable "0f1f440000"
	check_flavor clang-pg "0f1f440000"
	check_flavor clang-patchable "0f1f4400"
fi

# Nothing is written anywhere, and no thread is started.
t_build gcc-pg -O2 selfbytes selfbytes.c
mkdir quiet && cd quiet
LD_PRELOAD=$LIBFNTRACE strace -f -qq -e trace=clone,clone3,openat -o ../strace.txt ../selfbytes >/dev/null
cd ..
t_eq "load: no files left behind" "" "$(ls quiet)"
# A call, not a path that happens to hold the word (a checkout in ~/clone).
t_eq "load: no thread started" "0" "$(grep -cE '^([0-9]+ +)?clone3?\(' strace.txt)"
t_eq "load: nothing opened for writing" "0" "$(grep -c 'O_WRONLY\|O_RDWR' strace.txt)"

# A program linked with -pg (gprof's start-up code) still runs.
t_build gcc-pg-linked -O2 gprof selfbytes.c
LD_PRELOAD=$LIBFNTRACE ./gprof >out.txt
t_ok "load: program linked with -pg runs" grep -q ' 13$' out.txt
