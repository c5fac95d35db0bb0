// SPDX-License-Identifier: GPL-2.0
/* Three traced frames under main, for gdb to walk through. */
#include <stdio.h>
#define N __attribute__((noipa))
static volatile int sink;
N void deepest(int x) { sink = x; }
N void middle(int x) { deepest(x + 1); sink++; }
N void outer(int x) { middle(x + 1); sink++; }
int main(void) { outer(1); printf("ok\n"); return 0; }
