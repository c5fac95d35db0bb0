# x86_64: how the test programs are built, per flavour (sourced by
# tests/lib.sh).  arch_flavor FLAVOR sets cc (gcc, g++ or clang), flags
# (compile only) and link (link only); it fails for an unknown flavour.
ARCH_TRIPLE=x86_64-linux-gnu
# gcc's return sites (src/core/returns.c): the flavours *-return.
ARCH_RETURN_SITES="-minstrument-return=nop5 -mrecord-return"
ARCH_FLAVORS="gcc-pg gcc-fentry gcc-nop gcc-return gcc-patchable clang-pg clang-patchable"

arch_flavor() {
	link=
	case $1 in
	gcc-pg)          cc=gcc;   flags="-pg" ;;
	gcc-fentry)      cc=gcc;   flags="-pg -mfentry" ;;
	gcc-nop)         cc=gcc;   flags="-fno-pie -pg -mfentry -mrecord-mcount -mnop-mcount"; link="-no-pie" ;;
	gcc-return)      cc=gcc;   flags="-fno-pie -pg -mfentry -mrecord-mcount -mnop-mcount $ARCH_RETURN_SITES"; link="-no-pie" ;;
	g++-return)      cc=g++;   flags="-fno-pie -pg -mfentry -mrecord-mcount -mnop-mcount $ARCH_RETURN_SITES"; link="-no-pie" ;;
	gcc-return-rdynamic) cc=gcc; flags="-fno-pie -pg -mfentry -mrecord-mcount -mnop-mcount $ARCH_RETURN_SITES"; link="-no-pie -rdynamic" ;;
	gcc-patchable)   cc=gcc;   flags="-fpatchable-function-entry=5" ;;
	gcc-patchable-rdynamic) cc=gcc; flags="-fpatchable-function-entry=5"; link="-rdynamic" ;;
	g++-patchable)   cc=g++;   flags="-fpatchable-function-entry=5" ;;
	clang-pg)        cc=clang; flags="-pg" ;;
	clang-patchable) cc=clang; flags="-fpatchable-function-entry=5" ;;
	gcc-pg-linked)   cc=gcc;   flags="-pg"; link="-pg" ;;
	plain)           cc=gcc;   flags="" ;;
	g++-plain)       cc=g++;   flags="" ;;
	g++-pg)          cc=g++;   flags="-pg" ;;
	gcc-pg-rdynamic) cc=gcc;   flags="-pg"; link="-rdynamic" ;;
	*) return 1 ;;
	esac
}
# Its mcount starts the runtime when a site calls it first (src/core/early.c).
ARCH_EARLY_MCOUNT=1
# A patchable entry of one instruction: changed live (tests/cases/trace/lifetime.sh).
ARCH_PATCHABLE_LIVE=clang-patchable
ARCH_FAR_MB=4096	# beyond the +-2 GB of call rel32
ARCH_FAR_RELOADS=70	# far_lib: more places than trampoline pages kept
