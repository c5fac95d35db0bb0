# riscv64: the cross compiler prefix, and the runtime's own flags.
CROSS_riscv64 := riscv64-linux-gnu-
RT_ARCH_CFLAGS :=
