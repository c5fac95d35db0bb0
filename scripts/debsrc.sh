#!/bin/sh
# Fetch a Debian source package into cache/src/ once, unpack it, and print
# the path of the unpacked source tree.
# Usage: scripts/debsrc.sh PKG
#
# The archive is reached through the machine's own apt configuration (no host
# is named here): its deb822 sources file is copied with the types changed to
# deb-src, and apt-get runs with private list and cache directories, so the
# system's apt state is left untouched. Later runs reuse the cache and never
# go to the network.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${FNTRACE_CACHE:-$top/cache}
SYS_SOURCES=${DEBSRC_SOURCES:-/etc/apt/sources.list.d/debian.sources}

die() { echo "debsrc.sh: $*" >&2; exit 1; }

# Options that point apt at our private deb-src configuration and state.
apt_opts() {
	echo "-o Dir::Etc::SourceList=$CACHE/apt/src.sources"
	echo "-o Dir::Etc::SourceParts=/dev/null"
	echo "-o Dir::State::Lists=$CACHE/apt/lists"
	echo "-o Dir::Cache=$CACHE/apt/cache"
	echo "-o APT::Sandbox::User=root"
}

# deb822 allows "Types: deb deb-src" and any case for the field name; we
# want source indices only, so every Types line becomes exactly deb-src.
# apt picks the deb822 parser from the file name, hence the .sources name.
write_sources() {
	[ -r "$SYS_SOURCES" ] || die "cannot read $SYS_SOURCES"
	mkdir -p "$CACHE/apt/lists/partial" "$CACHE/apt/cache/archives/partial"
	sed 's/^[Tt][Yy][Pp][Ee][Ss]:.*/Types: deb-src/' "$SYS_SOURCES" \
		>"$CACHE/apt/src.sources"
}

# apt-get update into the private lists, once: a stamp marks success.
update_lists() {
	[ -f "$CACHE/apt/updated" ] && return 0
	write_sources
	# shellcheck disable=SC2046
	apt-get -q $(apt_opts) update >&2 || die "apt-get update failed"
	touch "$CACHE/apt/updated"
}

# The .dsc of PKG already downloaded, if any (the newest version).
find_dsc() {
	find "$CACHE/src/$1" -maxdepth 1 -name '*.dsc' 2>/dev/null | sort -V | tail -n 1
}

# apt-get source --download-only for PKG (or PKG=VERSION) into its
# directory, emptied first of what a failed try left.
fetch() {
	rm -f "$CACHE/src/$1"/*
	# shellcheck disable=SC2046
	(cd "$CACHE/src/$1" && apt-get -q $(apt_opts) source --download-only "$2" >&2)
}

# Every version the lists know of PKG, newest first.
versions() {
	# shellcheck disable=SC2046
	apt-cache $(apt_opts) showsrc "$1" 2>/dev/null |
		awk '$1 == "Version:" { print $2 }' | sort -rVu
}

# The newest version, or, when its files cannot be had (a security
# update listed before the mirror holds it: 404), each older one the
# lists name, until one comes.
download() {
	pkg=$1
	update_lists
	mkdir -p "$CACHE/src/$pkg"
	fetch "$pkg" "$pkg" && return 0
	for v in $(versions "$pkg"); do
		echo "debsrc.sh: trying $pkg $v" >&2
		fetch "$pkg" "$pkg=$v" && return 0
	done
	die "apt-get source $pkg failed"
}

# Unpack with --skip-patches: Debian's patches (a libtool build system,
# module paths, CVE fixes) are not needed to build the interpreter the way
# build-lua.sh does. --no-check because the signing keys of the uploader are
# not installed, and the files came over apt's own verified index anyway.
# Unpacked under a name of this process, then renamed: a parallel run
# (tests and bench) never sees a half-unpacked tree.
unpack() {
	dsc=$1 dir=$2
	tmp=$dir.tmp.$$
	rm -rf "$tmp"
	dpkg-source --no-check --skip-patches -x "$dsc" "$tmp" >&2 ||
		{ rm -rf "$tmp"; die "dpkg-source -x $dsc failed"; }
	# If another run got there first, keep its tree.
	mv -T "$tmp" "$dir" 2>/dev/null || rm -rf "$tmp"
}

# One run at a time (tests build zlib two ways at once): apt-get takes a
# lock on the lists and fails where another holds it, and a download
# empties the package's directory first.  Quick once the cache holds it.
main() {
	[ $# -eq 1 ] || die "usage: debsrc.sh PKG"
	pkg=$1
	case $pkg in *[!a-z0-9.+-]*|'') die "bad package name '$pkg'" ;; esac
	mkdir -p "$CACHE"
	exec 8>"$CACHE/.debsrc.lock"
	flock 8 || die "cannot lock $CACHE"
	dsc=$(find_dsc "$pkg")
	if [ -z "$dsc" ]; then
		download "$pkg"
		dsc=$(find_dsc "$pkg")
		[ -n "$dsc" ] || die "no .dsc for $pkg after download"
	fi
	dir=${dsc%.dsc}
	[ -d "$dir" ] || unpack "$dsc" "$dir"
	echo "$dir"
}

main "$@"
