/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LLVM XRay's table of sleds, xray_instr_map (clang -fxray-instrument),
 * as clang 14 writes it: one 32-byte entry per sled, version 2, whose two
 * addresses are relative to the fields that hold them, so that the table
 * needs no relocation once linked.  fntrace takes its exit and tail-call
 * sleds as return sites (src/recordmcount/xray.c, src/core/returns.c);
 * it links no XRay runtime.
 *
 *   +0   int64  sled - &entry.sled
 *   +8   int64  function - &entry.function
 *   +16  uint8  kind (XRAY_SLED_*)
 *   +17  uint8  always_instrument
 *   +18  uint8  version (XRAY_MAP_VERSION)
 */
#ifndef FNTRACE_XRAY_MAP_H
#define FNTRACE_XRAY_MAP_H

#define XRAY_MAP_NAME		"xray_instr_map"
#define XRAY_ENTRY_SIZE		32
#define XRAY_KIND_AT		16
#define XRAY_VERSION_AT		18
#define XRAY_MAP_VERSION	2

enum xray_sled_kind {
	XRAY_SLED_ENTRY = 0,
	XRAY_SLED_EXIT = 1,	/* at a return */
	XRAY_SLED_TAIL = 2,	/* before a tail call's jump */
};

/* Does the entry list an exit or tail-call sled, of the version read here? */
static inline int xray_return_sled(const unsigned char *entry)
{
	return entry[XRAY_VERSION_AT] == XRAY_MAP_VERSION &&
	       (entry[XRAY_KIND_AT] == XRAY_SLED_EXIT || entry[XRAY_KIND_AT] == XRAY_SLED_TAIL);
}

#endif
