# Return sites (src/core/returns.c), on x86_64: gcc's, and clang's made
# of XRay's sleds (src/recordmcount/xray.c).  A program built with
# fntrace cc returns through its own "ret", its return addresses
# untouched; tail calls into a traced function or into libc still nest
# as under the hijack; a filter leaves the untraced functions' return
# sites without effect.

if [ -n "${ARCH_RETURN_SITES:-}" ] && [ -z "$T_ARCH" ]; then
	. "$top/tests/robust_lib.sh"
	"$FNTRACE" cc -O2 -I"$top/tests/progs" -o rs "$top/tests/progs/return_sites.c"
	t_build gcc-pg "-O2 -I$top/tests/progs" rs-pg "$top/tests/progs/return_sites.c"
	t_ok "return sites: fntrace cc lists them" sh -c "readelf -SW rs | grep -q '__return_loc .* WA '"
	t_ok "return sites: ... and the program has no text relocations" \
		sh -c "! readelf -d rs | grep -q TEXTREL"

	r_record rs ./rs
	t_eq "return sites: exit status" 0 "$(cat rs.rc)"
	t_eq "return sites: the return address is the program's own" "said|rs 27" \
		"$(tr '\n' '|' <rs.out | sed 's/|$//')"
	r_record rs-pg ./rs-pg
	t_eq "return sites: ... where a -pg build's is the tracer's" "said|libfntrace.so 27" \
		"$(tr '\n' '|' <rs-pg.out | sed 's/|$//')"

	t_graph_calls rs.txt >got.txt
	{
		printf 'main() {\n  return_module();\n  work() {\n'
		for _ in 1 2 3; do
			printf '    jumps_to_leaf() {\n      leaf();\n    } /* jumps_to_leaf */\n'
			printf '    leaf();\n'
		done
		printf '  } /* work */\n  jumps_to_puts();\n} /* main */\n'
	} >want.txt
	t_same "return sites: tail calls nest, into traced code and into libc" want.txt got.txt
	t_graph_calls rs-pg.txt >got-pg.txt
	t_same "return sites: ... as a -pg build's graph does" want.txt got-pg.txt

	rm -rf f.data
	"$FNTRACE" record -F leaf -F main -o f.data -- ./rs >/dev/null 2>&1
	"$FNTRACE" report -i f.data >f.txt
	t_graph_calls f.txt >got-f.txt
	{
		printf 'main() {\n'
		for _ in 1 2 3; do printf '  leaf();\n  leaf();\n'; done
		printf '} /* main */\n'
	} >want-f.txt
	t_same "return sites: with a filter, the others' returns change nothing" want-f.txt got-f.txt
fi

# Attached to a running program: its return sites switched on and off
# under its running thread (the breakpoint protocol), its output intact.
if [ -n "${ARCH_RETURN_SITES:-}" ] && [ -z "$T_ARCH" ]; then
	"$FNTRACE" cc -O2 -I"$top/tests/progs" -o spin-rs "$top/tests/progs/spin.c"
	./spin-rs 2 >spin-want.txt
	touch spin.hold
	./spin-rs 2 spin.hold >spin-got.txt &
	pid=$!
	t_running $pid spin-rs
	"$FNTRACE" attach $pid 2>attach.err &&
		"$FNTRACE" record -p $pid -d 1 -o att.data >/dev/null 2>&1 &&
		"$FNTRACE" detach $pid 2>>attach.err
	t_eq "return sites: attach, record -p, detach" 0 "$?"
	rm -f spin.hold
	wait $pid
	t_eq "return sites: ... the program's exit status" 0 "$?"
	t_same "return sites: ... and output" spin-want.txt spin-got.txt
	"$FNTRACE" report -i att.data >att.txt
	t_graph_calls att.txt >att-calls.txt
	t_ok "return sites: ... leaf() traced inside mid()" \
		sh -c "grep -A1 '^mid() {' att-calls.txt | grep -q '^  leaf();'"
fi

# clang: XRay's exit and tail-call sleds made return sites by
# recordmcount, no XRay runtime linked; the same graph as gcc's.  With
# LTO (full, and thin with lld) the link generates the code: fntrace cc
# makes the image's sleds return sites (cmd_cc.c).
# clang_return_sites NAME FLAGS...: rs-NAME built and traced.
clang_return_sites() {
	local n=$1 prog=rs-$1 sleds
	shift
	FNTRACE_CC=clang "$FNTRACE" cc -O2 "$@" -I"$top/tests/progs" -o $prog \
		"$top/tests/progs/return_sites.c"
	t_ok "$n return sites: fntrace cc keeps XRay's table" \
		sh -c "readelf -SW $prog | grep -q ' xray_instr_map '"
	t_eq "$n return sites: ... and links none of XRay's runtime" "" \
		"$(nm $prog | grep -i ' __xray_')"
	# Each 32-byte entry's kind is its 17th byte: 1 exit, 2 tail call.
	sleds=$(readelf -SW $prog | awk '$2 == "xray_instr_map" { print $5, $6 }')
	od -An -tx1 -w32 -j $((0x${sleds% *})) -N $((0x${sleds#* })) $prog |
		awk '$17 == "01" || $17 == "02"' | wc -l >sleds.count
	FNTRACE_DEBUG=1 "$FNTRACE" record -o dbg.data -- ./$prog 2>&1 >/dev/null |
		sed -n "s/.*$prog: \([0-9]*\) return sites$/\1/p" >sites.count
	t_ok "$n return sites: a sled at each return and tail call" \
		test "$(cat sleds.count)" -ge 4
	t_eq "$n return sites: ... each taken by the runtime" "$(cat sleds.count)" \
		"$(cat sites.count)"
	r_record $prog ./$prog
	t_eq "$n return sites: exit status" 0 "$(cat $prog.rc)"
	t_eq "$n return sites: the return address is the program's own" "said|$prog 27" \
		"$(tr '\n' '|' <$prog.out | sed 's/|$//')"
	t_graph_calls $prog.txt >got-$n.txt
	t_same "$n return sites: tail calls nest, into traced code and into libc" \
		want.txt got-$n.txt
}

if [ -n "${ARCH_RETURN_SITES:-}" ] && [ -z "$T_ARCH" ] && command -v clang >/dev/null; then
	clang_return_sites clang
	clang_return_sites clang-lto -flto
	if command -v ld.lld >/dev/null; then
		clang_return_sites clang-thin-lto -flto=thin -fuse-ld=lld
	else t_skip "clang-thin-lto return sites" "ld.lld is not installed"; fi
fi

# A program linked from gcc's objects and clang's: both tables read, so
# that every function returns through a site (with gcc's alone, clang's
# functions' frames would close only with their caller's, their time
# taking in the caller's sleep after the call).
if [ -n "${ARCH_RETURN_SITES:-}" ] && [ -z "$T_ARCH" ] && command -v clang >/dev/null; then
	printf '%s\n' '#include <stdio.h>' 'int cl(int x);' \
		'#include <unistd.h>' \
		'__attribute__((noinline)) int gg(int x) { int r = cl(x); usleep(100000); return r + 1; }' \
		'int main(void) { int s = 0; for (int i = 0; i < 2; i++) s += gg(i);' \
		'	printf("%d\n", s); return 0; }' >mix_gcc.c
	printf '%s\n' 'volatile int v;' \
		'__attribute__((noinline)) int cl(int x) { v = x; return x * 2; }' >mix_clang.c
	FNTRACE_CC=gcc "$FNTRACE" cc -O2 -c mix_gcc.c &&
		FNTRACE_CC=clang "$FNTRACE" cc -O2 -c mix_clang.c &&
		"$FNTRACE" cc -o mix mix_gcc.o mix_clang.o
	r_record mix ./mix
	t_eq "gcc and clang objects: the output" 4 "$(cat mix.out)"
	t_graph_calls mix.txt >got-mix.txt
	printf 'main() {\n  gg() {\n    cl();\n  } /* gg */\n  gg() {\n    cl();\n  } /* gg */\n} /* main */\n' >want-mix.txt
	t_same "gcc and clang objects: the graph nests through both tables" want-mix.txt got-mix.txt
	"$FNTRACE" report -i mix.data --csv >mix.csv
	t_ok "gcc and clang objects: clang's function returns at its own return" \
		awk -F, '$1 == "gg" { g = $3 } $1 == "cl" { c = $3 }
			END { exit !(g - c >= 2 * 100000000) }' mix.csv
fi
