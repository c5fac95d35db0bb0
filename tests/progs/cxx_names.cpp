// SPDX-License-Identifier: GPL-2.0
/* C++ functions of three kinds, each called five times: a free function,
 * a method and a template's method; std::string keeps libstdc++ loaded. */
#include <cstdio>
#include <string>

struct Gen {
	int v;
	int next();
};

__attribute__((noinline)) int Gen::next()
{
	return ++v;
}

__attribute__((noinline)) int helper(int x)
{
	return x * 2;
}

template <typename T> struct Box {
	T t;
	__attribute__((noinline)) T get() { return t; }
};

int main()
{
	Gen g{0};
	Box<int> b{3};
	std::string s;

	for (int i = 0; i < 5; i++)
		s += std::to_string(helper(g.next()) + b.get());
	std::printf("%s\n", s.c_str());
	return 0;
}
