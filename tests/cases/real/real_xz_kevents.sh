# Acceptance of record -e on a real multi-threaded program from Debian's
# sources: xz -T2 (scripts/build-xz.sh) compressing a fixed input from
# stdin to stdout in blocks of 1 MiB, two worker threads taking them,
# recorded with -e sched -e syscalls and its I/O functions and its
# workers' start traced.  Its output is byte-identical to an untraced
# run's; its reads of fd 0 and writes of fd 1 are each one strace -f sees
# for the same command, inside the xz function that made it; every thread
# it made has its own events; info's counts add up and none are lost.
# Required: when xz cannot be built it fails, it never skips.

. "$top/tests/kev_lib.sh"
if ! kev_tracefs; then
	t_skip "kernel events" "no tracefs, and not root to mount it"
	return 0
fi
trap kev_untracefs EXIT

xz=$("$top/scripts/build-xz.sh" 2>xz-build.log) ||
	{ t_fail "real_xz_kevents: build xz from Debian sources" "$(tail -n 2 xz-build.log)"; return 0; }
awk 'BEGIN { srand(7); for (i = 0; i < 100000; i++)
	printf "%d line %d of the fntrace xz test %x\n", i, int(rand() * 1000), i * 2654435761 % 65536 }' >input
set -- -T2 -3 --block-size=1MiB -c
"$xz" "$@" <input >want.xz

"$FNTRACE" record -e sched -e syscalls -F 'io_*' -F worker_start -o x.data -- "$xz" "$@" \
	<input >got.xz 2>x.err
t_eq "real_xz_kevents: exit status" 0 "$?"
t_ok "real_xz_kevents: output identical to the untraced run's" cmp -s want.xz got.xz
pid=$(ls x.data/funcs-* | sed 's/.*-//')
"$FNTRACE" info -i x.data >info.txt
"$FNTRACE" report -i x.data -O nocpu >all.txt

# ---- what the kernel counted, all of it ----
t_ok "real_xz_kevents: no kernel event lost" grep -qE '^kernel lost +0 events$' info.txt
t_ok "real_xz_kevents: no call lost" grep -qE '^lost +0 events$' info.txt
read -r entered returned switches <<-EOF
$(sed -n 's/^kernel events *\([0-9]*\) system calls (\([0-9]*\) returned), \([0-9]*\) context.*/\1 \2 \3/p' info.txt)
EOF
# A system call is a line, whole or opening a brace, with its arguments
# (a function's entry has none).
t_eq "real_xz_kevents: the report shows every system call info counts" "$entered" \
	"$(grep -cE '^[^|]*\|[^|]*\| +[a-z_0-9]+\([^)]' all.txt)"
t_eq "real_xz_kevents: and every context switch, with its return" "$switches" \
	"$(grep -cE '=> .* [0-9.]+ [um]?s off CPU' all.txt)"
# The banners' times are rounded to 10 ns at most, info's to 1 us.
info_off=$(sed -n 's/^off CPU *\([0-9.]*\) s, all threads$/\1/p' info.txt)
banners_off=$(awk 'match($0, /[0-9.]+ [um]?s off CPU/) {
	split(substr($0, RSTART, RLENGTH), a, " ")
	t += a[1] * (a[2] == "s" ? 1 : a[2] == "ms" ? 1e-3 : 1e-6) }
	END { printf "%.9f", t }' all.txt)
t_ok "real_xz_kevents: the times off the CPU add up to info's ($banners_off s, $info_off s)" \
	awk -v a="$banners_off" -v b="$info_off" -v n="$switches" 'BEGIN {
		d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= n * 1e-8 + 1e-6) }'
# Each clone3 main made returned a worker's tid: one line, or the brace
# closing it when something of main's came between.
workers=$(sed -n -e "s/^ *xz-$pid *|.* clone3(.*) = \([0-9]*\)\$/\1/p" \
	-e "s|^ *xz-$pid *\|.*} /\* clone3 = \([0-9]*\) \*/\$|\1|p" all.txt | xargs)
# How many workers xz makes depends on the timing (a block finds the
# first one still busy or not): one or two, the ones the function trace
# saw start.
nr_workers=$(echo "$workers" | wc -w)
t_ok "real_xz_kevents: -T2: one or two worker threads made ($nr_workers)" \
	test "$nr_workers" -ge 1 -a "$nr_workers" -le 2
t_eq "real_xz_kevents: the threads made are those that ran worker_start()" \
	"$(echo "$workers" | tr ' ' '\n' | sort | xargs)" \
	"$(awk -v p="$pid" '$1 == p && $2 != p && $5 == 1 { print $2 }' info.txt | sort | xargs)"
# Entries without their return: exit_group; returns without their entry:
# the program's execve and each worker's clone3 (the entries came before,
# in the recorder and in main).
t_eq "real_xz_kevents: returns and entries add up: + execve + clone3 in each worker - exit_group" \
	$((entered + 1 + nr_workers - 1)) "$returned"

# ---- every thread xz made, its own events ----
for w in $workers; do
	"$FNTRACE" report -i x.data -O nocpu --tid "$w" >w.txt
	t_eq "real_xz_kevents: worker $w: begins at its clone3's return" "} /* clone3 = 0 */" \
		"$(grep -m1 -oE '\} /\* [a-z_0-9]+ = -?[0-9]+ \*/' w.txt)"
	t_ok "real_xz_kevents: worker $w: system calls inside worker_start()" awk '
		/worker_start\(\) \{/ { inside = 1 } inside && / (mmap|futex)\(/ { found = 1 }
		END { exit !found }' w.txt
	t_eq "real_xz_kevents: worker $w: only its own" "xz-$w" \
		"$(grep -E '^[^|]*\|' w.txt | grep -v '^#' | awk '{ print $1 }' | sort -u | xargs)"
done

# ---- its I/O, as strace -f sees it, inside xz's own functions ----
# inside FUNC PATTERN: the lines of system calls matching PATTERN inside
# FUNC's calls, then outside them.
inside() {
	awk -v f="$1" -v p="$2" '
	$0 ~ p { if (inside) n++; else out++ }
	index($0, f "() {") { inside = 1 } index($0, "} /* " f " */") { inside = 0 }
	END { print n + 0, out + 0 }' all.txt
}
if command -v strace >/dev/null; then
	strace -f -e trace=read,write -o strace.txt "$xz" "$@" <input >/dev/null
	reads=$(grep -cE '^[0-9]+ +read\(0,' strace.txt)
	writes=$(grep -cE '^[0-9]+ +write\(1,' strace.txt)
	t_ok "real_xz_kevents: strace saw it work ($reads reads, $writes writes)" \
		test "$reads" -gt 100 -a "$writes" -gt 10
	t_eq "real_xz_kevents: each read of stdin, inside io_read()" "$reads 0" \
		"$(inside io_read '\| +read\(0, ')"
	t_eq "real_xz_kevents: each write of stdout, inside io_write()" "$writes 0" \
		"$(inside io_write '\| +write\(1, ')"
else
	t_fail "strace" "not installed (scripts/deps.sh)"
fi

# ---- Perfetto: every thread's state track by trace_processor's rules,
# each of its spans off the CPU one of the off-CPU slices, as many as
# the switches info counts (less those the recording never saw return) ----
"$FNTRACE" export -i x.data -f perfetto -o x.pftrace
protoc -I"$top/tests/data" --decode=perfetto_min.Trace perfetto_min.proto <x.pftrace |
	python3 "$top/tests/data/perfetto_check.py" >x.facts
t_eq "real_xz_kevents: perfetto: TrackEvent's and the state track's rules hold" 0 "$?"
grep ERROR x.facts | head -n 3
t_eq "real_xz_kevents: perfetto: every span off the CPU is an off-CPU slice" \
	"$(awk '$1 == "offslice" { print $2, $3, $4 }' x.facts | sort)" \
	"$(awk '$1 == "off" { print $2, $3, $4 }' x.facts | sort)"
t_eq "real_xz_kevents: perfetto: a span for each switch the report shows back" "$switches" \
	"$(grep -c '^off ' x.facts)"
t_eq "real_xz_kevents: perfetto: a state track for xz and each worker" \
	"$(echo "$pid $workers" | tr ' ' '\n' | sort | xargs)" \
	"$(awk '$1 == "states" { print $2 }' x.facts | sort | xargs)"
