# Detours (src/core/detours.c): functions of a program built with plain
# -O2, no call sites, traced by name through a jump at their entry to a
# stub holding their first instructions; planned by record (or run),
# which writes the plan where the runtime finds it.  Their calls counted
# as those of the same program built with call sites, the output the
# program's own, a function the planner refuses said.  Also run for
# aarch64 (tests/arch/aarch64.sh), under qemu-user.

# Per architecture: the jump's length, and its first bytes, as hex
# (x86_64: "e9 rel32"; aarch64: "b stub", a little-endian word whose top
# six bits are 000101).
case ${T_ARCH:-x86_64} in
aarch64) jlen=4; jump_re='^[0-9a-f]{6}1[4-7]' ;;
*)       jlen=5; jump_re='^e9' ;;
esac
native() { [ -z "$T_ARCH" ] || [ "$T_ARCH" = "$(uname -m)" ]; }

export FNTRACE_CACHE=$PWD/cache
# The csv report's hits of function $2 in $1 ("" if none).
hits() { awk -F, -v f="$2" '$1 == f { print $2 }' "$1"; }
funcs="round_once leaf_add sum_array mix fib pick scaled"

t_build plain -O2 plain "$top/tests/progs/detours.c"
FNTRACE_CC="$(t_cc gcc)" "$FNTRACE" cc -O2 -g -o sites "$top/tests/progs/detours.c" -lpthread
t_eq "plain: built without call sites" "" \
	"$(readelf -S plain | grep -E '__mcount_loc|__patchable_function_entries')"

./plain run 40 >want.out
"$FNTRACE" record -F round_once -F leaf_add -F sum_array -F mix -F fib -F pick -F scaled -F too_short \
	-o plain.data -- ./plain run 40 >got.out 2>plain.err
t_eq "record: exit status" 0 "$?"
t_same "record: output as untraced" want.out got.out
if [ $jlen -gt 4 ]; then
	t_eq "record: the function too short for a jump said, in one line" 1 \
		"$(grep -c "^fntrace: -F 'too_short': not traced: .*too short" plain.err)"
	t_eq "record: ... and only that line names it" 1 "$(grep -c too_short plain.err)"
else
	t_eq "record: too_short, one word and a ret, traced: nothing said" 0 \
		"$(grep -c too_short plain.err)"
fi
"$FNTRACE" record -o sites.data -- ./sites run 40 >/dev/null 2>&1
"$FNTRACE" report -i plain.data --csv >plain.csv
"$FNTRACE" report -i sites.data --csv >sites.csv
t_eq "with call sites: round_once once a round, leaf_add 8 times" "40 320" \
	"$(hits sites.csv round_once) $(hits sites.csv leaf_add)"
for f in $funcs; do
	t_eq "record: $f's hits as with call sites" "$(hits sites.csv "$f")" "$(hits plain.csv "$f")"
done
if [ $jlen -gt 4 ]; then
	t_eq "record: too_short not traced" "" "$(hits plain.csv too_short)"
else
	t_eq "record: too_short's hits as with call sites" "$(hits sites.csv too_short)" \
		"$(hits plain.csv too_short)"
fi
"$FNTRACE" report -i plain.data >plain.txt
# (too_short too, where it is traced.)
tail=
[ $jlen -gt 4 ] || tail='  too_short();
'
t_eq "record: the callees nested under round_once, in order" \
	"$(printf 'round_once() {\n%s\n  sum_array();\n  mix();\n  fib();\n%s  pick();\n  scaled();\n} /* round_once */' \
		"$(printf '  leaf_add();\n%.0s' 1 2 3 4 5 6 7 8 | sed '$!b')" \
		"$tail")" \
	"$(t_graph_calls plain.txt | sed 's/ *$//' | awk '/^round_once\(\) \{/ { on = 1 } on { print } /^\} \/\* round_once/ { exit }')"
t_ok "record: with durations" grep -q '[0-9] us *|  *leaf_add();' plain.txt
t_eq "record: fib's recursion nested" 1 \
	"$(t_graph_calls plain.txt | grep -c '^    fib() {$' | awk '{ print ($1 > 0) }')"

# '*' takes every function the plan has; the program's entry point,
# which no call enters, is left out.
"$FNTRACE" record -F '*' -o all.data -- ./plain run 40 >all.out 2>all.err
t_same "-F '*': output as untraced" want.out all.out
"$FNTRACE" report -i all.data --csv >all.csv
t_eq "-F '*': main once, _start not traced" "1 " "$(hits all.csv main) $(hits all.csv _start)"
t_eq "-F '*': round_once's hits" "$(hits sites.csv round_once)" "$(hits all.csv round_once)"

# No filter: no detour (as no library call), the program said untraced.
# (Its plan is in the cache from the recordings above.)
"$FNTRACE" record -o none.data -- ./plain run 40 >none.out 2>none.err
t_eq "no filter: fails" 1 "$?"
t_same "no filter: output as untraced" want.out none.out
t_ok "no filter: ... saying it had no call sites" grep -q 'had no call sites' none.err

# Switched on and off live by fntrace ctl while threads call them: the
# entries jump when on, and hold the compiler's bytes again, byte for
# byte, once off.
# fbytes PID FUNC: FUNC's first 16 bytes in the running process, as hex.
# The load address is its first mapping's (qemu-user maps the text r--p,
# at the guest's address, which /proc/PID/mem reads).
fbytes() {
	set -- "$1" "$2" $(awk '/ \/.*\/plain$/ { split($1, a, "-"); print a[1], $3; exit }' /proc/$1/maps)
	addr=$(( 0x$3 - 0x$4 + 0x$(nm plain | awk -v f="$2" '$3 == f { print $1 }') ))
	dd if=/proc/$1/mem bs=1 skip=$addr count=16 2>/dev/null | od -An -tx1 | tr -d ' \n'
}
all_bytes() { for f in $funcs; do echo "$f $(fbytes "$1" $f)"; done; }
rm -f cmd ans
mkfifo cmd ans
"$FNTRACE" run -- ./plain wait 3 <cmd >ans 2>live.err &
pid=$!
exec 3>cmd 4<ans
read -r ready <&4
t_eq "live: the program calls" ready "$ready"
all_bytes $pid >off0.txt
# (A PIE's text has vaddr = file offset.)
fileb() { dd if=plain bs=1 skip=$((0x$(nm plain | awk -v f="$1" '$3 == f { print $1 }'))) count=16 \
	2>/dev/null | od -An -tx1 | tr -d ' \n'; }
t_eq "live: the file's bytes in memory" "$(for f in $funcs; do echo "$f $(fileb $f)"; done)" \
	"$(cat off0.txt)"
"$FNTRACE" ctl $pid set_ftrace_filter "$funcs"
"$FNTRACE" ctl $pid current_tracer function_graph
all_bytes $pid >on.txt
t_eq "live: every entry a jump when on" 7 "$(awk '{ print $2 }' on.txt | grep -Ec "$jump_re")"
t_eq "live: ... none when off" 0 "$(awk '{ print $2 }' off0.txt | grep -Ec "$jump_re")"
t_eq "live: only the jump's $jlen bytes changed" \
	"$(awk -v n=$((2 * jlen + 1)) '{ print $1, substr($2, n) }' off0.txt)" \
	"$(awk -v n=$((2 * jlen + 1)) '{ print $1, substr($2, n) }' on.txt)"
sleep 0.2
"$FNTRACE" ctl $pid trace >live.trace
t_ok "live: the calls traced" grep -q 'round_once() {' live.trace
t_ok "live: ... their callees under them" grep -q ' leaf_add();' live.trace
"$FNTRACE" ctl $pid set_ftrace_filter fib
all_bytes $pid >fib.txt
t_eq "live: the filter narrowed: fib's entry alone jumps" fib \
	"$(diff off0.txt fib.txt | sed -n 's/^> \([^ ]*\) .*/\1/p' | tr '\n' ' ' | sed 's/ $//')"
"$FNTRACE" ctl $pid current_tracer nop
all_bytes $pid >off1.txt
t_same "live: the text as the compiler left it once off" off0.txt off1.txt
exec 3>&-
read -r done <&4
exec 4<&-
wait $pid
t_eq "live: exit status" 0 "$?"
t_eq "live: every result right" ok "$done"

# Torture: four threads call them, checking every result, while their
# entries are switched on and off, by both tracers (make stress: 1000
# rounds, DETOUR_ROUNDS).
rm -f cmd ans
mkfifo cmd ans
"$FNTRACE" run -- ./plain wait 4 <cmd >ans 2>torture.err &
pid=$!
exec 3>cmd 4<ans
read -r ready <&4
n=0
while kill -0 $pid 2>/dev/null && [ $n -lt "${DETOUR_ROUNDS:-40}" ]; do
	tracer=function_graph
	[ $((n % 2)) -eq 0 ] || tracer=function
	"$FNTRACE" ctl $pid set_ftrace_filter "$funcs" 2>>torture.err
	"$FNTRACE" ctl $pid current_tracer $tracer 2>>torture.err
	"$FNTRACE" ctl $pid set_ftrace_filter 'fib mix' 2>>torture.err
	"$FNTRACE" ctl $pid current_tracer nop 2>>torture.err
	n=$((n + 1))
done
all_bytes $pid >off2.txt
exec 3>&-
read -r done <&4
exec 4<&-
wait $pid
t_eq "torture: exit status" 0 "$?"
t_eq "torture: every result right" ok "$done"
t_eq "torture: switched while they called" "${DETOUR_ROUNDS:-40}" "$n"
t_same "torture: the text as the compiler left it" off0.txt off2.txt
# (A client slow to send its request on a loaded machine is dropped by
# the control thread, "Broken pipe": not the patch's doing.)
t_eq "torture: no switch given up or undone" "" "$(grep 'nothing changed\|switched off' torture.err)"

# A thread blocked in a system call made two bytes into raw_read() is
# inside the bytes the jump would replace: switching it on waits for it,
# gives up, changes nothing and says why; the thread reads on unharmed.
# aarch64's jump is one word, which no thread can be inside.
if [ $jlen -gt 4 ]; then
	fbytes_rr() {
		set -- "$1" $(awk '/ r-xp .*\/plain$/ { split($1, a, "-"); print a[1], $3; exit }' /proc/$1/maps)
		addr=$(( 0x$2 - 0x$3 + 0x$(nm plain | awk '$3 == "raw_read" { print $1 }') ))
		dd if=/proc/$1/mem bs=1 skip=$addr count=8 2>/dev/null | od -An -tx1 | tr -d ' \n'
	}
	rm -f cmd ans
	mkfifo cmd ans
	"$FNTRACE" run -- ./plain block <cmd >ans 2>block.err &
	pid=$!
	exec 3>cmd 4<ans
	read -r ready <&4
	sleep 0.2
	before=$(fbytes_rr $pid)
	"$FNTRACE" ctl $pid set_ftrace_filter raw_read
	"$FNTRACE" ctl $pid current_tracer function_graph 2>on.err
	t_eq "inside: refused" 1 "$?"
	t_eq "inside: said why, in one line" 1 "$(grep -c 'nothing changed: a thread stays inside a function' on.err)"
	t_eq "inside: its bytes unchanged" "$before" "$(fbytes_rr $pid)"
	echo hello >&3
	read -r line <&4
	t_eq "inside: the thread reads on" "read hello" "$line"
	exec 3>&-
	read -r done <&4
	exec 4<&-
	wait $pid
	t_eq "inside: exit status" 0 "$?"
else
	t_skip "inside: a thread blocked inside the replaced bytes" "one word has no inside"
fi

# Debian's libz as installed and fntrace attach: natively (the plan looks
# for libraries in the host's directories; qemu-user has no ptrace).
if native; then
	# Debian's libz as installed (no call sites) under a program built with
	# them: crc32() and deflate() traced at their entries, deflate() nested
	# under compress2(), which calls it inside libz, where no GOT is crossed.
	if gcc -O2 -pg -mfentry -g -o zprog "$top/tests/progs/detour_zlib.c" -lz; then
		./zprog 12 >zwant.out
		"$FNTRACE" record -F crc32 -F deflate -F compress2 -o z.data -- ./zprog 12 >zgot.out 2>z.err
		t_eq "libz: exit status" 0 "$?"
		t_same "libz: output as untraced" zwant.out zgot.out
		"$FNTRACE" report -i z.data --csv >z.csv
		t_eq "libz: crc32, deflate and compress2 once a round" "12 12 12" \
			"$(hits z.csv crc32) $(hits z.csv deflate) $(hits z.csv compress2)"
		"$FNTRACE" report -i z.data >z.txt
		t_eq "libz: deflate under compress2" 12 \
			"$(t_graph_calls z.txt | sed 's/ *$//' | grep -c '^  deflate();$')"
	else t_fail "libz: build" "gcc -lz"; fi

	# fntrace attach to a process started without fntrace: attach plans it,
	# the runtime applies the plan live; detach leaves the text the file's.
	rm -f cmd ans cache/*.detours
	mkfifo cmd ans
	./plain wait 3 <cmd >ans &
	pid=$!
	exec 3>cmd 4<ans
	read -r ready <&4
	"$FNTRACE" attach $pid 2>attach.err
	t_eq "attach: attached" 0 "$?"
	"$FNTRACE" ctl $pid set_ftrace_filter 'round_once leaf_add fib'
	"$FNTRACE" ctl $pid current_tracer function_graph
	t_eq "attach: round_once's entry jumps" e9 "$(fbytes $pid round_once | cut -c1-2)"
	sleep 0.2
	"$FNTRACE" ctl $pid trace >at.trace
	t_ok "attach: the calls traced" grep -q ' leaf_add();' at.trace
	"$FNTRACE" detach $pid 2>/dev/null
	t_eq "attach: detached" 0 "$?"
	all_bytes $pid >at_off.txt
	t_same "attach: the text the file's after detach" off0.txt at_off.txt
	exec 3>&-
	read -r done <&4
	exec 4<&-
	wait $pid
	t_eq "attach: exit status" 0 "$?"
	t_eq "attach: every result right" ok "$done"
else
	t_skip "libz and attach" "not under qemu-user"
fi

# A program without a build-id has no plan to find: said, in one line,
# when a filter names its functions; it runs as it would untraced.
$(t_cc gcc) -O2 -Wl,--build-id=none -o noid "$top/tests/progs/detours.c" -lpthread
"$FNTRACE" record -F leaf_add -o noid.data -- ./noid run 5 >noid.out 2>noid.err
./noid run 5 >noid_want.out
t_same "no build-id: output as untraced" noid_want.out noid.out
t_eq "no build-id: said" 1 "$(grep -c 'noid: its functions without call sites cannot be traced: no build-id' noid.err)"

# aarch64: an entry that is an ADR or a literal load (1 MB of reach: no
# stub is that near) computes its address in the stub with ADRP and ADD,
# which the runtime re-aims, rather than holding it: traced, its result
# the untraced one.
if [ "${T_ARCH:-}" = aarch64 ]; then
	t_build plain -O2 literal "$top/tests/progs/detour_literal.c"
	./literal >lit_want.out
	"$FNTRACE" record -F f_adr -F f_ldr_x -F f_ldr_s -o lit.data -- ./literal >lit.out 2>lit.err
	t_same "adr, ldr literal at the entry: output as untraced" lit_want.out lit.out
	"$FNTRACE" report -i lit.data --csv >lit.csv
	t_eq "adr, ldr literal at the entry: each traced, 10 calls" "10 10 10" \
		"$(hits lit.csv f_adr) $(hits lit.csv f_ldr_x) $(hits lit.csv f_ldr_s)"
fi
