# Helpers for the cases (tests/cases/AREA/NAME.sh), sourced by tests/run.sh.
#
# Each check records one result line in $RESULTS; run.sh counts them,
# and says each failure's again at the end (the tail a CI log keeps).
#   t_pass NAME / t_fail NAME [WHY] / t_skip NAME WHY
#   t_ok NAME CMD...           passes if CMD exits 0
#   t_eq NAME EXPECTED ACTUAL  passes if the two strings are equal
#   t_same NAME FILE1 FILE2    passes if the files are equal (diff shown)

FNTRACE=${FNTRACE:-$BUILD/fntrace}
# Under T_ARCH, that architecture's runtime (cross.sh sources this file
# again inside a run that already set the host's).
if [ -n "${T_ARCH:-}" ]; then LIBFNTRACE=$BUILD/$T_ARCH/libfntrace.so
else LIBFNTRACE=${LIBFNTRACE:-$BUILD/libfntrace.so}; fi

# Cross testing: with T_ARCH=<arch> (aarch64, riscv64, mips, i386), t_build
# compiles for that architecture as tests/arch/<arch>.sh says, and the
# programs run under qemu-user through binfmt_misc (i386: natively).
# Check names then start with "[<arch>] ".
T_ARCH=${T_ARCH:-}
T_TAG=${T_ARCH:+[$T_ARCH] }

. "$top/tests/case_file.sh"
. "$top/tests/results.sh"

t_pass() { echo "PASS: $T_TAG$1"; echo pass >>"$RESULTS"; }
t_fail() { t_failed "$T_TAG$1${2:+: $2}"; }
t_skip() { echo "SKIP: $T_TAG$1: $2"; echo skip >>"$RESULTS"; }

t_ok() {
	local name=$1; shift
	if "$@" >"$TMP/t_ok.out" 2>&1; then t_pass "$name"
	else t_fail "$name" "$(tail -n 3 "$TMP/t_ok.out" | tr '\n' ' ')"; fi
}

t_eq() {
	if [ "$2" = "$3" ]; then t_pass "$1"
	else t_fail "$1" "expected '$2', got '$3'"; fi
}

# t_same NAME WANT GOT: the files are equal.  The failure's line carries
# the first changed lines too, so the summary at the end (all a CI log's
# tail may keep) says how they differ.
t_same() {
	if diff -u "$2" "$3" >"$TMP/t_same.diff"; then t_pass "$1"
	else
		t_fail "$1" "differs: $(sed 1,2d "$TMP/t_same.diff" | grep -E '^[-+]' | head -n 6 |
			cut -c 1-160 | tr '\n' '|')"
		head -n 40 "$TMP/t_same.diff"
	fi
}

# t_error NAME STATUS PATTERN CMD...: CMD fails with STATUS and says why
# in a first line on stderr matching PATTERN (grep); after a usage error
# (status 2) only the hint "Try 'fntrace ... --help'." follows, and
# nothing is on stdout (nothing was done); after any other failure the
# line is all fntrace says (a program it ran may have printed).
t_error() {
	local name=$1 want=$2 pattern=$3 rc lines=1; shift 3
	"$@" >"$TMP/t_error.out" 2>"$TMP/t_error.err"
	rc=$?
	[ "$want" -eq 2 ] && lines=2
	if [ "$rc" -ne "$want" ]; then
		t_fail "$name" "exit $rc, not $want: $(head -n 2 "$TMP/t_error.err" | tr '\n' ' ')"
	elif [ $lines = 2 ] && [ -s "$TMP/t_error.out" ]; then
		t_fail "$name" "stdout: $(head -n 2 "$TMP/t_error.out" | tr '\n' ' ')"
	elif [ "$(wc -l <"$TMP/t_error.err")" -ne $lines ] ||
	     ! head -n 1 "$TMP/t_error.err" | grep -q -- "$pattern" ||
	     { [ $lines = 2 ] && ! sed -n 2p "$TMP/t_error.err" | grep -q "^Try 'fntrace.* --help'\.\$"; }; then
		t_fail "$name" "stderr: $(head -n 3 "$TMP/t_error.err" | tr '\n' ' ')"
	else
		t_pass "$name"
	fi
}

# t_endpoint PID: PID's control endpoint is there and answers.  Its
# socket file alone may be a dead process's, whose pid PID took again (a
# SIGKILL leaves it behind), until PID's runtime binds its own.
t_endpoint() {
	[ -S "/tmp/fntrace-$(id -u)/$1" ] && "$FNTRACE" ctl "$1" tracing_on >/dev/null 2>&1
}

# t_running PID FILE: wait (up to 10 s) until process PID runs FILE: its
# exec is done (FILE is mapped, natively or by qemu-user) and, FILE having
# a PT_INTERP, its loader is mapped too.  A process just started with '&'
# may still be the shell that forks it.
t_running() {
	local want loader= i
	want=$(readlink -f "$2")
	readelf -l "$2" 2>/dev/null | grep -q 'program interpreter' && loader=1
	for i in $(seq 200); do
		if grep -qF "$want" "/proc/$1/maps" 2>/dev/null &&
		   { [ -z "$loader" ] || grep -q '/ld-' "/proc/$1/maps"; }; then
			return 0
		fi
		sleep 0.05
	done
	echo "t_running: process $1 never ran $2" >&2
	return 1
}

# Build flavours: how a program can be compiled for tracing, per
# architecture (tests/arch/<arch>.sh).  Each file says only what its
# architecture has: what another said before in this shell (the host's,
# in each of cross.sh's runs) is forgotten first, or x86_64's return-site
# flags would ask i386 for a flavour it does not have.
for v in $(set | sed -n 's/^\(ARCH_[A-Za-z0-9_]*\)=.*/\1/p'); do
	unset "$v"
done
. "$top/tests/arch/${T_ARCH:-x86_64}.sh"
FLAVORS=$ARCH_FLAVORS
# A cross-built program run directly (untraced) finds its libraries where
# fntrace record would point qemu-user.  i386's are the host's own (/lib32),
# as fntrace finds its loader there: natively or under qemu-i386.
[ -n "$T_ARCH" ] && [ "$T_ARCH" != i386 ] && export QEMU_LD_PREFIX="${QEMU_LD_PREFIX:-/usr/$ARCH_TRIPLE}"

# t_cc gcc|g++|clang|clang++: that compiler, for T_ARCH if set.
t_cc() {
	if [ -z "$T_ARCH" ]; then echo "$1"
	elif [ "$1" = clang ] || [ "$1" = clang++ ]; then echo "$1 --target=$ARCH_TRIPLE"
	else echo "$ARCH_TRIPLE-$1"; fi
}

# t_build FLAVOR OPT OUT SRC... : compile and link one program, or a
# shared library if OUT ends in .so.  A program of tests/progs/ built
# once in a run is copied from $T_PROGS after that (t_built).  A flavour
# that sets rmc has each object go through recordmcount --nop, as fntrace
# cc's do (clang's XRay sleds made return sites).
t_build() {
	local flavor=$1 opt=$2 out=$3 cc flags link rmc= objs= obj src key; shift 3
	arch_flavor "$flavor" || { echo "t_build: no flavour $flavor${T_ARCH:+ on $T_ARCH}" >&2; return 1; }
	cc=$(t_cc "$cc")
	case $out in *.so) opt="$opt -fPIC"; link="$link -shared" ;; esac
	key=$(t_build_key "$cc $opt $flags | $link" "$@")
	[ -n "$key" ] && [ -f "$T_PROGS/$key" ] && rm -f "$out" && cp "$T_PROGS/$key" "$out" && return 0
	# Compile with the flags, link without them: linking with -pg would
	# pull in gprof's start-up code (only gcc-pg-linked wants that).
	for src in "$@"; do
		obj=$out.$(basename "$src").o
		# shellcheck disable=SC2086
		$cc $opt -g $flags -c -o "$obj" "$src" || return 1
		[ -z "$rmc" ] || "$FNTRACE" recordmcount --nop -- "$obj" || return 1
		objs="$objs $obj"
	done
	# shellcheck disable=SC2086
	$cc -o "$out" $objs $link -lpthread || return 1
	[ -z "$key" ] || t_built "$out" "$key"
}

# t_build_key COMMAND SRC...: the name a build is kept under in $T_PROGS
# (set by tests/run.sh): its compiler and flags, its sources' text; none
# (built each time) for a source outside tests/progs/, which a case may
# write next to headers of its own.  The headers of tests/progs/ do not
# change during a run.
t_build_key() {
	local cmd=$1 src; shift
	[ -n "${T_PROGS:-}" ] || return 0
	for src in "$@"; do
		case $src in "$top"/tests/progs/*) ;; *) return 0 ;; esac
	done
	{ echo "$cmd $*"; cat "$@"; } | cksum | tr ' ' -
}

# t_built OUT KEY: keep OUT as KEY, whole or not at all: the runs at once
# (tests/cases/arch/cross.sh) may build it too.
t_built() {
	local new
	mkdir -p "$T_PROGS" && new=$(mktemp "$T_PROGS/.new.XXXXXX") &&
		cp "$1" "$new" && chmod 755 "$new" && mv -f "$new" "$T_PROGS/$2"
}

# t_examples DIR: the bundled example (examples/), built into DIR, for
# T_ARCH if set.
t_examples() {
	make -s -C "$top/examples" BUILD="$1" ${T_ARCH:+CC="$(t_cc gcc)"} >/dev/null
}

# The function column of a function_graph report: what is after the
# second '|', so durations, CPUs and thread ids drop out.
t_graph_calls() {
	grep '|' "$1" | grep -v '^#' | cut -d'|' -f3- | sed 's/^  //'
}

# t_listen NAME [ARGS...]: 'fntrace listen' on a free port of 127.0.0.1,
# into the directory NAME, in the background: LISTEN_PID, LISTEN_PORT
# (from its first line), its stderr in NAME.err.  Empty LISTEN_PORT if
# it did not start within 10 s.
t_listen() {
	local name=$1 i; shift
	rm -f "$name.port"
	"$FNTRACE" listen --bind 127.0.0.1 --port 0 -o "$name" "$@" >"$name.port" 2>"$name.err" &
	LISTEN_PID=$!
	LISTEN_PORT=
	for i in $(seq 100); do
		LISTEN_PORT=$(awk '$1 == "listening" { print $4; exit }' "$name.port" 2>/dev/null)
		[ -n "$LISTEN_PORT" ] && return 0
		sleep 0.1
	done
}

# t_hits DIR: the profile's function and hit count, a line each, sorted.
t_hits() {
	"$FNTRACE" report -i "$1" --stat --csv | awk -F, 'NR > 1 { print $1, $2 }' | sort
}
