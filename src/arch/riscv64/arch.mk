# riscv64: the cross compiler prefix, and the runtime's own flags.
# gcc has no -mgeneral-regs-only for riscv, and a soft-float (lp64) runtime
# cannot link with the lp64d glibc: the runtime's C may use FP registers,
# and entry.S saves fa0-fa7 and fcsr around it instead (fa0/fa1 in
# return_to_handler).
# riscv gcc 12 makes no unwind tables by default: without them, the
# unwinder behind backtrace() stops in the runtime's backtrace wrapper.
CROSS_riscv64 := riscv64-linux-gnu-
RT_ARCH_CFLAGS := -fasynchronous-unwind-tables
