# x86_64: the cross compiler prefix, and the runtime's own flags.
CROSS_x86_64 := 
RT_ARCH_CFLAGS := -mgeneral-regs-only
