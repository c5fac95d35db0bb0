# The manual pages (docs/man/*.md, written as roff into $BUILD/man by
# make man) against the commands themselves: every command 'fntrace
# --help' lists has a page and every page a command; every option a
# command's --help lists is in its page's OPTIONS, and every option the
# page's OPTIONS documents is in --help; fntrace-ctl(1) has every control
# file 'ctl --help' names; each page has the sections of a reference page
# and renders without a warning.  And the comparison itself is shown to
# catch a page that lost an option, or has one --help lacks.

MAN=$BUILD/man

# opt_words: the options (-X, --LONG) in the text on stdin, one per line,
# sorted: "-t, --tracer=NAME" gives -t and --tracer.
opt_words() {
	grep -o -e '--\?[A-Za-z0-9][A-Za-z0-9-]*' | sort -u
}

# help_options CMD...: the options 'fntrace CMD... --help' lists: the lines
# of its table of options (indented 2 to 6 blanks, starting with '-'), each
# cut where its description begins (two blanks).  Prose lines that name
# compiler flags (cc's) start at the margin, and examples further in.
help_options() {
	"$FNTRACE" "$@" --help | grep -E '^ {2,6}-' | sed -E 's/^ +//; s/  .*//' | opt_words
}

# roff_tags PAGE SECTION: the tags of the .TP items of a section of a
# page, in plain text (fonts dropped, \- a dash).
roff_tags() {
	awk -v want="$2" '/^\.SH/ { sub(/^\.SH +/, ""); gsub(/"/, ""); in_sec = $0 == want; tp = 0; next }
		in_sec && tp { print } { tp = /^\.TP/ }' "$1" |
		sed -e 's/\\f\[[A-Z]*\]//g; s/\\f[BIRP]//g; s/\\-/-/g'
}

page_options() { roff_tags "$1" OPTIONS | opt_words; }

# only_in A B: the lines of the file A that B lacks, on one line.
only_in() { comm -23 "$1" "$2" | tr '\n' ' ' | sed 's/ $//'; }

# The commands, as fntrace --help lists them.
"$FNTRACE" --help | awk '/^commands:/ { c = 1; next } c && /^$/ { exit } c { print $1 }' >commands
t_ok "fntrace --help lists commands" grep -qx record commands

# compare NAME PAGE CMD...: PAGE's options against CMD's --help.
compare() {
	local name=$1 page=$2; shift 2
	help_options "$@" >help.opts
	page_options "$page" >page.opts
	t_ok "$name: --help lists options (--help among them)" grep -qx -e --help help.opts
	t_eq "$name(1): every option of --help documented" "" "$(only_in help.opts page.opts)"
	t_eq "$name(1): no option --help lacks" "" "$(only_in page.opts help.opts)"
}

# sections PAGE NAME: the sections every reference page has.
sections() {
	local s missing=
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
		grep -qx "\.SH \"\?$s\"\?" "$1" || missing="$missing [$s]"
	done
	t_eq "$2(1): sections" "" "$missing"
}

# renders PAGE NAME: groff and man say nothing about the page, and its
# NAME line is what whatis will read.
renders() {
	groff -ww -man -t -z -Tutf8 "$1" >groff.out 2>&1
	t_eq "$2(1): groff renders it without warnings" "" "$(head -n 3 groff.out)"
	if command -v man >/dev/null; then
		LANG=C.UTF-8 MANWIDTH=80 man --warnings -l "$1" 2>man.err >man.out
		t_eq "$2(1): man renders it without warnings" "" "$(head -n 3 man.err)"
		t_ok "$2(1): man renders it" grep -q "^NAME" man.out
	fi
	if command -v lexgrog >/dev/null; then
		t_ok "$2(1): whatis reads its NAME" sh -c "lexgrog '$1' | grep -qF '\"$2 - '"
	fi
}

check_page() {
	local name=$1 page=$2; shift 2
	if [ ! -f "$page" ]; then
		t_fail "$name(1): a page" "no $page (make man)"
		return
	fi
	compare "$name" "$page" "$@"
	sections "$page" "$name"
	renders "$page" "$name"
}

check_page fntrace "$MAN/fntrace.1"
while read -r cmd; do
	check_page "fntrace-$cmd" "$MAN/fntrace-$cmd.1" "$cmd"
done <commands

# fntrace(1) names every command, and has no other page beside it.
roff_tags "$MAN/fntrace.1" COMMANDS | sort >page.commands
sort commands >help.commands
t_eq "fntrace(1): every command" "" "$(only_in help.commands page.commands)"
t_eq "fntrace(1): no command fntrace lacks" "" "$(only_in page.commands help.commands)"
{ echo fntrace.1; sed 's/.*/fntrace-&.1/' commands; } | sort >want.pages
ls "$MAN" | sort >have.pages
t_eq "a page per command, and no other" "" "$(only_in want.pages have.pages; only_in have.pages want.pages)"

# fntrace-ctl(1) describes every file ctl --help names (its list: the
# indented lines after "tracefs files:", the parenthesised notes out).
"$FNTRACE" ctl --help | sed -n '/tracefs files:$/,/^[^ ]/p' | grep '^  ' | tr '\n' ' ' |
	sed 's/([^)]*)//g' | tr -s ' ' '\n' | sed '/^$/d' | sort -u >help.files
roff_tags "$MAN/fntrace-ctl.1" "CONTROL FILES" | sort -u >page.files
t_ok "ctl --help names control files" grep -qx trace_pipe help.files
t_eq "fntrace-ctl(1): every control file" "" "$(only_in help.files page.files)"
t_eq "fntrace-ctl(1): no file ctl --help lacks" "" "$(only_in page.files help.files)"

# The comparison catches a page that lost an option, and one that has an
# option --help lacks: record's page without -r, --retval, and with a
# --bogus.
grep -v -e '--retval\\f' "$MAN/fntrace-record.1" >lost.1
help_options record >help.opts
page_options lost.1 >page.opts
t_eq "a page that lost -r, --retval is caught" "--retval -r" "$(only_in help.opts page.opts)"
sed '/^\.SH OPTIONS/a .TP\n\\f[B]--bogus\\f[R]\nnot an option' "$MAN/fntrace-record.1" >bogus.1
page_options bogus.1 >page.opts
t_eq "a page with an option --help lacks is caught" "--bogus" "$(only_in page.opts help.opts)"
