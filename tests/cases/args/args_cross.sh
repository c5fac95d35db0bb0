# Record -A/-R and set_ftrace_args on the architectures other
# than x86_64 whose runtime takes arguments.  With T_ARCH set, that one
# (a skip if it takes none yet); without, each in turn, as cross.sh runs
# its cases.  The programs are cross-built (tests/arch/<arch>.sh) and run
# under qemu-user: every type a spec takes at a patchable entry; a -pg
# build, whose arguments the compiler moved before its call, with its
# return values only; live through ctl; the refusals; and that nothing
# but the entry stubs touches the floating-point registers.

ARGS_ARCHES="aarch64 riscv64"
# Integer and floating-point argument registers, the same on each.
ARGS_NR_REGS=8

ac_specs=$(cat "$top/tests/progs/args.specs")

ac_want() {
	cat "$top/tests/progs/args.expected"
}

# At a -pg site only the return values.
ac_want_pg() {
	cat <<EOF
main() {
  add3(); /* = 2999999999 */
  greet();
  greet();
  greet();
  greet();
  greet();
  greet();
  grade(); /* = 'A' */
  where();
  area(); /* = -6 */
  halve(); /* = 2.5 */
  narrow();
  outer() {
    add3(); /* = 21 */
    greet();
  } /* outer = 22 */
} /* main */
EOF
}

# ac_record NAME PROGRAM: record it with the specs; the report's calls in
# NAME.calls, the program's output compared with its untraced run.
ac_record() {
	"./$2" >"$1.plain"
	# shellcheck disable=SC2086
	"$FNTRACE" record -o "$1.data" $ac_specs -- "./$2" >"$1.out" 2>"$1.err"
	t_eq "$1: exit status" 0 "$?"
	t_same "$1: the program's output is what it is untraced" "$1.plain" "$1.out"
	"$FNTRACE" report -i "$1.data" >"$1.report"
	t_graph_calls "$1.report" | grep -v '^# program' >"$1.calls"
}

ac_entry_sites() {
	local flavor
	ac_want >want.txt
	for flavor in $FLAVORS; do
		case $flavor in *patchable*) ;; *) continue ;; esac
		t_build "$flavor" -O2 "args-$flavor" "$top/tests/progs/args.c" ||
			{ t_fail "$flavor: build"; continue; }
		ac_record "$flavor" "args-$flavor"
		t_same "$flavor: every type, as the kernel's funcgraph-args prints it" \
			want.txt "$flavor.calls"
	done
	# -O0: the arguments are stored to the stack in the body; the
	# registers hold them at the entry all the same.
	t_build gcc-patchable -O0 args-O0 "$top/tests/progs/args.c" || t_fail "-O0: build"
	ac_record O0 args-O0
	t_same "gcc-patchable -O0: the same values" want.txt O0.calls
}

ac_pg_sites() {
	ac_want_pg >want_pg.txt
	t_build gcc-pg -O2 args-pg "$top/tests/progs/args.c" || t_fail "gcc-pg: build"
	ac_record pg args-pg
	t_same "gcc-pg: return values only, no argument made up" want_pg.txt pg.calls
	t_ok "gcc-pg: the runtime says why, once" \
		test "$(grep -c 'is built with -pg, which moves its arguments' pg.err)" -eq 1
}

# ac_refused NAME ARGS WHY: one line, exit non-zero, no data directory.
ac_refused() {
	rm -rf bad.data
	# shellcheck disable=SC2086
	"$FNTRACE" record -o bad.data $2 -- ./args-gcc-patchable >/dev/null 2>err.txt
	t_ok "refused: $1: exit non-zero" test $? -ne 0
	t_eq "refused: $1: one line" 1 "$(wc -l <err.txt)"
	t_ok "refused: $1: saying '$3'" grep -q -e "$3" err.txt
	t_ok "refused: $1: no data directory" test ! -e bad.data
}

ac_refusals() {
	local n=$((ARGS_NR_REGS + 1))
	ac_refused "arg$n" "-A add3@arg$n" \
		"$T_ARCH passes $ARGS_NR_REGS integer arguments in registers"
	ac_refused "farg$n" "-A add3@farg$n" "$ARGS_NR_REGS floating-point arguments"
	ac_refused "--auto-args" "--auto-args" "--auto-args: x86_64 programs only yet"
}

# ac_wait_for FILE PATTERN CMD...: run CMD into FILE until FILE has a line
# matching PATTERN (grep -E), for up to 10 s; qemu is slow to get going.
ac_wait_for() {
	local file=$1 pattern=$2 i; shift 2
	for i in $(seq 50); do
		"$@" >"$file" 2>&1
		grep -Eq "$pattern" "$file" && return 0
		sleep 0.2
	done
	return 1
}

ac_live() {
	local pid i sock
	"$FNTRACE" run -- ./args-gcc-patchable 60 >/dev/null 2>&1 &
	pid=$!
	sock=/tmp/fntrace-$(id -u)/$pid
	for i in $(seq 100); do [ -S "$sock" ] && break; sleep 0.1; done
	t_ok "ctl: the program's control socket" test -S "$sock"
	"$FNTRACE" ctl $pid set_ftrace_args 'add3@arg1,arg3/x'
	"$FNTRACE" ctl --append $pid set_ftrace_args 'add3@retval/x'
	t_eq "ctl: set_ftrace_args lists the specs" "add3@arg1,arg3/x add3@retval/x" \
		"$("$FNTRACE" ctl $pid set_ftrace_args | tr '\n' ' ' | sed 's/ $//')"
	"$FNTRACE" ctl $pid set_ftrace_filter add3
	"$FNTRACE" ctl $pid current_tracer function_graph
	ac_wait_for live.txt 'add3\(' "$FNTRACE" ctl $pid trace
	t_ok "ctl: live calls with their values" \
		grep -Eq 'add3\(([0-9]+), 0x[0-9a-f]+\); /\* = 0x[0-9a-f]+ \*/' live.txt
	t_eq "ctl: every call has them" 0 "$(grep -c 'add3();' live.txt)"
	# arg3/x is arg1 again (add3(i, i, i)), and the sum 3 * arg1.
	t_eq "ctl: the values are the call's" "" "$(sed -n 's/.*add3(\([0-9]*\), \(0x[0-9a-f]*\)); \/\* = \(0x[0-9a-f]*\) \*\/.*/\1 \2 \3/p' live.txt |
		while read -r a x r; do
			[ "$a" -eq "$((x))" ] && [ "$((3 * a))" -eq "$((r))" ] || echo "$a $x $r"
		done | head -n 3)"
	"$FNTRACE" ctl $pid set_ftrace_args "add3@arg$((ARGS_NR_REGS + 1))" 2>err.txt
	t_eq "ctl: a value beyond the registers is refused" 1 "$?"
	t_ok "ctl: ... with why" grep -q \
		"arg$((ARGS_NR_REGS + 1)): only the first $ARGS_NR_REGS integer arguments are in registers" err.txt
	"$FNTRACE" ctl $pid set_ftrace_args ''
	"$FNTRACE" ctl $pid trace ''
	ac_wait_for cleared.txt 'add3\(\);' "$FNTRACE" ctl $pid trace
	t_ok "ctl: cleared, plain calls again" grep -q 'add3();' cleared.txt
	t_eq "ctl: ... and no values" 0 "$(grep -c 'add3([0-9]' cleared.txt)"
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null || :
}

# The floating-point arguments and return value are read where they are
# (arch_fp_args, arch_fp_retval): no code of the runtime but entry.S's may
# touch those registers.  aarch64's C is built with -mgeneral-regs-only;
# riscv64 has no such flag, and only this check says so.
ac_fp_untouched() {
	local rt=$BUILD/$T_ARCH reg
	# An operand that names an FP/SIMD register (a branch's target address
	# is no operand here); any mnemonic f* but riscv's fence is an FP
	# instruction (fmov, fsd, frcsr...).
	case $T_ARCH in
	aarch64) reg='(^|[ ,[{])[qdshbv][0-9]+([.,}]|$|\])' ;;
	riscv64) reg='(^|[ ,(])f(t|s|a)?[0-9]+([,)]|$)' ;;
	esac
	"$ARCH_TRIPLE-nm" "$rt/rt/src/arch/$T_ARCH/entry.o" | awk 'NF == 3 { print "<" $3 ">:" }' |
		sort -u >stubs.txt
	"$ARCH_TRIPLE-objdump" -d --no-show-raw-insn "$rt/libfntrace.so" |
		awk -F'\t' -v reg="$reg" '
		/^[0-9a-f]+ <.*>:$/ { split($0, a, " "); fn = a[2]; next }
		NF >= 3 { ops = $3; sub(/^[0-9a-f]+ <.*/, "", ops); sub(/ *(\/\/|#).*/, "", ops)
			if (ops ~ reg || ($2 ~ /^f/ && $2 !~ /^fence/)) print fn }' |
		sort -u >fp_users.txt
	t_ok "the runtime uses floating-point registers somewhere (the check sees them)" \
		grep -q '<arch_fp_args>:' fp_users.txt
	t_eq "only the entry stubs touch the floating-point registers" "" \
		"$(comm -23 fp_users.txt stubs.txt | tr '\n' ' ')"
}

args_cross() {
	ac_fp_untouched
	ac_entry_sites
	ac_pg_sites
	ac_refusals
	ac_live
}

if [ -n "$T_ARCH" ]; then
	case " $ARGS_ARCHES " in
	*" $T_ARCH "*) args_cross ;;
	*) t_skip "args_cross" "arguments are not recorded on $T_ARCH yet" ;;
	esac
else
	for arch in $ARGS_ARCHES; do
		if [ ! -f "$BUILD/$arch/libfntrace.so" ]; then
			t_fail "args_cross: the $arch runtime is built" "no $BUILD/$arch/libfntrace.so"
			continue
		fi
		mkdir -p "$arch"
		( cd "$arch" && T_ARCH=$arch && . "$top/tests/lib.sh" && args_cross ) ||
			t_fail "args_cross: $arch stopped with status $?"
	done
fi
