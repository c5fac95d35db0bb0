# Acceptance (short form; bench/ has the long one): 8 threads call traced
# functions in tight loops while set_ftrace_filter flips between a_* and
# b_* LIVE_STRESS_FLIPS times (2000).  Under qemu-user (ARCH_EMULATED)
# threads are always synced by signals: that variant alone runs.  No crash, the right checksum, every thread's entries
# and exits nest, and no event for a function never enabled.

. "$top/tests/robust_lib.sh"

t_build gcc-pg -O2 stress "$top/tests/progs/stress.c"
./stress 8 100000 0 >want.txt

# only_a_b NAMES: some names, none but the a_* and b_* functions
only_a_b() {
	[ -n "$1" ] || return 1
	for f in $1; do
		case $f in a_one|a_two|b_one|b_two) ;; *) return 1 ;; esac
	done
}

# names: the functions that have events in a report
names() { cut -d'|' -f3 "$1" | grep -o '[a-z_]*()' | tr -d '()' | sort -u | tr '\n' ' ' | sed 's/ $//'; }

flips=${LIVE_STRESS_FLIPS:-2000}
syncs="membarrier signals"
[ -n "${ARCH_EMULATED:-}" ] && syncs=signals
for sync in $syncs; do
	env=""
	[ $sync = signals ] && env="FNTRACE_NO_MEMBARRIER=1"
	for tracer in function_graph function; do
		name="stress ($tracer, sync by $sync)"
		env $env "$FNTRACE" record -t $tracer -F 'a_*' -o s.data -- ./stress 8 100000 "$flips" >got.txt 2>err.txt
		t_eq "$name: exit status" 0 "$?"
		t_same "$name: checksum" want.txt got.txt
		t_eq "$name: nothing said" "" "$(grep -v 'recorded' err.txt)"
		"$FNTRACE" report -i s.data >r.txt
		if [ $tracer = function ]; then
			got=$(sed -n 's/.*[0-9]: \([a-z_]*\) <-.*/\1/p' r.txt | sort -u | tr '\n' ' ' | sed 's/ $//')
		else
			got=$(names r.txt)
		fi
		# Which of the two sets had calls depends on how the flips and the
		# workers were scheduled; that nothing else had any does not.
		t_ok "$name: only a_* and b_* functions" only_a_b "$got"
		[ $tracer = function ] && continue
		t_eq "$name: every thread nests" "" "$(r_all_nest r.txt)"
	done
done

# The stop-the-world baseline of the benchmarks works too.
FNTRACE_PATCH=stop "$FNTRACE" record -F 'a_*' -o w.data -- ./stress 8 100000 500 >got.txt 2>/dev/null
t_same "stress (stop-the-world): checksum" want.txt got.txt
