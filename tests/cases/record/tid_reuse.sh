# Threads made one after another, until the kernel gives a tid again
# (past pid_max, 32768 by the kernel's default): each thread's calls are
# its own, the later thread's after the earlier one's, none nested
# inside another's.  Before, two threads of one tid numbered their
# chunks alike and the reader interleaved them.  (A flight recorder's
# ring, which keeps one chunk for each of the last threads, keeps none
# of the first ones: the unit test test_tid_reuse orders such chunks
# whatever order they come in.)

t_build gcc-pg -O2 tid_reuse "$top/tests/progs/tid_reuse.c"
# A buffer of 256 chunks: every thread takes one, thousands a second, and
# the recorder of a loaded machine may fall behind for a while.
"$FNTRACE" record -b 65536 -o t.data -- ./tid_reuse >out.txt 2>err.txt
t_eq "the program's status" 0 "$?"
read -r _ made _ reused <out.txt
if [ "${reused:-0}" -lt 5 ]; then
	t_skip "tids given again" \
		"pid_max $(cat /proc/sys/kernel/pid_max): none came round in $made threads"
	return 0
fi
"$FNTRACE" report -i t.data >t.txt 2>terr.txt
t_eq "report: nothing to warn of" "" "$(cat terr.txt)"
t_eq "report: every thread's call outside any other" "" \
	"$(grep 'thread_main() {$' t.txt | grep -v -m3 '^[^|]*|[^|]*|  thread_main() {$')"
lost=$(sed -n 's/^fntrace: recorded .* over [0-9.]* s, \([0-9]*\) lost.*/\1/p' err.txt)
if [ "${lost:-x}" != 0 ]; then
	# Events lost: some calls are not there to count, and ? may close
	# what a loss left open.  That it is said is lost.sh's to test.
	t_ok "the recorder fell behind (${lost:-no line}): said" test -n "$lost"
	return 0
fi
t_eq "report: nothing lost, no call unnamed" "" "$(grep -m3 'LOST\|/\* ? \*/' t.txt)"
t_eq "report: every thread's call, at depth 0 ($made)" "$made" \
	"$(grep -c '^[^|]*|[^|]*|  thread_main() {$' t.txt)"
t_eq "report: and each closed there" "$made" \
	"$(grep -c '^[^|]*|[^|]*|  } /\* thread_main \*/$' t.txt)"
"$FNTRACE" report -i t.data --stat --csv >stat.csv
t_eq "report --stat: thread_main's calls" "$made" "$(awk -F, '$1 == "thread_main" { print $2 }' stat.csv)"
t_eq "report --stat: work's, 12000 for each of fifteen, one for the others" \
	$((15 * 12000 + made - 15)) "$(awk -F, '$1 == "work" { print $2 }' stat.csv)"
