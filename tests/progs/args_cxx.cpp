// SPDX-License-Identifier: GPL-2.0
/*
 * C++ functions with recorded arguments: a method (this is arg1), and a
 * template in two instances, one taking and giving back a double.
 */
#include <cstdio>

#define noipa __attribute__((noinline, noipa))

namespace calc {
struct Parser {
	long base;
	noipa long parse(const char *text, long len)
	{
		return base + len + (text ? 1 : 0);
	}
};
}

template <typename T> noipa T twice(T x)
{
	return 2 * x;
}

int main()
{
	calc::Parser p{10};
	long r = p.parse("1+2*x", 5);

	r += twice<int>(21);
	r += (long)twice<double>(1.25);
	std::printf("%ld\n", r);
	return 0;
}
