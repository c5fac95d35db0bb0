# i386: the cross compiler prefix, and the runtime's own flags.
# 64-bit file offsets: without them fstat() of a file whose inode number
# or size needs more than 32 bits fails (EOVERFLOW), and the runtime
# could not read that module's call sites.
CROSS_i386 := i686-linux-gnu-
RT_ARCH_CFLAGS := -mgeneral-regs-only -D_FILE_OFFSET_BITS=64
# Not optimized whole: the link-time compile calls libatomic for the
# buffer's 64-bit counters, which the compile per file makes cmpxchg8b.
RT_LTO :=
