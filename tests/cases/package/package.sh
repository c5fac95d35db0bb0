# The Debian package (debian/, make deb), built from a copy of this tree
# by dpkg-buildpackage (scripts/deb.sh) and checked without installing
# it: lintian finds no error and no warning (debian/fntrace.lintian-
# overrides says why for what it overrides); its control fields and the
# files it holds are the ones make install puts under /usr, nothing
# elsewhere; unpacked (dpkg-deb -x) into the case's directory, its
# fntrace says the version, builds the project tests/progs/ccproj with
# make CC="fntrace cc" and records it with its own runtime, found beside
# it as it would be in /usr/lib/fntrace, and so does every other
# architecture's runtime, for a program of that architecture run under
# qemu-user; TSan's suppressions are its own file; its manual pages are
# found by man and its completion completes.

. "$top/tests/cc_lib.sh"
unset FNTRACE_LIB
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -SVersion)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)

tree_fntrace=$(stat -c %Y "$BUILD/fntrace" 2>/dev/null)
DEB_BUILD_OPTIONS="nocheck noautodbgsym parallel=${CHECK_JOBS:-2}" "$top/scripts/deb.sh" "$PWD/out" \
	>deb.path 2>deb.err
t_eq "package: dpkg-buildpackage builds it" "$PWD/out/fntrace_${version}_$arch.deb" \
	"$(cat deb.path)$(head -n 3 deb.err)"
deb=$PWD/out/fntrace_${version}_$arch.deb
t_ok "package: built in the copy's own build/" test -x "out/fntrace-$version/build/fntrace"
t_eq "package: the tree's build/ untouched" "$tree_fntrace" \
	"$(stat -c %Y "$BUILD/fntrace" 2>/dev/null)"
[ -f "$deb" ] || return 0

# ---- lintian: no error, no warning ----
lintian --fail-on error,warning "$deb" >lintian.out 2>&1
t_eq "package: lintian says no error or warning" "0" \
	"$?$(grep -E '^[EW]: ' lintian.out | head -n 3 | tr '\n' ' ')"
t_eq "package: the override of the other architectures' binaries is used" 3 \
	"$(lintian --show-overrides "$deb" 2>/dev/null | grep -c '^O: fntrace: binary-from-other-architecture')"

# ---- the control fields ----
field() { dpkg-deb -f "$deb" "$1"; }
t_eq "package: name, version, architecture" "fntrace $version $arch" \
	"$(field Package) $(field Version) $(field Architecture)"
for lib in libc6 libdw1 libcapstone4; do
	t_ok "package: depends on $lib" sh -c "dpkg-deb -f '$deb' Depends | grep -q '\\b$lib\\b'"
done

# ---- its files: make install's under /usr, and only those ----
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub(/^\.\//, "", $6); print $6 }' | sort >files
{
	echo usr/bin/fntrace
	for a in "" aarch64/ i386/ mips/ riscv64/; do
		echo "usr/lib/fntrace/${a}libfntrace.a"
		echo "usr/lib/fntrace/${a}libfntrace.so"
		echo "usr/lib/fntrace/${a}tsan.supp"
	done
	for p in "$top"/docs/man/*.1.md; do
		p=${p##*/}; echo "usr/share/man/man1/${p%.md}.gz"
	done
	echo usr/share/bash-completion/completions/fntrace
	echo usr/share/doc/fntrace/changelog.gz
	echo usr/share/doc/fntrace/copyright
	echo usr/share/fntrace/fntrace-gdb.py
	echo usr/share/lintian/overrides/fntrace
} | sort >files.want
t_same "package: its files" files.want files

# ---- unpacked, it works from where it is ----
dpkg-deb -x "$deb" root
FNTRACE=$PWD/root/usr/bin/fntrace
t_eq "package: fntrace --version" "fntrace $version" "$("$FNTRACE" --version)"
t_eq "package: fntrace -V" "fntrace $version" "$("$FNTRACE" -V)"

cc_graph_want graph.want
# pkg_trace NAME PROG: record PROG with the unpacked fntrace, and its
# graph is ccproj's.
pkg_trace() {
	"$FNTRACE" record -o "$1.data" -- "$2" >"$1.out" 2>"$1.err"
	t_eq "package $1: recorded, the program's output" "0 total = 10" "$? $(cat "$1.out")"
	"$FNTRACE" report -i "$1.data" >"$1.txt" 2>/dev/null
	t_graph_calls "$1.txt" >"$1.graph"
	t_same "package $1: the graph" graph.want "$1.graph"
}

if cc_make native; then
	t_eq "package: make CC=\"fntrace cc\" says nothing" "" "$(cat native/make.out)"
	pkg_trace native native/ccdemo
	# ThreadSanitizer's suppressions are the package's file: a recording
	# leaves nothing in /tmp that the package's removal would not take.
	TSAN_OPTIONS= "$FNTRACE" record -o tsan.data -- sh -c 'echo "$TSAN_OPTIONS"' >tsan.out 2>/dev/null
	t_eq "package: TSan's suppressions are the package's" \
		"suppressions=$PWD/root/usr/lib/fntrace/tsan.supp" "$(cat tsan.out)"
	# The only runtime it can find is the one beside it: without that,
	# it finds none.
	mv root/usr/lib/fntrace/libfntrace.so hidden.so
	t_error "package: no runtime beside it, none found" 1 "cannot find libfntrace.so" \
		"$FNTRACE" record -o none.data -- native/ccdemo
	mv hidden.so root/usr/lib/fntrace/libfntrace.so
else
	t_fail "package: make CC=\"fntrace cc\"" "$(tail -n 3 native/make.out | tr '\n' ' ')"
fi

# The other architectures: their compilers, their runtimes from the
# package (FNTRACE_LIB is unset: none but the package's is found).
for a in i386:i686-linux-gnu-gcc aarch64:aarch64-linux-gnu-gcc \
	 riscv64:riscv64-linux-gnu-gcc mips:mips-linux-gnu-gcc; do
	if cc_make "${a%%:*}" FNTRACE_CC="${a#*:}"; then
		pkg_trace "${a%%:*}" "${a%%:*}/ccdemo"
	else
		t_fail "package ${a%%:*}: make" "$(tail -n 3 "${a%%:*}/make.out" | tr '\n' ' ')"
	fi
done

# ---- the manual pages and the completion, where man and bash look ----
t_eq "package: man finds fntrace-record(1) in the package" \
	"$PWD/root/usr/share/man/man1/fntrace-record.1.gz" \
	"$(MANPATH=$PWD/root/usr/share/man man -w fntrace-record 2>&1)"
t_ok "package: fntrace-record(1) renders" sh -c \
	"MANPATH='$PWD/root/usr/share/man' MANWIDTH=80 man fntrace-record 2>&1 | grep -q '^NAME'"
t_eq "package: the completion completes a command" "report" \
	"$(PATH=$PWD/root/usr/bin:$PATH bash -c '. "$1"
	fn=$(complete -p fntrace | sed -n "s/.* -F \([^ ]*\) fntrace$/\1/p")
	COMP_WORDS=(fntrace repo) COMP_CWORD=1 COMP_LINE="fntrace repo" COMP_POINT=12
	"$fn" fntrace repo fntrace; echo "${COMPREPLY[*]}"' sh \
	"$PWD/root/usr/share/bash-completion/completions/fntrace")"
