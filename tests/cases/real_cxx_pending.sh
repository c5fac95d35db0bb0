# JsonCpp's unit tests (see real_cxx.sh) under fntrace record, function
# graph on every function: the same output and exit status as untraced,
# and the frames the exceptions were thrown through closed as unwound.
# Pending (tests/run.sh runs it with RUN_PENDING=1): today the first throw
# through a traced frame ends in std::terminate.

if ! jt=$("$top/scripts/build-jsoncpp.sh" 2>build.log); then
	t_fail "pending: real_cxx: build JsonCpp from Debian's sources" "$(tail -n 3 build.log | tr '\n' ' ')"
else
	"$jt" >plain.out 2>&1
	echo $? >plain.rc
	"$FNTRACE" record -o J.data -- "$jt" >J.out 2>J.err
	t_eq "pending: real_cxx: exit status as untraced" "$(cat plain.rc)" "$?"
	t_same "pending: real_cxx: output as untraced" plain.out J.out
	"$FNTRACE" report -i J.data >J.txt 2>&1
	t_ok "pending: real_cxx: frames thrown through closed as unwound" grep -q ': unwound \*/$' J.txt
fi
