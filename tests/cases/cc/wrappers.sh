# The runtime's one list of the functions it wraps (src/core/wrapped.h)
# against what its libraries hold: libfntrace.so exports each wrapper in
# the list and no function outside it but the runtime's own entry points
# (fntrace_*, mcount's names); libfntrace.a has a __wrap_ stub for each
# one a static link wraps.  A wrapper added to one side only fails here.
# Under T_ARCH too, with that architecture's libraries.

so=$LIBFNTRACE
a=${so%.so}.a
nm=nm
[ -n "$T_ARCH" ] && command -v "$ARCH_TRIPLE-nm" >/dev/null && nm=$ARCH_TRIPLE-nm

# The list, one "kind name" a line.  Only 32-bit ABIs have the time64
# functions (link_static.c defines them there only).
cpp -P -D'FT_WRAP(n)=wrap n' -D'FT_WRAP_WEAK(n)=weak n' -D'FT_WRAP_TIME64(n)=time64 n' \
	-D'FT_WRAP_PRELOADED(n)=preloaded n' "$top/src/core/wrapped.h" | grep . >table.txt
t_ok "the list is read" test "$(wc -l <table.txt)" -gt 20
bits64=0
readelf -h "$so" | grep -q 'Class:.*ELF64' && bits64=1
awk -v bits64=$bits64 '!(bits64 && $1 == "time64") { print $2 }' table.txt | sort >listed.txt
awk -v bits64=$bits64 '!(bits64 && $1 == "time64") && $1 != "preloaded" { print $2 }' \
	table.txt | sort >listed_static.txt

# What libfntrace.so exports: functions only, its entry points aside.
$nm -D --defined-only "$so" >dynsym.txt
t_ok "libfntrace.so's exports are read" test -s dynsym.txt
awk '$2 ~ /^[TtWwi]$/ { print $3 }' dynsym.txt |
	grep -v -x -e 'fntrace_.*' -e mcount -e _mcount -e __fentry__ -e _init -e _fini |
	sort >exported.txt
t_same "libfntrace.so exports every listed wrapper, and no other" listed.txt exported.txt
t_eq "libfntrace.so exports no data" "" \
	"$(awk '$2 !~ /^[TtWwiAU]$/ { print $3 }' dynsym.txt | tr '\n' ' ')"

# libfntrace.a: a __wrap_ stub for each function the static link wraps.
$nm --defined-only "$a" | sed -n 's/^.* [TtWw] __wrap_//p' | sort >stubs.txt
t_same "libfntrace.a has a __wrap_ stub for every listed wrapper, and no other" \
	listed_static.txt stubs.txt

# Every architecture's runtime loads: a 64-bit atomic the compiler could
# not inline is a call to libatomic's __atomic_*_8, which a runtime that
# does not link libatomic (all but mips) must define itself (i386:
# src/arch/i386/atomic8.c); one left undefined fails every program's
# load.
for rt in "$BUILD"/libfntrace.so "$BUILD"/*/libfntrace.so; do
	[ -f "$rt" ] || continue
	readelf -dW "$rt" | grep -q 'NEEDED.*libatomic' && continue
	name=$(basename "$(dirname "$rt")")
	[ "$rt" = "$BUILD/libfntrace.so" ] && name=native
	t_eq "$name runtime calls no __atomic_ function it lacks" "" \
		"$(readelf -W --dyn-syms "$rt" | awk '$7 == "UND" && $8 ~ /^__atomic_/ { print $8 }' | tr '\n' ' ')"
done
