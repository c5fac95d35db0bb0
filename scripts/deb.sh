#!/bin/sh
# Build the Debian package from this tree, away from it: the sources are
# copied into OUT/fntrace-VERSION and dpkg-buildpackage runs there (its
# clean would otherwise remove the tree's build/, and it writes beside
# the source directory), so that the tree gets nothing but OUT.
# Usage: scripts/deb.sh OUT    (prints the path of the .deb it built)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -SVersion)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
src=$out/fntrace-$version

rm -rf "$src" "$out"/fntrace_*
mkdir -p "$src"
# The tree's files, committed or not (git's list, less what .gitignore
# names, so that no build output is taken); outside git, all but build*.
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf -) | tar -C "$src" -xf -
else
	tar -C "$top" --exclude='./build*' --exclude="./${out#"$top"/}" -cf - . |
		tar -C "$src" -xf -
fi

# The copy's make reads nothing of the caller's make or tests: BUILD
# above all, or its clean would remove the tree's build/ (tests/run.sh
# exports it), and its install take what is there.
jobs=$(nproc 2>/dev/null || echo 2)
(cd "$src" && env -u BUILD -u ARCH -u VERSION -u PREFIX -u DESTDIR -u SANITIZE \
	-u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-parallel=$jobs}" \
	dpkg-buildpackage -b -us -uc >"$out/build.log" 2>&1) || {
	tail -n 30 "$out/build.log" >&2
	echo "deb.sh: dpkg-buildpackage failed, see $out/build.log" >&2
	exit 1
}
echo "$out/fntrace_${version}_$arch.deb"
