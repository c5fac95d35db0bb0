// SPDX-License-Identifier: GPL-2.0
/* Throws and catches through a traced frame every 50 ms, 40 times. */
#include <cstdio>
#include <stdexcept>
#include <unistd.h>

#define KEEP __attribute__((noipa))

KEEP void thrower(int x)
{
	if (x)
		throw std::runtime_error("thrown");
}

KEEP int catcher(int x)
{
	try {
		thrower(x);
	} catch (const std::exception &) {
		return 1;
	}
	return 0;
}

int main()
{
	int n = 0;

	for (int i = 0; i < 40; i++) {
		n += catcher(1);
		usleep(50000);
	}
	std::printf("%d\n", n);
	return 0;
}
