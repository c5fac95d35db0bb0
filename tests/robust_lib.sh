# Helpers for the robustness cases (tests/cases/robust/robust_*.sh): the test
# programs of tests/progs/robust_*.c and what their reports must show.
# Sourced by the cases, after tests/lib.sh.

# r_build SRC OUT [FLAVOUR]: build tests/progs/SRC.c (or .cpp) as ./OUT,
# at -O2, as gcc-pg unless told.  With R_RETURN_SITES set, gcc-pg and
# g++-pg become the return-site flavours (tests/cases/robust/robust_returns.sh).
r_build() {
	local src="$top/tests/progs/$1.c" flavor=${3:-gcc-pg}
	[ -f "$src" ] || src=$top/tests/progs/$1.cpp
	[ -n "${R_RETURN_SITES:-}" ] && flavor=${flavor%%-pg*}-return${flavor#*-pg}
	t_build "$flavor" -O2 "$2" "$src"
}

# r_record NAME PROG [ARGS...]: record PROG into NAME.data with the
# function_graph tracer on every function; its output goes to NAME.out and
# NAME.err, its exit status to NAME.rc, the report to NAME.txt.
r_record() {
	local name="$1"; shift
	rm -rf "$name.data"
	"$FNTRACE" record -o "$name.data" -- "$@" >"$name.out" 2>"$name.err"
	echo $? >"$name.rc"
	"$FNTRACE" report -i "$name.data" >"$name.txt" 2>"$name.report.err"
}

# r_tids REPORT: the thread ids that have lines in a function_graph report.
r_tids() {
	awk -F'|' '/^#/ || NF < 3 { next }
		{ n = split($1, w, " "); p = w[n]; sub(/.*-/, "", p); print p }' "$1" | sort -un
}

# r_graph DATA TID: the function column of one thread's report.
r_graph() {
	"$FNTRACE" report -i "$1" --tid "$2" >"$TMP/r_graph.txt" 2>/dev/null
	t_graph_calls "$TMP/r_graph.txt"
}

# r_nested: the graph lines on stdin nest: every entry is closed, and no
# close comes before its entry.
r_nested() {
	awk '
		/\(\) \{$/ { depth++ }
		/^ *\}/    { if (--depth < 0) bad = 1 }
		END        { exit bad || depth != 0 }'
}

# r_nests DATA TID: the thread's graph nests.
r_nests() {
	r_graph "$1" "$2" | r_nested
}

# r_threads REPORT DIR: each thread's function column (r_graph's lines)
# of a whole function_graph report, into DIR/TID, in one pass: a report
# per thread would start fntrace and read the whole trace once each.  A
# thread's lines in the whole report are those of report --tid, each at
# its own thread's depth.
r_threads() {
	rm -rf "$2" && mkdir -p "$2"
	awk -F'|' -v dir="$2" '/^#/ || NF < 3 { next }
		{ n = split($1, w, " "); tid = w[n]; sub(/.*-/, "", tid)
		  line = $0; sub(/^[^|]*\|[^|]*\|/, "", line); sub(/^  /, "", line)
		  print line >(dir "/" tid) }' "$1"
}

# r_all_nest REPORT: the threads of a whole function_graph report that do
# not nest (none: "").
r_all_nest() {
	local bad="" tid
	r_threads "$1" "$TMP/r_all_nest"
	for tid in $(r_tids "$1"); do
		r_nested <"$TMP/r_all_nest/$tid" || bad="$bad $tid"
	done
	echo "${bad# }"
}

# r_graph_or_marker DATA TID: the thread's graph nests, or stops at the
# marker a thread's graph tracing is suspended with (swapcontext), after
# which it has no more graph events, and nests up to there (its open
# frames then stay open).
R_SUSPENDED='/* fntrace: graph tracing suspended for this thread (swapcontext) */'
r_graph_or_marker() {
	r_graph "$1" "$2" >"$TMP/r_gm.txt"
	if grep -qF "$R_SUSPENDED" "$TMP/r_gm.txt"; then
		awk -v m="$R_SUSPENDED" '
			index($0, m) { seen = 1; next }
			seen         { after = 1 }
			!seen && /^ *\}/ { if (--depth < 0) bad = 1 }
			!seen && /\(\) \{$/ { depth++ }
			END          { exit bad || after }' "$TMP/r_gm.txt"
	else
		awk '
			/\(\) \{$/ { depth++ }
			/^ *\}/    { if (--depth < 0) bad = 1 }
			END        { exit bad || depth != 0 }' "$TMP/r_gm.txt"
	fi
}

# r_unwound_chain F...: the lines a function graph shows for frames F...
# (outermost first) entered and then skipped by a jump: each opened, then
# each closed as unwound, innermost first.  At indent 0.
r_unwound_chain() {
	local ind="" f
	for f in "$@"; do
		echo "$ind$f() {"
		ind="$ind  "
	done
	for f in $(printf '%s\n' "$@" | tac); do
		ind=${ind#  }
		echo "$ind} /* $f: unwound */"
	done
}

# r_indent N: indent stdin by N levels of the graph (two spaces each).
r_indent() {
	local pad
	pad=$(printf '%*s' $(($1 * 2)) '')
	sed "s/^/$pad/"
}
