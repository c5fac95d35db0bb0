# riscv64: the runtime's encoders, trap emulation and prologue reader
# (tests/arch/riscv64_insn.c), built with the riscv64 cross compiler and
# run under qemu-user: the unit test of src/arch/riscv64.

src="$top/src"
riscv64-linux-gnu-gcc -O2 -Wall -std=gnu11 -D_GNU_SOURCE -I"$src" -I"$src/arch/riscv64" \
	-o insn "$top/tests/arch/riscv64_insn.c" "$src/arch/riscv64/ftrace.c" \
	"$src/arch/riscv64/trap.c" "$src/arch/riscv64/frame.c" 2>build.err
t_eq "riscv64 insn: builds" "" "$(cat build.err)"
QEMU_LD_PREFIX=/usr/riscv64-linux-gnu ./insn >insn.out 2>&1
t_eq "riscv64 insn: every check passes" 0 "$?"
grep FAIL insn.out | sed "s/^/  insn: /"
