# gdb walks through graph-traced frames with scripts/fntrace-gdb.py: the
# return addresses it reads are return_to_handler, the script finds the
# real ones on the shadow stack, and bt shows the program's own frames.

t_build gcc-pg -O2 frames "$top/tests/progs/gdb_frames.c"
cat >cmds <<GDB
set pagination off
set breakpoint pending on
set follow-fork-mode child
set detach-on-fork on
source $top/scripts/fntrace-gdb.py
break deepest
run
bt
GDB
gdb -q -batch -x cmds --args "$FNTRACE" record -o g.data -- ./frames >gdb.out 2>&1
grep '^#' gdb.out | sed 's/^#[0-9]* *\(0x[0-9a-f]* in \)\{0,1\}\([a-z_]*\).*/\2/' >got.txt
printf 'deepest\nmiddle\nouter\nmain\n' >want.txt
t_same "gdb: bt through traced frames shows the real callers" want.txt got.txt
t_eq "gdb: no Python error from the script" 0 "$(grep -c 'Python Exception' gdb.out)"
