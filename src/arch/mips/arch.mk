# mips: the cross compiler prefix, and the runtime's own flags.
CROSS_mips := mips-linux-gnu-
RT_ARCH_CFLAGS :=
