# A program of another architecture gets the runtime built for
# it, and what cannot be done is one line and a non-zero exit.

cat >hello.c <<'C'
#include <stdio.h>
int main(void) { puts("hello"); return 0; }
C

# An fntrace with no runtimes of other architectures next to it.
mkdir -p lone && cp "$FNTRACE" lone/fntrace && cp "$LIBFNTRACE" lone/
aarch64-linux-gnu-gcc -O2 -pg -c hello.c -o a64.o && aarch64-linux-gnu-gcc -o a64 a64.o
lone/fntrace record -o d -- ./a64 >out 2>err
t_eq "targets: no runtime for the program's architecture: exit status" 1 "$?"
t_eq "targets: ... said in one line" \
	"fntrace: no aarch64 runtime next to fntrace: build it with 'make runtimes' (it needs aarch64-linux-gnu-gcc)" \
	"$(cat err)"
t_ok "targets: ... and nothing recorded" test ! -e d
lone/fntrace run -- ./a64 >out 2>err
t_eq "targets: run says the same" "1 1" "$? $(wc -l <err)"

# An ELF for a machine fntrace does not know (sparc: 2).
cp a64 sparc && printf '\002\000' | dd of=sparc bs=1 seek=18 conv=notrunc 2>/dev/null
"$FNTRACE" record -o d -- ./sparc >out 2>err
t_eq "targets: an unknown machine: exit status" 1 "$?"
t_eq "targets: ... said in one line" "fntrace: ./sparc: unsupported architecture (ELF machine 2)" \
	"$(cat err)"

# attach injects with the host's registers: a program of another
# architecture is refused before anything is done to it.
i686-linux-gnu-gcc -O2 -o sleeper32 -x c - <<'C'
#include <unistd.h>
int main(void) { sleep(30); return 0; }
C
./sleeper32 &
pid=$!
t_running $pid sleeper32
"$FNTRACE" attach "$pid" >out 2>err
t_eq "targets: attach to an i386 process: exit status" 1 "$?"
# A kernel without IA-32 emulation runs it through qemu-i386 (binfmt.sh).
why="is a program for i386: attach works on programs of the host only"
[ -e /proc/sys/fs/binfmt_misc/qemu-i386 ] && why="runs under qemu-user: attach cannot reach into it"
t_eq "targets: ... said in one line" \
	"fntrace: process $pid $why; start it with 'fntrace run' instead" "$(cat err)"
t_ok "targets: ... and the process goes on" kill -0 "$pid"
kill "$pid"
wait "$pid" 2>/dev/null || :
