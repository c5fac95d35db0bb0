# Return sites on aarch64 (run with T_ARCH=aarch64, from its case list):
# clang's XRay sleds, made return sites by recordmcount, with patchable
# entries, as fntrace cc builds them (src/arch/aarch64/decode.c,
# entry.S's ftrace_return_caller).  The program returns through its own
# ret, its return addresses never taken, even while the graph tracer is
# switched on and off under it; tail calls into traced code and into libc
# nest as under the hijack; a filter leaves the others' sites without
# effect.  (Longjmp, exceptions, signals, threads and live switching over
# the robustness programs: robust_returns.sh, with aarch64's return-site
# flavours.)
[ -n "$T_ARCH" ] && [ -n "${ARCH_RETURN_SITES:-}" ] || return 0

. "$top/tests/robust_lib.sh"
clang=$(t_cc clang)

FNTRACE_CC=$clang "$FNTRACE" cc -O2 -I"$top/tests/progs" -o rs "$top/tests/progs/return_sites.c"
t_ok "return sites: fntrace cc keeps XRay's table and patchable entries" \
	sh -c "readelf -SW rs | grep -q ' xray_instr_map ' &&
	       readelf -SW rs | grep -q ' __patchable_function_entries '"
t_eq "return sites: ... and links none of XRay's runtime" "" "$(nm rs | grep -i ' __xray_')"
# Each 32-byte entry's kind is its 17th byte: 1 exit (clang marks
# aarch64's tail calls so too), 2 tail call.
sleds=$(readelf -SW rs | awk '$2 == "xray_instr_map" { print $5, $6 }')
od -An -tx1 -w32 -j $((0x${sleds% *})) -N $((0x${sleds#* })) rs |
	awk '$17 == "01" || $17 == "02"' | wc -l >sleds.count
"$ARCH_TRIPLE-objdump" -d rs | grep -c 'aa1e03f0[[:space:]]*mov[[:space:]]*x16, x30' >movs.count
FNTRACE_DEBUG=1 "$FNTRACE" record -o dbg.data -- ./rs 2>&1 >/dev/null |
	sed -n 's/.*rs: \([0-9]*\) return sites$/\1/p' >sites.count
t_ok "return sites: a sled at each return and tail call" test "$(cat sleds.count)" -ge 4
t_eq "return sites: ... each rewritten (mov x16, x30 before its nop)" \
	"$(cat sleds.count)" "$(cat movs.count)"
t_eq "return sites: ... and taken by the runtime" "$(cat sleds.count)" "$(cat sites.count)"

r_record rs ./rs
t_eq "return sites: exit status" 0 "$(cat rs.rc)"
t_eq "return sites: the return address is the program's own" "said|rs 27" \
	"$(tr '\n' '|' <rs.out | sed 's/|$//')"
t_build clang-patchable -O2 rs-entry "$top/tests/progs/return_sites.c"
r_record rs-entry ./rs-entry
t_eq "return sites: ... where one without them has the tracer's" \
	"said|libfntrace.so 27" "$(tr '\n' '|' <rs-entry.out | sed 's/|$//')"

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
t_graph_calls rs-entry.txt >got-entry.txt
t_same "return sites: ... as the hijack's graph does" want.txt got-entry.txt

rm -rf f.data
"$FNTRACE" record -F leaf -F main -o f.data -- ./rs >/dev/null 2>&1
"$FNTRACE" report -i f.data >f.txt
t_graph_calls f.txt >got-f.txt
{
	printf 'main() {\n'
	for _ in 1 2 3; do printf '  leaf();\n  leaf();\n'; done
	printf '} /* main */\n'
} >want-f.txt
t_same "return sites: with a filter, the others' returns change nothing" \
	want-f.txt got-f.txt

# clang's LTO code is generated at the link: fntrace cc rewrites the
# image's sleds (cmd_cc.c), and its returns are its own as well.
if command -v ld.lld >/dev/null; then
	FNTRACE_CC=$clang "$FNTRACE" cc -O2 -flto -fuse-ld=lld -I"$top/tests/progs" -o rs-lto \
		"$top/tests/progs/return_sites.c"
	"$ARCH_TRIPLE-objdump" -d rs-lto | grep -c 'aa1e03f0[[:space:]]*mov[[:space:]]*x16, x30' \
		>lto-movs.count
	r_record rs-lto ./rs-lto
	t_ok "return sites, LTO: its sleds rewritten" test "$(cat lto-movs.count)" -ge 4
	t_eq "return sites, LTO: the return address is the program's own" "said|rs-lto 27" \
		"$(tr '\n' '|' <rs-lto.out | sed 's/|$//')"
	t_graph_calls rs-lto.txt >got-lto.txt
	t_same "return sites, LTO: the same graph" want.txt got-lto.txt
else t_skip "return sites, LTO" "ld.lld is not installed"; fi

# Switched on and off under the running program (NOP <-> BL, no trap),
# the program unharmed; once on, hijacked() never sees a return address
# outside the program's text (calls that entered while the batch turning
# them on was written are hijacked, as they must be: counted before).
FNTRACE_CC=$clang "$FNTRACE" cc -O2 -I"$top/tests/progs" -o ra "$top/tests/progs/return_addr.c"
r_record ra ./ra
t_eq "return sites: traced, no return address taken" "ready|0 hijacked, 0 wrong" \
	"$(tr '\n' '|' <ra.out | sed 's/|$//')"
t_build clang-patchable -O2 ra-entry "$top/tests/progs/return_addr.c"
r_record ra-entry ./ra-entry
t_eq "return sites: ... where the hijack takes every one" "ready|1000 hijacked, 0 wrong" \
	"$(tr '\n' '|' <ra-entry.out | sed 's/|$//')"
# BTI: every indirect tail call jumps through x16, the site's register;
# its target moves to x17 first (br x17), and via()'s sums stay right.
FNTRACE_CC=$clang "$FNTRACE" cc -O2 -mbranch-protection=bti -I"$top/tests/progs" -o ra-bti \
	"$top/tests/progs/return_addr.c"
t_ok "return sites, BTI: the tail call through x16 goes through x17" \
	sh -c "'$ARCH_TRIPLE-objdump' -d ra-bti | grep -A40 '<via>:' |
	       grep -B3 'br[[:space:]]*x17' | grep -q 'mov[[:space:]]*x17, x16'"
FNTRACE_DEBUG=1 "$FNTRACE" record -o bti.data -- ./ra-bti 2>bti.err >bti.out
t_eq "return sites, BTI: traced, no return address taken, no sum wrong" \
	"ready|0 hijacked, 0 wrong" "$(tr '\n' '|' <bti.out | sed 's/|$//')"
t_ok "return sites, BTI: the module kept its return sites" \
	grep -Eq 'ra-bti: [1-9][0-9]* return sites$' bti.err

touch hold
rm -f since
"$FNTRACE" run -- ./ra "$PWD/hold" "$PWD/since" >live.out 2>live.err &
pid=$!
for _ in $(seq 100); do grep -q ready live.out 2>/dev/null && break; sleep 0.1; done
for _ in 1 2 3 4 5; do
	"$FNTRACE" ctl $pid current_tracer function_graph
	sleep 0.1
	"$FNTRACE" ctl $pid current_tracer nop
done
"$FNTRACE" ctl $pid current_tracer function_graph
touch since
sleep 0.3
"$FNTRACE" ctl $pid trace >live.trace
rm hold
wait $pid
t_eq "return sites, live: exit status" 0 "$?"
t_eq "return sites, live: once on, no return address taken" "ready|0 hijacked, 0 wrong" \
	"$(tr '\n' '|' <live.out | sed 's/|$//')"
t_ok "return sites, live: hijacked() traced inside outer()" \
	sh -c "grep -A1 'outer() {' live.trace | grep -q 'hijacked();'"
t_eq "return sites, live: the runtime said nothing" "" \
	"$(grep -v 'runs as pid' live.err)"
