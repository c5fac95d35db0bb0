# gcc's return sites (src/core/returns.c), on x86_64: a program built
# with fntrace cc returns through its own "ret", its return addresses
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
