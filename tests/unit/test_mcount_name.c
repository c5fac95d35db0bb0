// SPDX-License-Identifier: GPL-2.0
/*
 * is_mcount_name(), which site discovery and recordmcount share: the
 * three names, with or without glibc's version, and nothing else.
 */
#include "unit.h"
#include "../../src/sites/sites.h"

static void test_names(void)
{
	CHECK("mcount name: mcount", is_mcount_name("mcount"));
	CHECK("mcount name: _mcount", is_mcount_name("_mcount"));
	CHECK("mcount name: __fentry__", is_mcount_name("__fentry__"));
	CHECK("mcount name: with its version", is_mcount_name("_mcount@GLIBC_2.27") &&
					      is_mcount_name("mcount@@GLIBC_2.0"));
	CHECK("mcount name: a prefix is not one", !is_mcount_name("mcoun") &&
						 !is_mcount_name("_mcount_x") &&
						 !is_mcount_name("__fentry"));
	CHECK("mcount name: nor the empty name or a bare version",
	      !is_mcount_name("") && !is_mcount_name("@GLIBC_2.27"));
	CHECK("mcount name: nor __mcount_loc", !is_mcount_name("__mcount_loc"));
}

int main(void)
{
	test_names();
	return unit_done();
}
