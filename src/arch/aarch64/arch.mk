# aarch64: the cross compiler prefix, and the runtime's own flags.
CROSS_aarch64 := aarch64-linux-gnu-
RT_ARCH_CFLAGS := -mgeneral-regs-only
