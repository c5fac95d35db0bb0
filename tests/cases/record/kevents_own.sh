# record -e syscalls leaves out the runtime's own work on the program's
# threads: its start-up (about 150 system calls of /proc reads, fcntl,
# membarrier, getdents64 of /proc/self/task, the patching's mprotect
# and madvise), its reading and patching of a module the program
# dlopen()s, each thread's share inside whatever function it traces
# (getpid and gettid as its state is made, prctl for its name), a fork
# child's (its files and tasks read again) and an exec's (the image
# read for a sanitizer, the sync signal held).  The program's own calls stay, each inside its function,
# the loader's included; the report's header says how many it left out,
# and with the kept ones they are the recorder's count.  The same of a
# flight recording's snapshot.

. "$top/tests/kev_lib.sh"
if ! kev_tracefs; then
	t_skip "kernel events" "no tracefs, and not root to mount it"
	return 0
fi
trap kev_untracefs EXIT

cat >mod.c <<'C'
#include <unistd.h>
#include <sys/syscall.h>
__attribute__((noinline)) void in_module(void)
{
	syscall(SYS_getppid);
}
C
cat >own.c <<'C'
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
__attribute__((noinline)) void work(void)
{
	for (int i = 0; i < 3; i++)
		syscall(SYS_getppid);
}
__attribute__((noinline)) void *load(void)
{
	return dlopen("./libmod.so", RTLD_NOW);
}
__attribute__((noinline)) void *worker(void *arg)
{
	work();
	return arg;
}
__attribute__((noinline)) int spawn(const char *self)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		execl(self, self, "child", (char *)0);
		_exit(127);
	}
	return waitpid(pid, &status, 0) == pid && status == 0 ? 0 : 1;
}
int main(int argc, char **argv)
{
	pthread_t t;
	void *h;
	void (*f)(void);

	if (argc > 1) {
		work();
		return 0;
	}
	if (pthread_create(&t, NULL, worker, NULL) || pthread_join(t, NULL))
		return 1;
	work();
	h = load();
	if (!h || !(f = (void (*)(void))dlsym(h, "in_module"))) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	f();
	return spawn(argv[0]);
}
C
"$FNTRACE" cc -O2 -fPIC -shared -o libmod.so mod.c &&
"$FNTRACE" cc -O2 -o own own.c -ldl -pthread || { t_fail "build"; return 0; }

# The runtime's calls no program of this kind makes: membarrier,
# getdents64 (/proc/self/task), an mprotect to PROT_READ|WRITE|EXEC
# (7) and madvise(MADV_POPULATE_WRITE) (23), the patching's; getpid,
# gettid and prctl(PR_GET_NAME), a thread's.
runtime_calls() {
	grep -cE "\|  *(membarrier|getdents64|getpid|gettid)\(|\|  *prctl\(16, |\|  *mprotect\([^,]*, [^,]*, 7\)|\|  *madvise\([^,]*, [^,]*, 23\)" "$1"
}
# The header's "left out: N system calls".
left_out() {
	sed -n "s/^# kernel events: .*; fntrace's own work left out: \([0-9]*\) system calls, .*/\1/p" "$1"
}

"$FNTRACE" record -e syscalls -o o.data -- ./own 2>o.err
t_eq "exit status" 0 "$?"
kev_graph o.data >o.txt
t_eq "none of the runtime's own system calls in the report" 0 "$(runtime_calls o.txt)"
n=$(left_out o.txt)
t_ok "the header says how many it left out (${n:-none})" test "${n:-0}" -gt 50
kept=$(sed -n 's/^# kernel events: \([0-9]*\) system calls,.*/\1/p' o.txt)
said=$(sed -n 's/^fntrace: kernel events: \([0-9]*\) system calls,.*/\1/p' o.err)
t_ok "info says how many it left out" \
	sh -c "\"$FNTRACE\" info -i o.data | grep -qE \"^fntrace's own +$n system calls and [0-9]+ page faults, left out\""
t_eq "kept and left out: the recorder's count" "$said" "$((${kept:-0} + ${n:-0}))"
t_eq "the program's getppid: 3 in each work(), the exec'd one's too, 1 in in_module()" "9 1" \
	"$(awk '/work\(\) \{/ { w = 1 } /\} \/\* work \*\// { w = 0 }
		/in_module\(\) \{/ { m = 1 } /\} \/\* in_module \*\// { m = 0 }
		/ getppid\(/ { if (w) a++; if (m) b++ } END { print a + 0, b + 0 }' o.txt)"
t_ok "dlopen's own calls stay, inside load(): it opens and maps the module" \
	awk '/load\(\) \{/ { l = 1 } /\} \/\* load \*\// { l = 0 }
		l && / openat\(/ { o = 1 } l && / mmap\(/ { m = 1 } END { exit !(o && m) }' o.txt
t_ok "the loader's calls before main() stay" grep -qE '\|  *arch_prctl\(' o.txt
t_eq "the worker's end: glibc's calls, not the runtime's munmap of its state" "" \
	"$(awk '/\} \/\* worker \*\// { w = 1; next } w && / exit\(/ { w = 0 }
		w && / munmap\(/' o.txt)"

# Without -e syscalls there is nothing to leave out, and nothing said.
"$FNTRACE" record -e sched -o s.data -- ./own 2>s.err
t_eq "-e sched: exit status" 0 "$?"
kev_graph s.data >s.txt
t_eq "-e sched: nothing said left out" 0 "$(grep -c 'own work left out' s.txt)"

# A flight recording: its snapshot at the end leaves them out too.
"$FNTRACE" record --overwrite -e syscalls -o f.data -- ./own 2>f.err
t_eq "flight: exit status" 0 "$?"
kev_graph f.data/snapshot.1 >f.txt
t_eq "flight: none of the runtime's own system calls" 0 "$(runtime_calls f.txt)"
n=$(left_out f.txt)
t_ok "flight: the header says how many it left out (${n:-none})" test "${n:-0}" -gt 50
t_eq "flight: the program's getppid" 10 "$(kev_calls f.txt getppid)"
