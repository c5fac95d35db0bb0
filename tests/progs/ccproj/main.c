// SPDX-License-Identifier: GPL-2.0
#include "calc.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
	util_report("total", calc_total(argc > 1 ? atoi(argv[1]) : 3));
	return 0;
}
