// SPDX-License-Identifier: GPL-2.0
/* Throws and catches through a traced frame every 50 ms, 40 times, and
 * prints how many were caught; given a file HOLD, it goes on while HOLD
 * exists, counting the first 40 only (spin.c says why). */
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

int main(int argc, char **argv)
{
	const char *hold = argc > 1 ? argv[1] : nullptr;
	int n = 0;

	for (int i = 0; i < 40 || (hold && access(hold, F_OK) == 0); i++) {
		int caught = catcher(1);

		if (i < 40)
			n += caught;
		usleep(50000);
	}
	std::printf("%d\n", n);
	return 0;
}
