# A program that dies keeps everything it wrote: the report shows the
# frames open at the end and says how the program ended.

cat >crash.c <<'C'
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
static volatile int *nowhere;
static volatile int sink;
__attribute__((noipa)) int helper(int x) { sink = x; return x + 1; }
__attribute__((noipa)) void fall(int how)
{
	helper(how);
	if (how == 11)
		*nowhere = 1;
	if (how == 9)
		kill(getpid(), SIGKILL);
	abort();
}
__attribute__((noipa)) void *side(void *arg) { helper(1); return arg; }
int main(int argc, char **argv)
{
	pthread_t t;
	pthread_create(&t, NULL, side, NULL);
	pthread_join(t, NULL);
	fall(atoi(argv[1]));
	return 0;
}
C
t_build gcc-pg -O2 crash crash.c
for sig in 11:SIGSEGV 6:SIGABRT 9:SIGKILL; do
	n=${sig%%:*} signame=${sig#*:}
	"$FNTRACE" record -o c$n.data -- ./crash "$n" >/dev/null 2>&1
	t_eq "crash: $signame status passed on" $((128 + n)) "$?"
	"$FNTRACE" report -i c$n.data >c$n.txt
	t_ok "crash: $signame open frames shown" grep -q 'fall() {' c$n.txt
	t_ok "crash: $signame last call before it shown" grep -q 'helper();' c$n.txt
	t_ok "crash: $signame other thread's events kept" grep -q 'side() {\|side();' c$n.txt
	t_ok "crash: $signame ending said" sh -c "tail -n 1 c$n.txt | grep -q 'killed by signal $n ($signame)'"
done

# Five traced frames deep (tests/progs/robust_exit.c): exit(7), abort(),
# and main returning normally.  The frames open at the end are shown,
# and the last line says how the program ended.
t_build gcc-pg -O2 ends "$top/tests/progs/robust_exit.c"
printf 'main() {\n  depth1() {\n    depth2() {\n      depth3() {\n        depth4() {\n          depth5() {\n' >open.txt
for how in exit:7:'# program exited with status 7' \
	   abort:134:'# program killed by signal 6 (SIGABRT)' \
	   return:0:'# program exited with status 0'; do
	mode=${how%%:*} rest=${how#*:}
	status=${rest%%:*} last=${rest#*:}
	"$FNTRACE" record -o e$mode.data -- ./ends "$mode" >/dev/null 2>&1
	t_eq "crash: 5 deep, $mode: status passed on" "$status" "$?"
	"$FNTRACE" report -i e$mode.data >e$mode.txt
	t_graph_calls e$mode.txt >got.txt
	if [ "$mode" = return ]; then
		{ head -n 5 open.txt; echo '          depth5();'
		  for i in 4 3 2 1; do printf '%*s} /* depth%d */\n' $((2 * i)) '' $i; done
		  echo '} /* main */'; } >want.txt
		t_same "crash: 5 deep, $mode: every frame closed" want.txt got.txt
	else
		t_same "crash: 5 deep, $mode: the open frames shown" open.txt got.txt
	fi
	t_eq "crash: 5 deep, $mode: ending said" "$last" "$(tail -n 1 e$mode.txt)"
done
