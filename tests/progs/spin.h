/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mid() -> leaf(): the two functions the live-switching tests look for,
 * for the one program that includes this.
 */
#ifndef SPIN_H
#define SPIN_H

static volatile int sink;

__attribute__((noipa)) int leaf(int x)
{
	sink = x;
	return x + 1;
}

__attribute__((noipa)) int mid(int x)
{
	return leaf(x) * 2;
}

#endif
