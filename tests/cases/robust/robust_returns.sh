# Robustness of gcc's return sites (x86_64, src/core/returns.c): the
# cases of longjmp and exceptions, signals, threads, depth and tail
# calls, whole-process events, live switching of tracers and dlopen
# loops, run again on programs built with
# -minstrument-return=nop5 -mrecord-return, whose returns the graph
# tracer patches instead of taking their return addresses.

if [ -n "${ARCH_RETURN_SITES:-}" ]; then
	R_RETURN_SITES=1
	T_TAG="${T_TAG}[return sites] "
	for c in robust_jumps robust_signals robust_threads robust_depth robust_process \
		 robust_live robust_dlopen; do
		. "$(t_case_file $c)"
	done
	unset R_RETURN_SITES
fi
