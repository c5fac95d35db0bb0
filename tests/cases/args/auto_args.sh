# record --auto-args: specs from the program's DWARF for every function
# it describes, each parameter typed and named (integers of each size,
# bool, char, strings, pointers, enums by their values' names, double,
# float), long double passed on the stack and skipped, a struct's fields,
# the list cut at a variadic tail or a C++ class that may be passed by
# reference, no return value for a struct returned; refusals.

t_build gcc-pg -O2 aa "$top/tests/progs/auto_args.c"
./aa >plain.out
"$FNTRACE" record -a -o aa.data -- ./aa >got.out 2>rec.err
t_eq "exit status" 0 "$?"
t_same "the program's output is what it is untraced" plain.out got.out
cat >want_specs.txt <<'EOF2'
floats@farg1/f64:d,farg2/f32:f,arg1/i32:after,retval/f64
gives_struct@arg1/i32:a,arg2/i32:b
main@retval/i32
next_color@arg1/i32:c,retval/i32
pair_between@arg1/i32:before,arg2/i32:p.a,arg2+4/i32:p.b,arg3/i32:after,retval/i32
scalars@arg1/i32:i,arg2/u16:u,arg3/b:flag,arg4/c:c,arg5/i64:l,retval/i32
strings@arg1/s:name,arg2/s:empty,arg3/p:where,arg4/i32:hue,retval/s
variadic@arg1/i32:count,retval/i32
EOF2
t_same "the specs, kept in the data directory" want_specs.txt aa.data/args
printf 'next_color\t0\t0\tRED\nnext_color\t0\t5\tGREEN\nnext_color\t0\t6\tBLUE
next_color\t1\t0\tRED\nnext_color\t1\t5\tGREEN\nnext_color\t1\t6\tBLUE
strings\t4\t0\tRED\nstrings\t4\t5\tGREEN\nstrings\t4\t6\tBLUE\n' >want_enums.txt
t_same "the enums' values, beside them" want_enums.txt aa.data/enums
"$FNTRACE" report -i aa.data >report.txt
t_graph_calls report.txt | grep -v '^# program' | sed 's/0x[0-9a-f]*/PTR/' >calls.txt
cat >want.txt <<'EOF2'
main() {
  gives_struct(a=3, b=4);
  scalars(i=-7, u=65535, flag=true, c='x', l=1099511627776); /* = 65649 */
  strings(name="hello", empty="", where=PTR, hue=BLUE); /* = "hello" */
  next_color(c=GREEN); /* = BLUE */
  floats(d=0.25, f=1.5, after=9); /* = 12.75 */
  pair_between(before=1, p.a=3, p.b=4, after=2); /* = 10 */
  variadic(count=3); /* = 60 */
  nothing();
} /* main = 0 */
EOF2
t_same "every function's values, typed and named from DWARF" want.txt calls.txt
"$FNTRACE" export -i aa.data --format chrome -o aa.json
t_ok "chrome: named, an enum's value by its name" \
	grep -q '"name":"next_color","args":{"c":"GREEN"}' aa.json

# C++: a method's this, the names demangled where the specs name them
# mangled (gcc's .isra clones would get none: noipa keeps them whole).
t_build g++-pg -O2 cxx "$top/tests/progs/args_cxx.cpp"
"$FNTRACE" record -a -o cxx.data -- ./cxx >/dev/null 2>&1
"$FNTRACE" report -i cxx.data >cxx.txt
t_ok "C++: a method, this and the rest" \
	grep -Eq 'calc::Parser::parse\(this=0x[0-9a-f]+, text="1\+2\*x", len=5\); /\* = 16 \*/' cxx.txt
t_ok "C++: template instances" \
	sh -c "grep -q 'int twice<int>(x=21); /\* = 42 \*/' cxx.txt &&
	       grep -q 'double twice<double>(x=1.25); /\* = 2.5 \*/' cxx.txt"
t_ok "C++: a plain struct by value, its fields" \
	grep -q 'plain(pt.x=2, pt.y=3, k=4); /\* = 11 \*/' cxx.txt
t_ok "C++: a class passed by hidden reference ends the list" \
	sh -c "grep -q '^_Z5keeps5Owneri@retval/i32\$' cxx.data/args && grep -q 'keeps(); /\* = 8 \*/' cxx.txt"

# With -A too: both apply.
"$FNTRACE" record -a -A 'pair_between@arg2/x' -o both.data -- ./aa >/dev/null 2>&1
"$FNTRACE" report -i both.data >both.txt
t_ok "-A adds to --auto-args" \
	grep -q 'pair_between(0x400000003, before=1, p.a=3, p.b=4, after=2); /\* = 10 \*/' both.txt

# Refusals: one line, non-zero, no data directory.
t_build gcc-pg -O2 nodebug "$top/tests/progs/graph.c"
strip -g nodebug
rm -rf bad.data
"$FNTRACE" record -a -o bad.data -- ./nodebug >/dev/null 2>err.txt
t_ok "no DWARF: exit non-zero" test $? -ne 0
t_ok "no DWARF: one line saying so" sh -c "test \$(wc -l <err.txt) = 1 && grep -q 'has no DWARF: build it with -g' err.txt"
t_ok "no DWARF: no data directory" test ! -e bad.data
"$FNTRACE" record -a -t function -o bad.data -- ./aa >/dev/null 2>err.txt
t_ok "function tracer refused" grep -q 'need the function_graph tracer' err.txt
"$FNTRACE" record -a -p $$ -o bad.data >/dev/null 2>err.txt
rc=$?
t_ok "-p on a process fntrace does not trace: one line" \
	sh -c "test $rc -ne 0 && test \$(wc -l <err.txt) = 1"
"$FNTRACE" ctl --auto-args 999999999 set_ftrace_args 2>err.txt
rc=$?
t_ok "ctl --auto-args, no such process: one line" \
	sh -c "test $rc -ne 0 && test \$(wc -l <err.txt) = 1 && grep -q 'cannot read the program of process' err.txt"
t_ok "refusals leave no data directory" test ! -e bad.data
