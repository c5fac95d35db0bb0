# i386: the cross compiler prefix, and the runtime's own flags.
CROSS_i386 := i686-linux-gnu-
RT_ARCH_CFLAGS := -mgeneral-regs-only
