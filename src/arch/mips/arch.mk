# mips: the cross compiler prefix, and the runtime's own flags.
# No -mgeneral-regs-only on mips: ftrace_caller saves $f12/$f14 and
# return_to_handler $f0/$f2 instead (entry.S).  The shared buffers hold
# _Atomic uint64_t: o32 has no 64-bit atomic instructions, gcc calls
# __atomic_*_8 from libatomic for them.
CROSS_mips := mips-linux-gnu-
RT_ARCH_CFLAGS :=
RT_ARCH_LIBS := -latomic
