# record -e of an i386 program on x86_64: the kernel takes its system
# calls by i386's numbers (getppid is 64 there, 110 on x86_64), so -e's
# names are i386's numbers in the kernel's filter and the recording is
# named by i386's table.  Under qemu-i386 (a kernel without IA-32
# emulation) qemu makes the host's calls, named by the host's.

. "$top/tests/kev_lib.sh"
if [ "$(uname -m)" != x86_64 ] || ! command -v i686-linux-gnu-gcc >/dev/null; then
	t_skip "kernel events of an i386 program" "not an x86_64 host with i686-linux-gnu-gcc"
	return 0
fi
if ! kev_tracefs; then
	t_skip "kernel events" "no tracefs, and not root to mount it"
	return 0
fi
trap kev_untracefs EXIT

cat >sc.c <<'C'
#include <unistd.h>
#include <sys/syscall.h>
__attribute__((noinline)) void many(void)
{
	for (int i = 0; i < 50; i++)
		syscall(SYS_getppid);
}
__attribute__((noinline)) void piped(void)
{
	char b[4];
	int fd[2];

	if (pipe(fd) || write(fd[1], "abc", 3) != 3 || read(fd[0], b, 3) != 3)
		_exit(1);
}
int main(void) { many(); piped(); return 0; }
C
i686-linux-gnu-gcc -O2 -pg -o sc32 sc.c

"$FNTRACE" record -e syscalls:getppid,read -o k.data -- ./sc32 2>k.err
t_eq "exit status" 0 "$?"
kev_graph k.data >k.txt
t_eq "getppid: the 50 the program made, each inside many()" "50 50" \
	"$(awk '/many\(\) \{/ { in_ = 1 } /\} \/\* many \*\// { in_ = 0 }
		/ getppid\(.*\) = / { all++; if (in_) inside++ } END { print all + 0, inside + 0 }' k.txt)"
t_ok "read: the pipe's, inside piped(), named with its arguments" \
	awk '/piped\(\) \{/ { in_ = 1 } in_ && / read\([0-9]+, 0x[0-9a-f]+, 3\) = 3$/ { ok = 1 }
		END { exit !ok }' k.txt
t_eq "nothing else: the filter in the program's numbering" "" \
	"$(grep -E ' [a-z_0-9]+\(.*\) = ' k.txt | grep -vE ' (getppid|read)\(')"

# record -p: the process's numbering from its program (/proc/PID/exe).
cat >loop.c <<'C'
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
__attribute__((noinline)) void one(void)
{
	struct timespec ms = { 0, 2000000 };

	for (int i = 0; i < 3; i++)
		syscall(SYS_getppid);
	nanosleep(&ms, NULL);
}
int main(void) { for (;;) one(); }
C
i686-linux-gnu-gcc -O2 -pg -o loop32 loop.c
"$FNTRACE" run -- ./loop32 >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; kev_untracefs' EXIT
for i in $(seq 50); do t_endpoint "$pid" && break; sleep 0.1; done
"$FNTRACE" record -p "$pid" -d 0.3 -e syscalls:getppid -o p.data 2>p.err
t_eq "-p: exit status" 0 "$?"
kev_graph p.data >p.txt
t_ok "-p: getppid, three in each whole one()" awk '
	/ one\(\) \{/ { in_ = 1; n = 0; whole++ } in_ && / getppid\(/ { n++ }
	/\} \/\* one \*\// { in_ = 0; if (n != 3) bad++ }
	END { exit !(whole >= 10 && !bad) }' p.txt
kill $pid

if [ -e /proc/sys/fs/binfmt_misc/qemu-i386 ]; then
	t_skip "a name i386 has no call of" "i386 programs run under qemu-i386 here: the host's calls"
else
	t_error "a name i386 has no call of: refused" 1 \
		"^fntrace: -e syscalls:newfstatat: no such system call on i386$" \
		"$FNTRACE" record -e syscalls:newfstatat -o n.data -- ./sc32
	t_ok "... and nothing recorded" test ! -e n.data
fi
