# mips o32 big-endian: how the test programs are built, per flavour
# (sourced by tests/lib.sh).  arch_flavor FLAVOR sets cc (gcc, g++ or
# clang), flags (compile only) and link (link only); it fails for a
# flavour mips lacks.  gcc rejects -mfentry, -mrecord-mcount and
# -mnop-mcount here; -fpatchable-function-entry puts every nop before the
# function's symbol on gcc 12 and clang rejects it: no patchable flavours.
ARCH_TRIPLE=mips-linux-gnu
ARCH_FLAVORS="gcc-pg gcc-pg-nopic clang-pg"
# Cross-built programs run under qemu-user, which has no rseq: no CPU column.
[ "$(uname -m)" = mips ] || ARCH_EMULATED=1

arch_flavor() {
	link=
	case $1 in
	gcc-pg)          cc=gcc;   flags="-pg" ;;
	gcc-pg-nopic)    cc=gcc;   flags="-pg -fno-pic -mno-abicalls"; link="-no-pie" ;;
	clang-pg)        cc=clang; flags="-pg" ;;
	gcc-pg-linked)   cc=gcc;   flags="-pg"; link="-pg" ;;
	plain)           cc=gcc;   flags="" ;;
	g++-pg)          cc=g++;   flags="-pg" ;;
	gcc-pg-rdynamic) cc=gcc;   flags="-pg"; link="-rdynamic" ;;
	*) return 1 ;;
	esac
}
# jal reaches its own 256 MB region; a PIC site calls through the GOT.
ARCH_FAR_MB=256
# far_lib's reopening far apart: 32-bit: no room for 70 places twice ARCH_FAR_MB apart.
ARCH_FAR_RELOADS=0
# SIGUSR1 is 16 on mips (10 on x86, arm, riscv).
ARCH_SIGUSR1=16
# Tail calls: "b" (or "j") to the callee (robust_depth).
ARCH_JUMP="b|j"
# o32 keeps no frame-pointer chain: a stack trace without the shadow stack
# names the function and its caller only (ctl_triggers).
ARCH_FRAME_CHAIN=0

# The cases tests/cases/arch/cross.sh runs for mips in make check
# (record_rotate: the depth a chunk of the other byte order starts at).
ARCH_CASES="static matrix functable robust_threads robust_process robust_signals robust_jumps robust_dlopen robust_live
	robust_batch_fork robust_depth shlib threads tracers crash far_lib real_zlib live_stress durations lifetime blocked_signals tracing_off tracing_thresh
	record_rotate flight ctl_triggers record_triggers remote_arch"
