# mips: the cross compiler prefix, and the runtime's own flags.
# No -mgeneral-regs-only on mips: ftrace_caller saves $f12/$f14 and
# return_to_handler $f0/$f2 instead (entry.S).  mips gcc makes no unwind
# tables for C by default: -funwind-tables, so that backtrace() can be
# unwound through the runtime's wrapper of it.  The shared buffers hold
# _Atomic uint64_t: o32 has no 64-bit atomic instructions, and gcc calls
# __atomic_*_8 in libatomic for them.
CROSS_mips := mips-linux-gnu-
RT_ARCH_CFLAGS := -funwind-tables
RT_ARCH_LIBS := -latomic
