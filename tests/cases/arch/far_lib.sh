# A -pg shared library mapped farther from the
# runtime than a call reaches (tests/arch/<arch>.sh: ARCH_FAR_MB, beyond
# the reach of the architecture's call) is traced: its sites call
# ftrace_caller through a trampoline mapped near it.

t_build gcc-pg -O2 libfar.so "$top/tests/progs/far_lib_so.c" ||
	{ t_fail "far_lib: build the library"; return 0; }
t_build gcc-pg -O2 far "$top/tests/progs/far_lib.c" || { t_fail "far_lib: build the program"; return 0; }
./far "$ARCH_FAR_MB" "$PWD/libfar.so" >want.out 2>/dev/null
"$FNTRACE" record -o far.data -- ./far "$ARCH_FAR_MB" "$PWD/libfar.so" >got.out 2>far.err
t_eq "far_lib: exit status" 0 "$?"
t_same "far_lib: output as untraced" want.out got.out
far=$(sed -n 's/^far_lib: \([0-9]*\) MB from mcount$/\1/p' far.err)
t_ok "far_lib: the library is at least $ARCH_FAR_MB MB from the runtime (${far:-?} MB)" \
	test "${far:-0}" -ge "$ARCH_FAR_MB"
"$FNTRACE" report -i far.data --csv >far.csv
t_eq "far_lib: the far library's functions traced" "far_entry,1 far_leaf,10" \
	"$(tail -n +2 far.csv | cut -d, -f1,2 | grep '^far_' | sort | tr '\n' ' ' | sed 's/ $//')"

# Opened again ARCH_FAR_RELOADS times, each time out of reach of where it
# was: more places than the trampoline pages the runtime keeps, so the
# pages no loaded module reaches must be given back (64-bit only: each
# place takes twice ARCH_FAR_MB of address space).
if [ "${ARCH_FAR_RELOADS:-0}" -gt 0 ]; then
	n=$ARCH_FAR_RELOADS
	./far "$ARCH_FAR_MB" "$PWD/libfar.so" $n >want.out 2>/dev/null
	"$FNTRACE" record -o reload.data -- ./far "$ARCH_FAR_MB" "$PWD/libfar.so" $n \
		>got.out 2>reload.err
	t_eq "far_lib: reopened $n times far apart: exit status" 0 "$?"
	t_same "far_lib: reopened $n times: output as untraced" want.out got.out
	t_eq "far_lib: reopened $n times: the runtime says nothing" "" \
		"$(grep -v 'runs as pid\|recorded .* calls\|MB from mcount' reload.err)"
	"$FNTRACE" report -i reload.data --csv >reload.csv
	t_eq "far_lib: reopened $n times: every call traced" "far_entry,$n far_leaf,$((n * 10))" \
		"$(tail -n +2 reload.csv | cut -d, -f1,2 | grep '^far_' | sort | tr '\n' ' ' | sed 's/ $//')"
fi
