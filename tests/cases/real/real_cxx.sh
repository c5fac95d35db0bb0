# A real C++ program that throws and catches: JsonCpp's own unit tests
# (jsoncpp_test) from Debian's sources, built with -pg by
# scripts/build-jsoncpp.sh (see there why JsonCpp).  The suite runs
# untraced, then under fntrace record with the function_graph tracer on
# every function: the same output and exit status, and the frames its
# exceptions were thrown through closed as unwound in the report.
# Required: when something it needs is missing it fails, it never skips.

rc_main() {
	if ! jt=$("$top/scripts/build-jsoncpp.sh" 2>build.log); then
		t_fail "real_cxx: build JsonCpp from Debian's sources" "$(tail -n 3 build.log | tr '\n' ' ')"
		return
	fi
	"$jt" >plain.out 2>&1
	plain_rc=$?
	t_eq "real_cxx: jsoncpp_test passes untraced" 0 "$plain_rc"
	t_ok "real_cxx: its summary" grep -Eq '^All [0-9]+ tests passed$' plain.out
	t_ok "real_cxx: the suite throws and catches" grep -q 'typeChecksThrowExceptions: OK' plain.out
	"$FNTRACE" list "$jt" >list.txt 2>list.err
	t_ok "real_cxx: the library's functions are traceable" grep -q '_ZNK4Json5Value5asIntEv' list.txt

	"$FNTRACE" record -o J.data -- "$jt" >J.out 2>J.err
	t_eq "real_cxx: exit status under fntrace as untraced" "$plain_rc" "$?"
	t_same "real_cxx: output under fntrace as untraced" plain.out J.out
	"$FNTRACE" report -i J.data >J.txt 2>&1
	t_ok "real_cxx: frames thrown through closed as unwound" grep -q ': unwound \*/$' J.txt
	t_eq "real_cxx: the graph nests" "" "$(r_all_nest J.txt)"
}

. "$top/tests/robust_lib.sh"
rc_main
