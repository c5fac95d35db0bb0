// SPDX-License-Identifier: GPL-2.0
/*
 * C++ functions with recorded arguments: a method (this is arg1), a
 * template in two instances, one taking and giving back a double; a
 * plain struct by value (its fields), and a class with a destructor by
 * value, which the ABI passes by a hidden reference that DWARF does not
 * show (--auto-args stops there).
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

struct Pt {
	int x, y;
};

struct Owner {
	int *p;
	~Owner() { p = nullptr; }
};

noipa int plain(Pt pt, int k)
{
	return pt.x * k + pt.y;
}

noipa int keeps(Owner o, int k)
{
	return (o.p ? *o.p : 0) + k;
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
	r += plain(Pt{2, 3}, 4);
	int v = 7;
	r += keeps(Owner{&v}, 1);
	std::printf("%ld\n", r);
	return 0;
}
