# set_ftrace_args rewritten ARGS_STRESS_FLIPS times (3000), each left for
# 200 calls at least, while four threads call a traced function with five
# arguments (three integers, a string, a double): every result right,
# every recorded value the one that call was given (b = 2a, c = 3a,
# x = a / 4, return 7a + 1), both lists of values seen, and calls without
# values between.

t_build gcc-pg -O2 args_stress "$top/tests/progs/args_stress.c"
flips=${ARGS_STRESS_FLIPS:-3000}
"$FNTRACE" record -o s.data -- ./args_stress 4 50000 "$flips" >got.txt 2>err.txt
t_eq "exit status" 0 "$?"
t_ok "every result right" grep -q '^args stress: ok [0-9]*$' got.txt
"$FNTRACE" report -i s.data >report.txt 2>report.err
t_eq "report: read whole" "0 " "$? $(head -n 2 report.err)"
cut -d'|' -f3 report.txt | grep 'take(' >calls.txt
python3 - calls.txt >check.txt <<'PY'
import re, sys
full = re.compile(r'take\((-?\d+), (-?\d+), (-?\d+), "worker", ([-\d.e+]+)\);( /\* = (-?\d+) \*/)?$')
short = re.compile(r'take\(0x([0-9a-f]+), (-?\d+)\);$')
counts = {"full": 0, "short": 0, "plain": 0, "wrong": 0}
for line in open(sys.argv[1]):
    line = line.strip()
    m = full.match(line)
    if m:
        a, b, c, x = int(m[1]), int(m[2]), int(m[3]), float(m[4])
        ok = b == 2 * a and c == 3 * a and x == a / 4 and (m[6] is None or int(m[6]) == 7 * a + 1)
        counts["full" if ok else "wrong"] += 1
        continue
    m = short.match(line)
    if m:
        counts["short" if int(m[1], 16) == 3 * int(m[2]) else "wrong"] += 1
        continue
    counts["plain" if line == "take();" else "wrong"] += 1
    if line != "take();":
        print("wrong line:", line)
print(" ".join("%s=%d" % kv for kv in counts.items()))
PY
tail -n 1 check.txt >summary.txt
t_ok "no call with a wrong value" grep -q 'wrong=0$' summary.txt
t_ok "calls with five values" grep -Eq 'full=[1-9]' summary.txt
t_ok "calls with two values" grep -Eq 'short=[1-9]' summary.txt
t_ok "calls with none" grep -Eq 'plain=[1-9]' summary.txt
# The trace grows with the machine's load (every flip waits 200 calls),
# past any buffer a recorder kept off the CPU may fall behind on: events
# lost are said, and then fewer calls are there.
lost=$(sed -n 's/^fntrace: recorded .* over [0-9.]* s, \([0-9]*\) lost.*/\1/p' err.txt)
if [ "${lost:-x}" = 0 ]; then
	t_eq "every call recorded" "$(cut -d' ' -f4 got.txt)" "$(wc -l <calls.txt)"
else
	t_ok "calls lost (${lost:-no line}), said, and fewer recorded" \
		test -n "$lost" -a "$(wc -l <calls.txt)" -lt "$(cut -d' ' -f4 got.txt)"
	t_ok "the report says where" grep -q 'LOST [0-9]* EVENTS\|more events lost' report.txt
fi
