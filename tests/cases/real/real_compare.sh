# tests/real/compare_counts.sh on hand-made inputs, so that a broken
# comparison cannot make real_lua pass (or fail) for the wrong reason.
# Sourced by tests/run.sh (cwd is a scratch dir; $top and t_* helpers).

rc_cmp=$top/tests/real/compare_counts.sh

# A uftrace table as `uftrace report -f call -s call --no-pager` prints it,
# with an event line that must be ignored and a C++ name with spaces.
cat >u.table <<'EOF'
       Calls  Function
  ==========  ====================
        2718  l_alloc
          10  foo
           5  ns::bar(int, char)
           2  linux:schedule (pre-empted)
EOF

printf '%s\n' 'function,hits,total_ns,self_ns,avg_ns' 'l_alloc,2718,1,1,1' \
	'foo,10,5,5,0' '"ns::bar(int, char)",5,1,1,1' 'never,0,0,0,0' >same.csv
printf '%s\n' 'function,hits,total_ns,self_ns,avg_ns' 'l_alloc,2717,1,1,1' \
	'foo,10,5,5,0' 'extra,3,1,1,1' >diff.csv

t_ok "compare_counts: equal maps (events and 0-hit rows ignored)" "$rc_cmp" u.table same.csv

rc=0
"$rc_cmp" u.table diff.csv >out.txt 2>&1 || rc=$?
t_eq "compare_counts: differences give status 1" 1 "$rc"
t_eq "compare_counts: differences listed largest first" \
	"ns::bar(int, char) 5 0|extra 0 3|l_alloc 2718 2717" \
	"$(tail -n +3 out.txt | sed 's/  */ /g; s/ $//' | paste -sd'|' -)"

rc=0
"$rc_cmp" u.table /dev/null >/dev/null 2>&1 || rc=$?
t_eq "compare_counts: an empty CSV is an error, not a match" 2 "$rc"
