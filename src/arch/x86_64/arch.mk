# x86_64: the cross compiler prefix, and the runtime's own flags.
CROSS_x86_64 := 
# entry.S has the graph hooks' fast paths (core/asm_offsets.h).
RT_ARCH_CFLAGS := -mgeneral-regs-only -DARCH_GRAPH_FAST_PATHS=1
