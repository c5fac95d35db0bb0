#!/bin/sh
# Build JsonCpp's unit-test program (jsoncpp_test, with the library linked
# in statically) from Debian's source package (libjsoncpp), with -pg, and
# print the binary's path: a real C++ program that throws and catches.
# Usage: scripts/build-jsoncpp.sh
#
# Why JsonCpp: it is small (about 15 C++ files, built in well under a
# minute on two cores with cmake and g++ alone, no other build
# dependency), and its own test suite throws and catches on purpose:
# Json::Value's accessors throw Json::LogicError on a wrong type or range,
# the CharReader throws Json::RuntimeError on bad input with
# allowExceptions, and the tests check that (JSONTEST_ASSERT_THROWS, and a
# test runner that catches whatever a test lets through).  The throws come
# from several frames deep inside the library, through frames with
# destructors (std::string, Json::Value), which is what an exception
# through a function-graph shadow stack has to survive.
#
# -pg goes to compiles only: CMake passes CMAKE_CXX_FLAGS to the link too
# (and a link with -pg pulls in gprof's start-up code), so the flag is
# given with add_compile_options() in a file CMake includes right after the
# project's project() call (CMAKE_PROJECT_INCLUDE), which never reaches a
# link line.  RelWithDebInfo gives -O2 -g.
# Idempotent: nothing is rebuilt once the binary exists.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${FNTRACE_CACHE:-$top/cache}
out=$CACHE/build/jsoncpp-pg
bin=$out/bin/jsoncpp_test

die() { echo "build-jsoncpp.sh: $*" >&2; exit 1; }

if [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi
command -v cmake >/dev/null || die "cmake is not installed"
command -v g++ >/dev/null || die "g++ is not installed"
src=$("$top/scripts/debsrc.sh" libjsoncpp) || die "cannot fetch libjsoncpp's sources"
# Built under a name of this process, then renamed: a parallel run never
# sees a half-built tree.
tmp=$out.tmp.$$
rm -rf "$tmp"
mkdir -p "$tmp"
echo 'add_compile_options(-pg)' >"$tmp/pg.cmake"
cmake -S "$src" -B "$tmp" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DCMAKE_CXX_COMPILER=g++ -DCMAKE_PROJECT_INCLUDE="$tmp/pg.cmake" \
	-DBUILD_SHARED_LIBS=OFF -DBUILD_STATIC_LIBS=ON -DBUILD_OBJECT_LIBS=OFF \
	-DJSONCPP_WITH_TESTS=ON -DJSONCPP_WITH_POST_BUILD_UNITTEST=OFF \
	-DJSONCPP_WITH_PKGCONFIG_SUPPORT=OFF -DJSONCPP_WITH_CMAKE_PACKAGE=OFF \
	>"$tmp/cmake.log" 2>&1 || die "cmake failed (see $tmp/cmake.log)"
make -C "$tmp" -s -j"$(nproc)" jsoncpp_test >"$tmp/make.log" 2>&1 ||
	die "make failed (see $tmp/make.log)"
[ -x "$tmp/bin/jsoncpp_test" ] || die "no bin/jsoncpp_test after make"
# Make's file of link commands names its flags: none may be -pg.
if grep -rqs -- '-pg' "$tmp"/src/test_lib_json/CMakeFiles/jsoncpp_test.dir/link.txt; then
	die "-pg reached the link line"
fi
rm -rf "$out"
mv -T "$tmp" "$out" 2>/dev/null || { rm -rf "$tmp"; [ -x "$bin" ] || die "cannot rename $tmp"; }
echo "$bin"
