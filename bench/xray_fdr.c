// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into the LLVM XRay builds of the benchmarks (clang 14) with
 * -Wl,--wrap=main.  XRAY_OPTIONS="xray_mode=xray-fdr" only selects the
 * flight data recorder: nothing initializes it, so the patched sleds
 * call a trampoline with no handler and nothing is recorded (the basic
 * mode initializes itself).  A program is expected to call
 * __xray_log_init_mode() itself; this does it before main() when FDR mode
 * is asked for.  The runtime's symbols are hidden, so this cannot be
 * preloaded: it must be part of the link.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* From xray/xray_log_interface.h, which only C++ can include. */
int __xray_log_init_mode(const char *mode, const char *config);
#define XRAY_LOG_INITIALIZED 2

int __real_main(int argc, char **argv, char **envp);

__attribute__((xray_never_instrument))
int __wrap_main(int argc, char **argv, char **envp)
{
	const char *options = getenv("XRAY_OPTIONS");

	/* The FDR flags come from XRAY_FDR_OPTIONS, read by the init. */
	if (options && strstr(options, "xray_mode=xray-fdr") &&
	    __xray_log_init_mode("xray-fdr", "") != XRAY_LOG_INITIALIZED) {
		fprintf(stderr, "xray_fdr: cannot start XRay's FDR mode\n");
		return 125;
	}
	return __real_main(argc, argv, envp);
}
