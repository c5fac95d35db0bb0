#!/bin/sh
# Let the kernel run programs of the other architectures fntrace traces
# (aarch64, riscv64, mips) through qemu-user-static: mount binfmt_misc if
# it is not, and register what Debian's package describes in
# /usr/lib/binfmt.d/ (no systemd needed).  Needs root; says what it could
# not do and goes on: tests of those architectures then say why they fail.
set -u

dir=/proc/sys/fs/binfmt_misc
[ -e "$dir/register" ] || mount -t binfmt_misc binfmt_misc "$dir" 2>/dev/null || {
    echo "binfmt.sh: cannot mount binfmt_misc: programs of other architectures will not run" >&2
    exit 0
}
for arch in aarch64 riscv64 mips; do
    conf=/usr/lib/binfmt.d/qemu-$arch.conf
    [ -e "$dir/qemu-$arch" ] && continue
    if [ ! -r "$conf" ] || ! cat "$conf" >"$dir/register" 2>/dev/null; then
        echo "binfmt.sh: cannot register qemu-$arch with binfmt_misc" >&2
    fi
done
exit 0
