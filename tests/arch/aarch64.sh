# aarch64: how the test programs are built, per flavour (sourced by
# tests/lib.sh).  arch_flavor FLAVOR sets cc (gcc, g++ or clang), flags
# (compile only) and link (link only); it fails for a flavour aarch64
# lacks (gcc rejects -mfentry, -mrecord-mcount and -mnop-mcount here).
ARCH_TRIPLE=aarch64-linux-gnu
ARCH_FLAVORS="gcc-pg gcc-patchable clang-pg clang-patchable"
# Its _mcount starts the runtime when a site calls it first (src/core/early.c).
ARCH_EARLY_MCOUNT=1
# A patchable entry whose one changed instruction is changed live.
ARCH_PATCHABLE_LIVE=clang-patchable
# Cross-built programs run under qemu-user, which has no rseq: no CPU column.
[ "$(uname -m)" = aarch64 ] || ARCH_EMULATED=1
# Return sites: clang's XRay sleds, with patchable entries (past clang's
# driver, as fntrace cc passes them), made sites by recordmcount.  gcc has
# none here, so the return-site flavours named after gcc's (robust_lib.sh
# maps gcc-pg to gcc-return) are clang's.
ARCH_RETURN_SITES="-Xclang -fpatchable-function-entry=2 -fxray-instrument
	-fxray-instrumentation-bundle=function-exit -fxray-instruction-threshold=1"

arch_flavor() {
	link=
	case $1 in
	gcc-pg)          cc=gcc;   flags="-pg" ;;
	gcc-patchable)   cc=gcc;   flags="-fpatchable-function-entry=2" ;;
	gcc-patchable-rdynamic) cc=gcc; flags="-fpatchable-function-entry=2"; link="-rdynamic" ;;
	g++-patchable)   cc=g++;   flags="-fpatchable-function-entry=2" ;;
	clang-pg)        cc=clang; flags="-pg" ;;
	clang-patchable) cc=clang; flags="-fpatchable-function-entry=2" ;;
	gcc-pg-linked)   cc=gcc;   flags="-pg"; link="-pg" ;;
	plain)           cc=gcc;   flags="" ;;
	g++-pg)          cc=g++;   flags="-pg" ;;
	gcc-pg-rdynamic) cc=gcc;   flags="-pg"; link="-rdynamic" ;;
	gcc-return)      cc=clang;   flags=$ARCH_RETURN_SITES; rmc=1 ;;
	g++-return)      cc=clang++; flags=$ARCH_RETURN_SITES; rmc=1 ;;
	gcc-return-rdynamic) cc=clang; flags=$ARCH_RETURN_SITES; rmc=1; link="-rdynamic" ;;
	*) return 1 ;;
	esac
}

ARCH_FAR_MB=256	# beyond the +-128 MB of bl
# Every site changes by one store (NOP <-> BL) that threads may run
# through: a live patch needs no breakpoint (blocked_signals).
ARCH_POKES_LIVE=1
# far_lib's reopening far apart: off, as qemu-aarch64 may place the library
# in a gap the fills leave, with no page free within bl's reach (the torture
# case at make stress's 10 000 rounds covers the reclaim here).
ARCH_FAR_RELOADS=0

# The cases tests/cases/arch/cross.sh runs for aarch64 in make check.  Left
# out, under qemu-user: attach and gdb (no ptrace of a guest, no aarch64
# gdb here), control (its idle check straces qemu's own threads),
# ctl_faults and lost (timed for native speed), load_nops and
# robust_depth (x86_64 bytes and flavours), signal_nesting (x86_64
# flavours; the handler's calls are all there, but events the slow
# recorder drops break the nesting check), record_faults (its helper
# reap, cross-built by t_build, reports nothing of the program whose
# recorder was killed; not looked into).
ARCH_CASES="static matrix functable tracers shlib threads list crash errors profile_dlopen profile_graph_opts robust_threads
	robust_process robust_clone robust_signals robust_jumps robust_dlopen robust_live robust_batch_fork
	robust_torture real_compare far_lib real_zlib live_stress durations lifetime blocked_signals tracing_off tracing_thresh record_rotate
	ctl_triggers record_triggers ctl_snapshot_triggers flight_longer crash_snapshot crash_snapshot_pid crash_snapshot_run sanitizers_arch
	detour_trace detour_regs libcalls remote_arch return_sites_arch robust_returns"
