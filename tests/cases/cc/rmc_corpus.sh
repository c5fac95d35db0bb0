# fntrace-recordmcount on malformed objects (tests/elf-corpus/mkcorpus.c
# makes them from two good ones): for each, with and without --nop and with
# --list, one line of error, a non-zero status that is not a signal, and
# the file byte-identical afterwards.  Then the cases that are not errors.

RMC=$BUILD/fntrace-recordmcount

gcc -O2 -Wall -o mkcorpus "$top/tests/elf-corpus/mkcorpus.c" || t_fail "corpus: generator builds"
gcc -O2 -pg -ffunction-sections -c -o good64.o "$top/tests/progs/rmc_lib.c"
i686-linux-gnu-gcc -O2 -pg -fPIC -c -o good32.o "$top/tests/progs/rmc_lib.c"
mkdir -p corpus
./mkcorpus good64.o good32.o corpus || t_fail "corpus: generated"
printf '' >corpus/empty.o
printf 'not an object at all\n' >corpus/text.o

mkdir -p valid && mv corpus/ok-*.o valid/
n=0
for f in corpus/*.o; do
	name=$(basename "$f" .o)
	n=$((n + 1))
	for opt in "" --nop --list; do
		# Listing needs no base symbol: that object is only unwritable.
		[ "$name" = weak-only-section ] && [ "$opt" = --list ] && continue
		cp "$f" work.o
		"$RMC" $opt work.o >out.txt 2>err.txt
		rc=$?
		if [ $rc -eq 0 ] || [ $rc -ge 128 ]; then
			t_fail "corpus $name $opt: fails cleanly" "status $rc"
		elif [ "$(wc -l <err.txt)" != 1 ] || [ -s out.txt ]; then
			t_fail "corpus $name $opt: one line of error" "$(head -c 300 err.txt out.txt)"
		elif ! cmp -s "$f" work.o; then
			t_fail "corpus $name $opt: file unchanged"
		else
			t_pass "corpus $name $opt: $(cut -d: -f3- err.txt)"
		fi
	done
done
t_ok "corpus: at least 40 malformed files" test "$n" -ge 40

# Sections without a section symbol: entries are based on the first local
# function, or failing that a global one, with the offset adjusted.
cp valid/ok-fallback-bases.o fallback.o
"$RMC" fallback.o 2>err.txt
t_eq "fallback bases: recorded" 0 "$?"
readelf -rW fallback.o | awk '/R_X86_64_64/ { print $5, $6, $7 }' >bases.txt
t_ok "fallback bases: a local function" grep -q '^lib_twice + ' bases.txt
t_ok "fallback bases: a global function" grep -q '^lib_sum + ' bases.txt
t_ok "fallback bases: others on their section" grep -q '^\.text\.lib_hook + ' bases.txt

# Not errors: an object without mcount calls, one already processed.
gcc -O2 -c -o plain.o "$top/tests/progs/rmc_lib.c" && cp plain.o plain.orig
"$RMC" plain.o 2>err.txt
t_eq "no -pg: success" 0 "$?"
t_ok "no -pg: unchanged" cmp plain.o plain.orig
t_eq "no -pg: silent" "" "$(cat err.txt)"
cp good64.o twice.o && "$RMC" twice.o && cp twice.o twice.once
"$RMC" --nop twice.o 2>err.txt
t_eq "twice: success" 0 "$?"
t_ok "twice: unchanged" cmp twice.o twice.once
t_ok "twice: says so" grep -q 'already has __mcount_loc' err.txt
t_eq "twice: one line" 1 "$(wc -l <err.txt)"
"$RMC" missing.o 2>err.txt
t_eq "missing file: fails" 1 "$?"
t_ok "missing file: said" grep -q 'missing.o: No such file' err.txt
t_ok "--help" sh -c "'$RMC' --help | grep -q usage"
t_ok "fntrace recordmcount --help" sh -c "'$FNTRACE' recordmcount --help | grep -q usage"
"$RMC" 2>/dev/null
t_eq "no file: usage error" 2 "$?"

# Section groups: two objects with the same COMDAT function; each table
# joins its group, so the linker keeps exactly the table of the copy it
# keeps (and the entry points at that copy's call).
gcc -c -o grp1.o "$top/tests/progs/rmc_comdat.s" && cp grp1.o grp2.o
"$RMC" grp1.o grp2.o
t_eq "comdat: recorded" 0 "$?"
t_eq "comdat: group holds the table" 4 \
	"$(readelf -gW grp1.o | grep -c -E '\[ *[0-9]+\] +(\.text\.grp|\.rela\.text\.grp|__mcount_loc|\.rela__mcount_loc)$')"
printf 'int grp(int); int main(void) { return grp(0); }\n' >grpmain.c
gcc -c -o grpmain.o grpmain.c && gcc -o grp grpmain.o grp1.o grp2.o
t_ok "comdat: links and runs" ./grp
t_eq "comdat: one entry" 8 "$(readelf -SW grp | awk '$2 == "__mcount_loc" { print $6 + 0 }')"
loc=$(readelf -SW grp | awk '$2 == "__mcount_loc" { print $4 }')
at=$(readelf -rW grp | awk -v loc="$loc" '/R_X86_64_RELATIVE/ && $1 == loc { print $4 }' |
	while read -r a; do objdump -d --start-address=0x"$a" --stop-address=$((0x$a + 6)) grp |
		grep -c 'call'; done | sort -u)
t_eq "comdat: the entry is the kept call" 1 "$at"
