# A real program from Debian's sources built for
# $T_ARCH with fntrace cc (zlib's own configure and Makefile): minigzip's
# output traced is what it is untraced, and every function's hit count is
# that of the x86_64 build on the same input.  Run by cross.sh, with
# T_ARCH set.  Both builds without inlining: gcc inlines differently per
# architecture (deflateReset into deflateInit2_ on x86_64, deflateResetKeep
# into deflateReset on i386 and mips), and a call inlined is no call.

flags="-O2 -g -fno-inline"
host_zlib=$("$top/scripts/build-zlib.sh" "$FNTRACE" - "$flags" 2>host-build.log) ||
	{ t_fail "real_zlib: build zlib for x86_64" "$(tail -n 2 host-build.log)"; return 0; }
zlib=$("$top/scripts/build-zlib.sh" "$FNTRACE" "$ARCH_TRIPLE" "$flags" 2>build.log) ||
	{ t_fail "real_zlib: build zlib with fntrace cc" "$(tail -n 2 build.log)"; return 0; }

awk 'BEGIN { srand(3); for (i = 0; i < 20000; i++)
	printf "%d zlib line %d %x\n", i, int(rand() * 1000), i * 2654435761 % 65536 }' >input

# function,hits of a recording's profile, sorted.
hits() {
	"$FNTRACE" report -i "$1" --csv | tail -n +2 | cut -d, -f1,2 | sort
}

# zlib's crc32.c picks its word function by byte order: crc_word on a
# little-endian machine, crc_word_big and byte_swap on a big-endian one.
# A big-endian target's profile gets x86_64's names for them.
as_little_endian() {
	if [ "$(od -An -tx1 -j5 -N1 "$zlib/minigzip" | tr -d ' ')" = 02 ]; then
		sed '/^byte_swap,/d; s/^crc_word_big,/crc_word,/' | sort
	else
		cat
	fi
}

"$zlib/minigzip" -c <input >want.gz
"$FNTRACE" record -o z.data -- "$zlib/minigzip" -c <input >got.gz 2>rec.err
t_eq "real_zlib: minigzip exit status" 0 "$?"
t_ok "real_zlib: output as untraced" cmp -s want.gz got.gz
"$FNTRACE" record -o h.data -- "$host_zlib/minigzip" -c <input >host.gz 2>host-rec.err
hits h.data >want.hits
hits z.data | as_little_endian >got.hits
t_ok "real_zlib: some functions hit" test "$(wc -l <got.hits)" -gt 10
t_same "real_zlib: hit counts as on x86_64" want.hits got.hits

"$zlib/minigzip" -d -c <want.gz >want.txt
"$FNTRACE" record -o u.data -- "$zlib/minigzip" -d -c <want.gz >got.txt 2>rec.err
t_eq "real_zlib: minigzip -d exit status" 0 "$?"
t_ok "real_zlib: -d output as untraced" cmp -s want.txt got.txt
"$FNTRACE" record -o hu.data -- "$host_zlib/minigzip" -d -c <want.gz >/dev/null 2>host-rec.err
hits hu.data >want.hits
hits u.data | as_little_endian >got.hits
t_same "real_zlib: -d hit counts as on x86_64" want.hits got.hits
