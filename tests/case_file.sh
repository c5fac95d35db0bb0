# Where a case is, for tests/run.sh and tests/lib.sh (a case may run
# another: cross.sh runs the others by name).

# t_case_file NAME: the file of the case NAME, whichever area's folder of
# tests/cases/ holds it (nothing if none does).
t_case_file() {
	local f
	for f in "$top"/tests/cases/"$1".sh "$top"/tests/cases/*/"$1".sh; do
		[ -f "$f" ] && { echo "$f"; return; }
	done
}
