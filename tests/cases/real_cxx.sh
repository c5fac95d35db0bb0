# A real C++ program that throws and catches: JsonCpp's own unit tests
# (jsoncpp_test) from Debian's sources, built with -pg by
# scripts/build-jsoncpp.sh (see there why JsonCpp).  Here: it builds, has
# call sites, and its test suite passes untraced.  The same suite under
# fntrace record (same output and status, frames thrown through closed as
# unwound) is in real_cxx_pending.sh until the runtime handles exceptions.
# Required: when something it needs is missing it fails, it never skips.

if ! jt=$("$top/scripts/build-jsoncpp.sh" 2>build.log); then
	t_fail "real_cxx: build JsonCpp from Debian's sources" "$(tail -n 3 build.log | tr '\n' ' ')"
else
	"$jt" >plain.out 2>&1
	t_eq "real_cxx: jsoncpp_test passes untraced" 0 "$?"
	t_ok "real_cxx: its summary" grep -Eq '^All [0-9]+ tests passed$' plain.out
	t_ok "real_cxx: the suite throws and catches" grep -q 'typeChecksThrowExceptions: OK' plain.out
	"$FNTRACE" list "$jt" >list.txt 2>list.err
	t_ok "real_cxx: the library's functions are traceable" grep -q 'Json.*Value.*asInt\|_ZNK4Json5Value5asIntEv' list.txt
fi
