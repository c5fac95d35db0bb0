# Helpers of the kernel events' cases (record -e), sourced by them.

# kev_tracefs: tracefs mounted where fntrace looks, mounted here if it
# is not (as root, as a setup would).  The cases run two at once, and
# two runs may overlap (make check beside a case run by hand): a case's
# unmount must not pull it from under another's record.  Every case of
# every run of this user shares the mount ($KEV_SHARED.users counts them,
# under a lock), and the last one out unmounts it.  A mount that was
# there before is the machine's, never unmounted.
KEV_USING=
KEV_SHARED=/tmp/fntrace-tests-tracefs-$(id -u)
kev_tracefs() {
	local rc=0
	kev_users_lock
	if ! kev_mounted; then
		if [ "$(id -u)" = 0 ] && mount -t tracefs nodev /sys/kernel/tracing; then
			echo 0 >"$KEV_SHARED.users"
		else
			rc=1
		fi
	fi
	if [ $rc = 0 ] && [ -s "$KEV_SHARED.users" ] && [ -z "$KEV_USING" ]; then
		echo $(($(cat "$KEV_SHARED.users") + 1)) >"$KEV_SHARED.users"
		KEV_USING=1
	fi
	kev_users_unlock
	return $rc
}

kev_mounted() {
	local d
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ "$(stat -f -c %T "$d" 2>/dev/null)" = tracefs ] && return 0
	done
	return 1
}

# The count of the cases using the run's mount, one case at a time:
# closing the descriptor lets the lock go.
kev_users_lock() {
	exec 8>>"$KEV_SHARED.lock"
	flock 8
}

kev_users_unlock() {
	exec 8>&-
}

# kev_untracefs: this case is done with tracefs (at its exit).
kev_untracefs() {
	local n
	[ -n "$KEV_USING" ] || return 0
	kev_users_lock
	n=$(($(cat "$KEV_SHARED.users") - 1))
	if [ "$n" -gt 0 ]; then
		echo "$n" >"$KEV_SHARED.users"
	else
		umount /sys/kernel/tracing
		rm -f "$KEV_SHARED.users"
	fi
	KEV_USING=
	kev_users_unlock
}

# kev_graph DIR: the function_graph report without its CPU and task
# columns, the duration kept.
kev_graph() {
	"$FNTRACE" report -i "$1" -O nocpu -O noproc
}

# kev_calls GRAPH NAME: how many entries of system call NAME a report
# holds (a line each, whole or opening a brace).
kev_calls() {
	grep -cE "^[^|]*\|  *$2\(" "$1"
}

# kev_within NAME WANT_NS GOT_US: GOT (microseconds, a report's) is WANT
# (nanoseconds, the program's own clock) within 1% or 50 us.
kev_within() {
	t_ok "$1 (program ${2} ns, recording ${3} us${4:+, $4 us preempted around it})" \
		awk -v w="$2" -v g="$3" -v p="${4:-0}" 'BEGIN {
		d = g * 1000 - w
		if (d < 0) d = d + p * 1000 < 0 ? d + p * 1000 : 0
		if (d < 0) d = -d
		exit !(w > 0 && (d <= 50000 || d <= w / 100)) }'
}

# kev_in_call GRAPH FUNC SYSCALL: for each call of FUNC (one thread's
# report), the longest of the system calls SYSCALL made inside it, a
# line each: "DURATION OFF_CPU PREEMPTED", microseconds: the second the
# context switches inside that system call, the third the time FUNC was
# preempted (R, R+) outside any SYSCALL, which a clock the program reads
# around the system call may hold.
kev_in_call() {
	awk -v f="$2" -v s=" $3(" '
	function dur(line) {
		return match(line, /[0-9]+\.[0-9]+ us/) ? substr(line, RSTART, RLENGTH - 3) + 0 : 0 }
	function off_cpu(line) {
		match(line, /[0-9]+\.[0-9]+ us off CPU/); return substr(line, RSTART, RLENGTH - 11) }
	function keep(d, o) { if (d > best) { best = d; best_off = o } }
	index($0, f "() {") { inside = 1; best = -1; pre = 0 }
	inside && index($0, "} /* " f " */") { inside = 0; print best, best_off, pre }
	!inside { next }
	index($0, s) && / = / { keep(dur($0), 0) }
	index($0, s) && /\{$/ { open = 1; off = 0 }
	open && /off CPU/ { off += off_cpu($0) }
	!open && /=> .* R\+? \(.* off CPU/ { pre += off_cpu($0) }
	open && index($0, "} /* " substr(s, 2, length(s) - 2) " = ") { keep(dur($0), off); open = 0 }
	' "$1"
}
