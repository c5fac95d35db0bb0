// SPDX-License-Identifier: GPL-2.0
#include "calc.h"

KEEP static int square(int x)
{
	return x * x;
}

KEEP int calc_total(int n)
{
	int total = 0;

	for (int i = 1; i <= n; i++)
		total += util_clamp(square(i), 0, 5);
	return total;
}
