# fntrace list --detours: which functions of an image built with no call
# sites can have their entry replaced by a jump (src/detour/), and why not
# the others.  The target: 95 % of the function symbols, on a program
# built with plain -O2 -g by gcc and by clang (fntrace's own recordmcount,
# about 200 functions), on Debian's libraries as installed, and on an
# aarch64 program and library.

# t_share NAME IMAGE: list --detours succeeds on IMAGE and patches 95 %.
t_share() {
	local name=$1 image=$2 ok all
	if ! "$FNTRACE" list --detours "$image" >detours.txt 2>err.txt; then
		t_fail "$name: list --detours" "$(head -n 1 err.txt)"
		return
	fi
	read -r ok _ all _ <<EOF2
$(tail -n 1 detours.txt)
EOF2
	echo "$name: $(tail -n 1 detours.txt)"
	if [ -n "$all" ] && [ "$all" -gt 0 ] && [ $((ok * 100)) -ge $((all * 95)) ]; then
		t_pass "$name: 95 % of $all functions patched"
	else t_fail "$name: 95 % patched" "$(tail -n 1 detours.txt)"; fi
}

# recordmcount: a program of fntrace's own sources, built as any.
rmc_sources() {
	echo "$top"/src/recordmcount/*.c "$top"/src/elf/*.c "$top"/src/arch/arches.c \
	     "$top"/src/arch/*/decode.c "$top"/src/arch/*/abi.c "$top"/src/sites/*.c \
	     "$top"/src/common/*.c
}

for cc in gcc clang; do
	# shellcheck disable=SC2046
	if $cc -O2 -g -std=gnu11 -D_GNU_SOURCE -I"$top/src" -I"$top/src/arch/$(uname -m)" \
			$(rmc_sources) -o "rmc-$cc" 2>build.err; then
		t_share "$cc -O2 -g program" "rmc-$cc"
	else t_fail "$cc -O2 -g program: build" "$(head -n 2 build.err | tr '\n' ' ')"; fi
done

multiarch=$(gcc -print-multiarch)
t_share "Debian's libz" "/usr/lib/$multiarch/libz.so.1"
t_share "Debian's libc" "$(gcc -print-file-name=libc.so.6)"
t_share "Debian's aarch64 libc" /usr/aarch64-linux-gnu/lib/libc.so.6
# shellcheck disable=SC2046
if aarch64-linux-gnu-gcc -O2 -g -std=gnu11 -D_GNU_SOURCE -I"$top/src" \
		-I"$top/src/arch/aarch64" $(rmc_sources) -o rmc-aarch64 2>build.err; then
	t_share "aarch64 gcc -O2 -g program" rmc-aarch64
else t_fail "aarch64 program: build" "$(head -n 2 build.err | tr '\n' ' ')"; fi

# What one line says: a refusal, named with its reason; with -a, each
# function patched, with the bytes its jump replaces.
cat >small.c <<'EOF2'
__attribute__((noinline)) int zero(void) { return 0; }
__attribute__((noinline)) long sum(const long *v, long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += v[i] * (i + 1);
	return s;
}
int main(int argc, char **argv) { long v[3] = { argc, 2, 3 }; return zero() + (int)sum(v, 3); }
EOF2
t_build plain -O2 small small.c
"$FNTRACE" list --detours small >out.txt
t_ok "list --detours: a function too short, with its reason" \
	grep -qx 'zero: too short for the jump (0x[0-9a-f]*)' out.txt
t_eq "list --detours: no line for a function patched" "0" "$(grep -c '^sum' out.txt)"
"$FNTRACE" list -a --detours small >out.txt
t_ok "list -a --detours: a function patched, its address and length" \
	grep -qx '0x[0-9a-f]* [5-9] detour sum' out.txt
t_ok "list -a --detours: every line a plan, or the summary" \
	sh -c "! grep -v -e '^0x[0-9a-f]* [0-9]* detour ' -e ': .* (0x[0-9a-f]*)\$' \
		-e '^[0-9]* of [0-9]* functions can be patched' out.txt"

# A cold part (gcc's f.cold: f's unlikely blocks, a catch's landing pad)
# is jumped to, never called: refused, and left out of the share; the
# program traced with -F '*' under function_graph counts its calls as
# without the cold parts, and its output is unchanged.
t_build g++-plain -O2 cold "$top/tests/progs/detour_cold.cpp"
"$FNTRACE" list --detours cold >out.txt
t_ok "list --detours: a cold part refused, with its reason" \
	grep -qx "main.cold: a function's cold part, entered by a jump, not a call (0x[0-9a-f]*)" out.txt
t_ok "list --detours: cold parts left out of the share" \
	grep -qx '[0-9]* of [0-9]* functions can be patched (100.0%), 2 cold parts left out' out.txt
"$FNTRACE" record -F '*' -o cold.data -- ./cold >cold.out 2>cold.err
t_eq "a cold part's program traced: its output" "11" "$(cat cold.out)"
"$FNTRACE" report -i cold.data >cold.txt 2>&1
t_eq "a cold part is not traced" "0" "$(grep -c '\.cold' cold.txt)"
t_eq "the throwing function's calls" "10" "$(grep -c 'thrower()' cold.txt)"

# A landing pad stays: the jump goes after gcc's endbr64 (-fcf-protection)
# and after aarch64's bti c and paciasp (-mbranch-protection=standard:
# bti c where the return address is not signed, a leaf's).
# t_after_pad NAME IMAGE NM FUNC: FUNC's patch address is its symbol's + 4.
t_after_pad() {
	local sym patch
	sym=$($3 "$2" | awk -v f="$4" '$3 == f { print $1 }')
	patch=$("$FNTRACE" list -a --detours "$2" | awk -v f="$4" '$4 == f { print $1 }')
	if [ -n "$sym" ] && [ -n "$patch" ] && [ $((0x$sym + 4)) -eq $((patch)) ]; then
		t_pass "$1"
	else t_fail "$1" "$4 at ${sym:-?}, patched at ${patch:-none}"; fi
}
if gcc -O2 -g -fcf-protection=full -o small-cet small.c 2>build.err; then
	t_after_pad "list --detours: the jump after endbr64" small-cet nm sum
else t_fail "landing pads: build with -fcf-protection" "$(head -n 1 build.err)"; fi
if aarch64-linux-gnu-gcc -O2 -g -mbranch-protection=standard -o small-pac small.c 2>build.err
then
	t_after_pad "list --detours: the jump after bti c" small-pac aarch64-linux-gnu-nm sum
	t_after_pad "list --detours: the jump after paciasp" small-pac aarch64-linux-gnu-nm main
else t_fail "landing pads: build with -mbranch-protection" "$(head -n 1 build.err)"; fi

# Jump tables (x86_64): f's case label 0 is f+1, inside the bytes its
# jump would replace, and only its table says so; h's table follows f's,
# and read on from f's base its entry would land at g+2, inside g's
# replaced bytes, where nothing branches.
cat >tables.s <<'EOF2'
	.text
	.globl f, g, h
	.type f, @function
f:	push %rbx
1:	mov %edi, %eax
	lea .Lt1(%rip), %rdx
	movslq (%rdx,%rax,4), %rax
	add %rdx, %rax
	jmp *%rax
2:	pop %rbx
	ret
	.size f, .-f
	.type g, @function
g:	.fill 10, 1, 0x90
3:	nop
	ret
	.size g, .-g
	.type h, @function
h:	push %rbx
	lea .Lt2(%rip), %rdx
	movslq (%rdx,%rdi,4), %rax
	add %rdx, %rax
	pop %rbx
	jmp *%rax
	.size h, .-h
	.section .rodata
	.p2align 2
.Lt1:	.long 1b - .Lt1, 2b - .Lt1
.Lt2:	.long 3b - .Lt2
EOF2
if gcc -shared -nostdlib -o tables.so tables.s 2>build.err; then
	"$FNTRACE" list --detours tables.so >out.txt
	t_ok "list --detours: a case label inside the replaced bytes, from its table" \
		grep -q '^f: a branch lands inside the replaced bytes' out.txt
	t_eq "list --detours: a table read no further than the next one" "" \
		"$(grep -e '^g:' -e '^h:' out.txt)"
else t_fail "jump tables: assemble" "$(head -n 2 build.err | tr '\n' ' ')"; fi

strip -o stripped small
t_error "list --detours: a program stripped of its functions" 1 'stripped has no function symbols' \
	"$FNTRACE" list --detours ./stripped
t_error "list --detours: an architecture without detours" 1 'no detours for riscv64' \
	"$FNTRACE" list --detours /usr/riscv64-linux-gnu/lib/libc.so.6
t_error "list --detours: a big-endian image" 1 'no detours for big-endian mips' \
	"$FNTRACE" list --detours /usr/mips-linux-gnu/lib/libc.so.6
t_ok "list --help says --detours" sh -c "'$FNTRACE' list --help | grep -q -- --detours"
