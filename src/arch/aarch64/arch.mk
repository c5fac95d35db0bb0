# aarch64: the cross compiler prefix, and the runtime's own flags.
CROSS_aarch64 := aarch64-linux-gnu-
# A frame's saved x30 has no fixed place (fde.c): ARCH_RETURN_SLOT_FLOATS.
RT_ARCH_CFLAGS := -mgeneral-regs-only -DARCH_RETURN_SLOT_FLOATS=1
