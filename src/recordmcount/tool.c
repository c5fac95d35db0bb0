// SPDX-License-Identifier: GPL-2.0
/*
 * build/fntrace-recordmcount: the same command as "fntrace recordmcount",
 * as a program of its own for build systems (as the kernel's is).  Not
 * linked into build/fntrace, which has its own main().
 */
#include "rmc.h"

int main(int argc, char **argv)
{
	return cmd_recordmcount(argc, argv);
}
