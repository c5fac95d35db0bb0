# Where a recording goes: fntrace replaces or removes only its own
# recordings, never a file or a directory of the user's, not through a
# symlink either; an output it cannot place is refused before the
# program runs, with one line and a non-zero exit.

t_build gcc-pg -O2 prog "$top/tests/progs/graph.c"

# refused NAME CMD...: exit 1, one line on stderr, the program never ran
# (it would have written ran.txt's line on stdout).
refused() {
	name=$1; shift
	"$@" >out.txt 2>err.txt
	rc=$?
	t_eq "$name: exit status" 1 "$rc"
	t_eq "$name: one line said" 1 "$(wc -l <err.txt)"
	t_eq "$name: the program did not run" 0 "$(wc -c <out.txt)"
}

# The user's own directory as DIR.old, with a subdirectory: untouched.
"$FNTRACE" record -o out -- ./prog >/dev/null 2>&1
mkdir -p mine/sub && echo a >mine/a.txt && echo b >mine/sub/b.txt
mv mine out.old
refused "out.old a directory of the user's" "$FNTRACE" record -o out -- ./prog
t_ok "out.old a directory of the user's: its files kept" test -f out.old/a.txt -a -f out.old/sub/b.txt
t_ok "out.old a directory of the user's: the old recording kept" test -f out/trace.dat
mv out.old mine

# A symlink to the user's directory as DIR.old: nothing through it.
ln -s mine out.old
refused "out.old a symlink" "$FNTRACE" record -o out -- ./prog
t_ok "out.old a symlink: the directory behind it untouched" test -f mine/a.txt -a -f mine/sub/b.txt
t_ok "out.old a symlink: still a symlink" test -L out.old
rm out.old

# A symlink to a recording is not a recording of ours either.
"$FNTRACE" record -o real -- ./prog >/dev/null 2>&1
ln -s real linked
refused "output a symlink to a recording" "$FNTRACE" record -o linked -- ./prog
t_ok "output a symlink to a recording: kept" test -L linked -a -f real/trace.dat

# A file where the directory goes, an empty name, a file as DIR.old.
echo precious >ff
refused "output a file" "$FNTRACE" record -o ff -- ./prog
t_eq "output a file: its content kept" precious "$(cat ff)"
refused "an empty output name" "$FNTRACE" record -o "" -- ./prog
echo precious >out.old
refused "out.old a file" "$FNTRACE" record -o out -- ./prog
t_eq "out.old a file: its content kept" precious "$(cat out.old)"
rm out.old

# Recordings are replaced as before; a trailing slash names the same one.
"$FNTRACE" record -o out/ -- ./prog >/dev/null 2>&1
t_eq "out/: exit status" 0 "$?"
t_ok "out/: the recording in out, the previous one in out.old" \
	test -f out/trace.dat -a -f out.old/trace.dat
t_eq "out/: nothing left inside out but the recording" "" "$(ls -A out | grep -v -e '^funcs-' -e '^info$' -e '^trace.dat$')"
"$FNTRACE" report -i out >/dev/null
t_eq "out/: the report reads it" 0 "$?"
old_pid=$(ls out | sed -n 's/^funcs-//p')
"$FNTRACE" record -o out -- ./prog >/dev/null 2>&1
t_eq "a third recording: exit status" 0 "$?"
t_ok "a third recording: the second is out.old now" test -f "out.old/funcs-$old_pid"
t_eq "a third recording: nothing left behind" "" "$(ls -d out.tmp* 2>/dev/null)"

# export refuses to write into the recording it reads.
cp out/trace.dat before.dat
t_error "export -o into the recording: a usage error" 2 "^fntrace export: -o out/trace.dat: inside the recording" \
	"$FNTRACE" export -i out --format chrome -o out/trace.dat
t_ok "export -o into the recording: trace.dat unchanged" cmp -s before.dat out/trace.dat
"$FNTRACE" export -i out --format chrome -o ./out//t.json >/dev/null 2>&1
t_eq "export -o into the recording, spelt otherwise: refused" 2 "$?"
