# i386: how the test programs are built, per flavour (sourced by
# tests/lib.sh).  arch_flavor FLAVOR sets cc (gcc, g++ or clang), flags
# (compile only) and link (link only); it fails for an unknown flavour.
# i386 programs run natively (the kernel's IA32 emulation, /lib32's libc),
# or, on a kernel without it, under qemu-i386 (scripts/binfmt.sh).
ARCH_TRIPLE=i686-linux-gnu
[ -e /proc/sys/fs/binfmt_misc/qemu-i386 ] && ARCH_EMULATED=1
# Under qemu-i386 (ARCH_EMULATED), two groups of cases are left out, each
# said as skipped with its reason (arch_emulated_skip, arch_emulated_why).
# As on aarch64 (tests/arch/aarch64.sh), what qemu itself changes:
# load_nops and control's idle check see qemu's own threads, lost is timed
# for native speed, record_faults' reap helper reports nothing, and
# ctl_faults' program ends early: live patching syncs threads by signal
# there (membarrier does not reach qemu's code cache), and each one cuts
# a sleep short, as a signal does to any nanosleep.  And
# qemu-i386 7.2 (Debian 12's) gives a thread another thread's TLS once a
# signal handler returns (tests/progs/tls_signal_probe.c shows it with no
# fntrace in the program): every TLS access of the program is then wrong,
# the runtime's ft_current too, and graph tracing with signals and threads
# crashes.  The cases that lean on that are left out only where the probe
# fails; natively every case runs.
ARCH_QEMU_CASES="load_nops control lost record_faults ctl_faults"
ARCH_TLS_CASES="robust_signals robust_batch_fork live_stress robust_torture signal_nesting robust_live
	robust_clone ctl_triggers record_triggers"

# Does this qemu-i386 keep a thread's TLS across its signal handlers?
i386_tls_kept() {
	local d ok=0
	d=$(mktemp -d)
	i686-linux-gnu-gcc -O1 -o "$d/probe" "$top/tests/progs/tls_signal_probe.c" \
		-lpthread 2>/dev/null && timeout 30 "$d/probe" && ok=1
	rm -rf "$d"
	[ $ok = 1 ]
}

arch_emulated_skip() {
	echo $ARCH_QEMU_CASES
	i386_tls_kept || echo $ARCH_TLS_CASES
}

arch_emulated_why() {
	case " $ARCH_QEMU_CASES " in
	*" $1 "*) echo "under qemu-user, as on aarch64: qemu's own threads, native timing, sleeps cut by sync signals"; return ;;
	esac
	echo "qemu-i386 gives a thread another thread's TLS after a signal handler (tests/progs/tls_signal_probe.c)"
}

# rel32 reaches the whole 32-bit address space: no distance is beyond it,
# far_lib shows a library a quarter of it away traced all the same.
ARCH_FAR_MB=1024
# far_lib's reopening far apart: 32-bit: no room for 70 places twice ARCH_FAR_MB apart.
ARCH_FAR_RELOADS=0
ARCH_FLAVORS="gcc-pg gcc-pg-nopie gcc-fentry gcc-nop gcc-patchable clang-pg clang-patchable"
# Left out: attach (the x86_64 CLI cannot inject a call into an i386
# process; a CLI built for i386 passes it), gdb (scripts/fntrace-gdb.py
# reads x86_64 registers), cc (it builds for the host; its cross part
# covers i386), valgrind (memcheck for 32-bit
# programs needs libc6-dbg:i386, not installed here).
ARCH_CASES="static matrix functable tracers robust_threads robust_process robust_clone robust_signals robust_jumps
	robust_dlopen robust_live robust_depth robust_batch_fork shlib threads
	signal_nesting live_stress load_nops profile_dlopen crash control
	record_faults errors list lost ctl_faults robust_torture far_lib real_zlib durations lifetime
	tracing_thresh ctl_triggers record_triggers sanitizers_arch"

arch_flavor() {
	link=
	case $1 in
	gcc-pg)          cc=gcc;   flags="-pg" ;;
	gcc-pg-nopie)    cc=gcc;   flags="-fno-pie -pg"; link="-no-pie" ;;
	gcc-fentry)      cc=gcc;   flags="-fno-pie -pg -mfentry"; link="-no-pie" ;;
	gcc-nop)         cc=gcc;   flags="-fno-pie -pg -mfentry -mrecord-mcount -mnop-mcount"; link="-no-pie" ;;
	gcc-patchable)   cc=gcc;   flags="-fpatchable-function-entry=5" ;;
	gcc-patchable-rdynamic) cc=gcc; flags="-fpatchable-function-entry=5"; link="-rdynamic" ;;
	g++-patchable)   cc=g++;   flags="-fpatchable-function-entry=5" ;;
	clang-pg)        cc=clang; flags="-pg" ;;
	clang-patchable) cc=clang; flags="-fpatchable-function-entry=5" ;;
	gcc-pg-linked)   cc=gcc;   flags="-pg"; link="-pg" ;;
	plain)           cc=gcc;   flags="" ;;
	g++-pg)          cc=g++;   flags="-pg" ;;
	gcc-pg-rdynamic) cc=gcc;   flags="-pg"; link="-rdynamic" ;;
	*) return 1 ;;
	esac
}
