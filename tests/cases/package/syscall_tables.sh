# The system-call tables a build makes for each architecture's recordings
# (Makefile, scripts/syscall-table.sh) follow the compilers installed.
# On a fresh machine `make demo` builds before `make check` installs the
# cross compilers: the aarch64 table it made empty is made again, filled,
# by the next build.  A build that changes nothing rewrites no table (nor
# relinks what includes it).

b=$PWD/b
table=$b/gen/syscall_table_aarch64.h

# make_table [PATH]: the aarch64 table of $b made, with that search path.
make_table() {
	PATH=${1:-$PATH} make -s -C "$top" BUILD="$b" "$table" >make.out 2>&1
}

if ! command -v aarch64-linux-gnu-gcc >/dev/null; then
	t_skip "syscall tables" "no aarch64-linux-gnu-gcc (make check installs it)"
else
	mkdir fake
	printf '#!/bin/sh\nexit 127\n' >fake/aarch64-linux-gnu-gcc
	chmod +x fake/aarch64-linux-gnu-gcc

	t_ok "made without the cross compiler" make_table "$PWD/fake:$PATH"
	t_eq "without it: an empty table" 0 "$(grep -c '^SYSCALL' "$table")"

	t_ok "made again with it" make_table
	t_eq "with it: aarch64's read is 63" 1 "$(grep -c '^SYSCALL(63, read)$' "$table")"

	touch -d '2001-01-01' "$table"
	t_ok "made a third time" make_table
	t_eq "unchanged: not rewritten" 2001 "$(date -r "$table" +%Y)"
	t_eq "and no file left beside it" "" "$(ls "$b/gen" | grep -v '\.h$')"
fi
