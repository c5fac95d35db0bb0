#!/bin/sh
# Install the Debian packages a target needs, and only those that are missing.
# Usage: scripts/deps.sh build|check|bench|demo
# Runs apt-get update at most once per call, and only if something is missing.
set -eu

need_build="gcc make libc6-dev"
need_check="$need_build clang strace g++ cmake valgrind gdb"
need_bench="$need_check uftrace hyperfine"
need_real="dpkg-dev xz-utils"
# recordmcount's tests: a compiler, binutils and a C library per arch; qemu
need_cross="gcc-i686-linux-gnu gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu \
    gcc-mips-linux-gnu gcc-mipsel-linux-gnu libc6-dev-i386-cross libc6-dev-arm64-cross \
    libc6-dev-riscv64-cross libc6-dev-mips-cross libc6-dev-mipsel-cross qemu-user"

case "${1:-build}" in
    build|demo) want="$need_build" ;;
    check)      want="$need_check $need_real $need_cross uftrace" ;;
    bench)      want="$need_bench $need_real" ;;
    *) echo "deps.sh: unknown target '$1' (build, demo, check, bench)" >&2; exit 2 ;;
esac

missing=""
for p in $want; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
    echo "deps.sh: missing Debian packages:$missing (run as root, or install them)" >&2
    exit 1
fi
echo "deps.sh: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
