#!/bin/sh
# Install the Debian packages a target needs, and only those that are missing.
# Usage: scripts/deps.sh build|check|sanitize|bench|demo|man|deb
# Runs apt-get update at most once per call, and only if something is missing.
set -eu

# libcapstone-dev: the detour planner's disassembler (x86 and ARM64 in one
# library, with operand details; docs/design.md, *Detours*).
need_build="gcc make libc6-dev libdw-dev libcapstone-dev"
# protobuf-compiler: protoc decodes the Perfetto export, a python3 script
# checks what it decoded (tests/cases/export/export_perfetto.sh).
# zlib1g-dev: a program calling Debian's libz, traced by detours
# (tests/cases/trace/detour_trace.sh).
need_check="$need_build clang strace g++ cmake valgrind gdb libxml2-utils python3 protobuf-compiler \
    zlib1g-dev"
# llvm-14 and libclang-rt-14-dev: LLVM XRay (llvm-xray-14, its runtime),
# which the benchmarks set beside fntrace.
need_bench="$need_check uftrace hyperfine time llvm-14 libclang-rt-14-dev"
need_real="dpkg-dev xz-utils libbz2-dev"
# pandoc writes the manual pages (docs/man/*.md) as roff; groff renders
# them, and tests/cases/docs/man_pages.sh reads its warnings.
need_man="pandoc groff-base"
# The other architectures: a compiler, binutils and a C library per arch
# (recordmcount's tests, the runtimes and their test programs), and qemu:
# qemu-user-static is what binfmt_misc starts (scripts/binfmt.sh), a static
# program, so that LD_PRELOAD reaches the guest's loader, not qemu's.  i386
# programs use the host's 32-bit libraries (/lib32), natively or not.
need_cross="gcc-i686-linux-gnu gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu \
    gcc-mips-linux-gnu gcc-mipsel-linux-gnu g++-i686-linux-gnu g++-aarch64-linux-gnu \
    g++-riscv64-linux-gnu g++-mips-linux-gnu libc6-dev-i386-cross libc6-dev-arm64-cross \
    libc6-dev-riscv64-cross libc6-dev-mips-cross libc6-dev-mipsel-cross qemu-user \
    qemu-user-static libc6-i386 lib32gcc-s1 lib32stdc++6"
# make deb: Debian's packaging tools, and what debian/control's
# Build-Depends name (the build's, the manual pages', and the runtimes'
# cross compilers and C libraries); tests/cases/package/package.sh too.
need_deb="$need_build libelf-dev pandoc dpkg-dev debhelper lintian \
    gcc-i686-linux-gnu libc6-dev-i386-cross gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
    gcc-riscv64-linux-gnu libc6-dev-riscv64-cross gcc-mips-linux-gnu libc6-dev-mips-cross"
# The browser tests (tests/cases/export/browser.sh): Debian's Chromium, driven by
# puppeteer-core from npm (scripts/npm-deps.sh).  A node and npm from
# elsewhere (NodeSource's nodejs, which conflicts with Debian's npm) will do.
# speedscope's toolbar labels are emoji: without a font for them its
# screenshots show empty boxes.
need_browser="chromium fonts-noto-color-emoji"
command -v node >/dev/null || need_browser="$need_browser nodejs"
command -v npm >/dev/null || need_browser="$need_browser npm"
# check-sanitize: the i386 runtime is built with UBSan, and i386 programs
# load the host's 32-bit libraries: its UBSan runtime among them.
need_sanitize="lib32ubsan1"

case "${1:-build}" in
    build|demo) want="$need_build" ;;
    check)      want="$need_check $need_real $need_man $need_cross $need_browser uftrace $need_deb" ;;
    sanitize)   want="$need_check $need_real $need_man $need_cross $need_browser uftrace $need_deb $need_sanitize" ;;
    man)        want="$need_man" ;;
    deb)        want="$need_deb" ;;
    bench)      want="$need_bench $need_real" ;;
    *) echo "deps.sh: unknown target '$1' (build, demo, check, sanitize, bench, man, deb)" >&2; exit 2 ;;
esac

missing=""
for p in $want; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
binfmt() { case ${1:-build} in check|sanitize) "$(dirname "$0")/binfmt.sh" ;; esac; }
[ -z "$missing" ] && { binfmt "${1:-build}"; exit 0; }

if [ "$(id -u)" != 0 ]; then
    echo "deps.sh: missing Debian packages:$missing (run as root, or install them)" >&2
    exit 1
fi
echo "deps.sh: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
binfmt "${1:-build}"
