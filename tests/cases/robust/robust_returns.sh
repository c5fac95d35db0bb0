# Robustness of return sites (src/core/returns.c): the cases of longjmp
# and exceptions, signals, threads, depth and tail calls, whole-process
# events, live switching of tracers and dlopen loops, run again on
# programs whose returns the graph tracer patches instead of taking their
# return addresses: gcc's -minstrument-return=nop5 -mrecord-return on
# x86_64, clang's XRay sleds on aarch64 (its ARCH_RETURN_SITES).  Under
# T_ARCH, the cases its ARCH_CASES runs.

if [ -n "${ARCH_RETURN_SITES:-}" ]; then
	R_RETURN_SITES=1
	T_TAG="${T_TAG}[return sites] "
	for c in robust_jumps robust_signals robust_threads robust_depth robust_process \
		 robust_live robust_dlopen; do
		[ -z "$T_ARCH" ] || case " $(echo $ARCH_CASES) " in *" $c "*) ;; *) continue ;; esac
		. "$(t_case_file $c)"
	done
	unset R_RETURN_SITES
fi
