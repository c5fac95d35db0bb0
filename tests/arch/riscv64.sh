# riscv64: how the test programs are built, per flavour (sourced by
# tests/lib.sh).  arch_flavor FLAVOR sets cc (gcc, g++ or clang), flags
# (compile only) and link (link only); it fails for an unknown flavour.
#
#   gcc-pg           the -pg call, relaxed by ld into a 4-byte "jal _mcount@plt"
#   gcc-pg-norelax   the 8-byte "auipc ra; jalr ra" kept by -mno-relax
#   clang-pg         clang's auipc+jalr (no "mv a0, ra"), never relaxed
#   gcc-patchable    four c.nop at the entry (rv64gc): changed only at load
#   gcc-patchable-rv64g  two 4-byte nops (no compressed code): changed live too
ARCH_TRIPLE=riscv64-linux-gnu
ARCH_FLAVORS="gcc-pg gcc-pg-norelax clang-pg gcc-patchable gcc-patchable-rv64g"
# A patchable entry changed live (tests/cases/trace/lifetime.sh).
ARCH_PATCHABLE_LIVE=gcc-patchable-rv64g
# Cross-built programs run under qemu-user, which has no rseq: no CPU column.
[ "$(uname -m)" = riscv64 ] || ARCH_EMULATED=1

arch_flavor() {
	link=
	case $1 in
	gcc-pg)          cc=gcc;   flags="-pg" ;;
	gcc-pg-norelax)  cc=gcc;   flags="-pg -mno-relax"; link="-Wl,--no-relax" ;;
	clang-pg)        cc=clang; flags="-pg" ;;
	gcc-patchable)   cc=gcc;   flags="-fpatchable-function-entry=4" ;;
	gcc-patchable-rdynamic) cc=gcc; flags="-fpatchable-function-entry=4"; link="-rdynamic" ;;
	g++-patchable)   cc=g++;   flags="-fpatchable-function-entry=4" ;;
	gcc-patchable-rv64g) cc=gcc; flags="-march=rv64g -fpatchable-function-entry=2" ;;
	gcc-pg-linked)   cc=gcc;   flags="-pg"; link="-pg" ;;
	plain)           cc=gcc;   flags="" ;;
	g++-pg)          cc=g++;   flags="-pg" ;;
	gcc-pg-rdynamic) cc=gcc;   flags="-pg"; link="-rdynamic" ;;
	*) return 1 ;;
	esac
}
# Beyond the +-2 GiB of auipc+jalr.  (A -pg library's own call, a jal to
# its PLT, reaches the runtime's _mcount anyway; sites of fntrace cc
# objects go through a trampoline.)
ARCH_FAR_MB=4096
# far_lib's reopening far apart: 70 places of 8 GB do not fit an Sv39 address space.
ARCH_FAR_RELOADS=0

# Under qemu-user through binfmt_misc.  Not here: cases with x86-only
# flavours or checks (signal_nesting: gcc-fentry, gcc-nop; load_nops:
# x86 bytes; robust_depth: objdump of the host), attach and ctl_faults
# (ptrace of a qemu process is qemu's, not the program's; attach injects
# with the host's registers), control (strace sees qemu's own futex
# waits), lost (its 300 ms head start for the program is too short under
# qemu on a loaded machine: flaky).
ARCH_CASES="static matrix functable robust_threads robust_process robust_signals robust_jumps robust_dlopen
shlib tracers threads robust_live robust_batch_fork robust_torture profile_dlopen crash
far_lib real_zlib live_stress durations lifetime blocked_signals tracing_off tracing_thresh
ctl_triggers record_triggers"
