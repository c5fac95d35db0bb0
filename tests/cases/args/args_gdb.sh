# On a real program from Debian's sources built
# with -g (zlib, with its own configure and Makefile and fntrace cc),
# record --auto-args gives the values gdb shows at a breakpoint on the
# same functions, under the same names: gzdopen(fd, mode) and
# deflateInit2_(strm, level, method, windowBits, memLevel, strategy, ...).
# Pointers' values are left out (the two runs lay memory out
# differently); a string is compared by its text.

zlib=$("$top/scripts/build-zlib.sh" "$FNTRACE" - "-O2 -g -fno-inline" 2>build.log) ||
	{ t_fail "build zlib with -g" "$(tail -n 2 build.log)"; return 0; }
head -c 300000 "$FNTRACE" >in.bin
funcs="gzdopen deflateInit2_"

"$FNTRACE" record -a -o z.data -- "$zlib/minigzip" -9 <in.bin >z.gz 2>rec.err
t_eq "minigzip under --auto-args: exit status" 0 "$?"
"$zlib/minigzip" -d <z.gz | cmp -s - in.bin
t_eq "minigzip under --auto-args: its output is right" 0 "$?"
"$FNTRACE" report -i z.data >report.txt

{
	echo "set pagination off"
	for f in $funcs; do echo "break $f"; done
	echo "run -9 <in.bin >/dev/null"
	for f in $funcs; do echo "info args"; echo "continue"; done
} >cmds
gdb -q -batch -x cmds --args "$zlib/minigzip" >gdb.out 2>&1

# values FUNC: "name=value" from gdb's info args after its breakpoint,
# then ours, positionally, one per line: pointers out, strings as text.
python3 - report.txt gdb.out $funcs >compare.txt <<'PY'
import re, sys
report, gdb, funcs = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3:]
blocks = re.split(r'\nBreakpoint \d+, ', gdb)[1:]
for f in funcs:
    ours = re.search(r'\b%s\((.*?)\)( \{|;)' % re.escape(f), report)
    theirs = next((b for b in blocks if b.startswith(f + ' (')), None)
    if not ours or not theirs:
        print(f, "missing", bool(ours), bool(theirs))
        continue
    mine = [v.strip().split('=', 1) for v in ours.group(1).split(', ')]
    args = re.findall(r'^(\w+) = (.*)$', theirs, re.M)
    for (name, value), (myname, v) in zip(args, mine):
        if v.startswith('0x'):
            continue
        s = re.search(r'"(.*)"$', value)
        print(f, name, myname, v, '"%s"' % s.group(1) if s else value)
PY
t_ok "gdb and fntrace both saw the calls" sh -c "! grep -q missing compare.txt"
t_ok "values compared" test "$(wc -l <compare.txt)" -ge 6
t_eq "every name and value as gdb shows it" "" "$(awk '$2 != $3 || $4 != $5' compare.txt)"
t_ok "deflateInit2_'s level" grep -q '^deflateInit2_ level level 9 9$' compare.txt
t_ok "gzdopen's mode, a string" grep -q '^gzdopen mode mode "wb9" "wb9"$' compare.txt
