#!/bin/sh
# Let the kernel run programs of the other architectures fntrace traces
# (aarch64, riscv64, mips) through qemu-user-static: mount binfmt_misc if
# it is not, and register what Debian's package describes in
# /usr/lib/binfmt.d/ (no systemd needed).  i386 programs run natively on an
# x86_64 kernel with IA-32 emulation; on one without it (ia32_emulation=0,
# some VMs), through qemu-i386-static, registered here as Debian does not.
# Needs root; says what it could not do and goes on: tests of those
# architectures then say why they fail.
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

# An i386 program that only exits: does this kernel run it?
runs_i386() {
    tmp=$(mktemp -d) || return 0
    echo 'void _start(void) { __asm__ volatile("movl $1, %eax; xorl %ebx, %ebx; int $0x80"); }' |
        i686-linux-gnu-gcc -nostdlib -static -o "$tmp/exit" -x c - 2>/dev/null || { rm -rf "$tmp"; return 0; }
    "$tmp/exit" 2>/dev/null
    status=$?
    rm -rf "$tmp"
    return $status
}

# The ELF header of an i386 executable or shared object (e_type 2 or 3).
i386_magic='\x7f\x45\x4c\x46\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x03\x00'
i386_mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
if [ "$(uname -m)" = x86_64 ] && [ ! -e "$dir/qemu-i386" ] && ! runs_i386; then
    echo ":qemu-i386:M::$i386_magic:$i386_mask:/usr/bin/qemu-i386-static:F" >"$dir/register" 2>/dev/null ||
        echo "binfmt.sh: cannot register qemu-i386 with binfmt_misc" >&2
fi
exit 0
