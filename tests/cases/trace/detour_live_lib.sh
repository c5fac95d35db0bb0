# A library built without call sites, traced by name live (issue 33):
# fntrace ctl plans the module that defines a function set_ftrace_filter
# names, in the process's cache, and the runtime takes the plan on that
# write (src/target/detours_prep.c, src/core/modules.c).  Debian's libz as
# installed under a program built with call sites, started by fntrace run
# and attached to by fntrace attach: crc32's calls counted, libz's text
# the file's again once off; a function too short for the jump refused in
# one line, nothing changed; run --trigger naming crc32, which plans libz
# before the program starts; record -p -F crc32, which plans it as ctl.  x86_64 (qemu-user has no /proc/PID/mem of
# the guest's, nor ptrace for attach).

export FNTRACE_CACHE=$PWD/cache
libz=$(readlink -f /lib/x86_64-linux-gnu/libz.so.1)

t_build plain -O2 libshort.so "$top/tests/progs/detour_live_lib.c"
FNTRACE_CC="$(t_cc gcc)" "$FNTRACE" cc -O2 -g -o zlive "$top/tests/progs/detour_live.c" \
	-lz -L. -lshort -Wl,-rpath,"$PWD"
t_ok "built with call sites" readelf -S zlive | grep -q __mcount_loc

# libz's code as mapped in PID ($2 = mem), or as the file has it there
# ($2 = file): its executable mappings' pages, from the first's start to
# the last's end (a page written and protected again may stay a mapping
# of its own).
ztext() {
	set -- "$1" "$2" $(awk -v l="$libz" '$6 == l && $2 ~ /x/ {
		split($1, a, "-"); if (!lo) { lo = a[1]; off = $3 } hi = a[2] }
		END { print lo, hi, off }' /proc/$1/maps)
	if [ "$2" = mem ]; then
		dd if=/proc/$1/mem bs=4096 skip=$((0x$3 / 4096)) count=$(((0x$4 - 0x$3) / 4096))
	else
		dd if="$libz" bs=4096 skip=$((0x$5 / 4096)) count=$(((0x$4 - 0x$3) / 4096))
	fi 2>/dev/null
}
# crc32's first byte in PID, as hex.
crc_byte() {
	set -- $(awk -v l="$libz" '$6 == l && $2 ~ /x/ { split($1, a, "-"); print a[1], $3; exit }' \
		/proc/$1/maps)
	dd if=/proc/$pid/mem bs=1 skip=$((0x$1 - 0x$2 + 0x$(nm -D "$libz" |
		awk '$3 == "crc32" { print $1 }'))) count=1 2>/dev/null | od -An -tx1 | tr -d ' '
}

# live TAG: the process $pid, its commands on fd 3 and answers on fd 4:
# crc32 switched on by name, called 25 times, counted, switched off.
live() {
	ztext $pid mem >"$1.off0"
	ztext $pid file >"$1.file"
	t_ok "$1: libz's text in memory is the file's" cmp -s "$1.off0" "$1.file"
	t_ok "$1: ... all of it" test "$(wc -c <"$1.file")" -gt 50000
	"$FNTRACE" ctl $pid set_ftrace_filter crc32 2>"$1.err"
	t_eq "$1: set_ftrace_filter crc32" 0 "$?"
	t_ok "$1: ... planned libz in the process's cache" \
		test -s "cache/$(readelf -n "$libz" | awk '/Build ID/ { print $3 }').detours"
	"$FNTRACE" ctl $pid current_tracer function
	t_eq "$1: crc32's entry jumps" e9 "$(crc_byte $pid)"
	echo 25 >&3
	read -r line <&4
	t_eq "$1: the program called" "done 25" "$line"
	"$FNTRACE" ctl $pid trace >"$1.trace"
	t_eq "$1: crc32's 25 calls traced, each once" 25 "$(grep -c ' crc32 <-main' "$1.trace")"
	"$FNTRACE" ctl $pid set_ftrace_filter 'crc32 too_short' 2>"$1.ref"
	t_eq "$1: a function too short for the jump: refused" 1 "$?"
	t_eq "$1: ... in one line" "1 1" "$(wc -l <"$1.ref") $(grep -c \
		"^fntrace: set_ftrace_filter 'too_short': not traced: .*too short for the jump" "$1.ref")"
	t_eq "$1: ... nothing changed" "crc32 [libz.so.1]" \
		"$("$FNTRACE" ctl $pid set_ftrace_filter)"
	"$FNTRACE" ctl $pid current_tracer nop
	ztext $pid mem >"$1.off1"
	t_ok "$1: libz's text the file's again once off" cmp -s "$1.off1" "$1.file"
}

rm -f cmd ans
mkfifo cmd ans
"$FNTRACE" run -- ./zlive <cmd >ans 2>run.err &
pid=$!
exec 3>cmd 4<ans
read -r ready <&4
t_eq "run: the program calls" ready "$ready"
live run
exec 3>&-
read -r done <&4
exec 4<&-
wait $pid
t_eq "run: exit status" 0 "$?"
t_eq "run: every checksum right" ok "$done"

# A process that never loaded fntrace, and a cache with no plan of libz.
rm -rf cache
./zlive <cmd >ans &
pid=$!
exec 3>cmd 4<ans
read -r ready <&4
"$FNTRACE" attach $pid 2>attach.err
t_eq "attach: attached" 0 "$?"
live attach
"$FNTRACE" detach $pid 2>/dev/null
t_eq "attach: detached" 0 "$?"
exec 3>&-
read -r done <&4
exec 4<&-
wait $pid
t_eq "attach: exit status" 0 "$?"
t_eq "attach: every checksum right" ok "$done"

# fntrace run --trigger naming crc32: run plans libz (DT_NEEDED) before
# the program starts, and the trigger switches its detour on from there.
rm -rf cache
"$FNTRACE" run --trigger=crc32:stacktrace:2 -- ./zlive <cmd >ans 2>trig.err &
pid=$!
exec 3>cmd 4<ans
read -r ready <&4
t_eq "run --trigger: crc32's entry jumps from the start" e9 "$(crc_byte $pid)"
"$FNTRACE" ctl $pid current_tracer function
echo 3 >&3
read -r line <&4
"$FNTRACE" ctl $pid trace >trig.trace
t_eq "run --trigger: two stacks, from crc32" 2 "$(grep -c '^ => crc32$' trig.trace)"
exec 3>&-
read -r done <&4
exec 4<&-
wait $pid
t_eq "run --trigger: every checksum right" ok "$done"

# record -p -F crc32 of a process run started: record plans libz as ctl
# does before it writes the filter.
rm -rf cache
"$FNTRACE" run -- ./zlive <cmd >ans 2>recp.err &
pid=$!
exec 3>cmd 4<ans
read -r ready <&4
"$FNTRACE" record -p $pid -F crc32 -d 1.5 -o p.data 2>recp_rec.err &
rec=$!
for i in $(seq 50); do
	[ "$(crc_byte $pid)" = e9 ] && break
	sleep 0.05
done
t_eq "record -p -F crc32: crc32's entry jumps" e9 "$(crc_byte $pid)"
echo 9 >&3
read -r line <&4
wait $rec
t_eq "record -p: exit status" 0 "$?"
"$FNTRACE" report -i p.data --csv >p.csv
t_eq "record -p: crc32's 9 calls" 9 "$(awk -F, '$1 == "crc32" { print $2 }' p.csv)"
exec 3>&-
read -r done <&4
exec 4<&-
wait $pid
t_eq "record -p: every checksum right" ok "$done"
