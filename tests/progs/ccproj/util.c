// SPDX-License-Identifier: GPL-2.0
#include "calc.h"

#include <stdio.h>

KEEP int util_clamp(int x, int lo, int hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

KEEP void util_report(const char *what, int value)
{
	printf("%s = %d\n", what, value);
}
