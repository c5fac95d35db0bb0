// SPDX-License-Identifier: GPL-2.0
/* C++ exceptions thrown through libstdc++'s __cxa_throw, a traced library
 * call, unwound through a frame with a destructor (_Unwind_Resume, another
 * library call) to a traced catcher (tests/cases/trace/libcalls.sh). */
#include <cstdio>
#include <stdexcept>
#include <string>

struct Guard {
	std::string s;
	Guard() : s("guard") {}
	~Guard() { std::puts(s.c_str()); }
};

__attribute__((noinline)) void thrower(int i)
{
	if (i % 2)
		throw std::runtime_error("odd");
}

__attribute__((noinline)) void middle(int i)
{
	Guard g;

	thrower(i);
}

__attribute__((noinline)) int catcher(int i)
{
	try {
		middle(i);
	} catch (const std::exception &e) {
		return 1;
	}
	return 0;
}

int main()
{
	int *caught = new int[4];	/* libstdc++'s operator new[], a library call */
	int n = 0;

	for (int i = 0; i < 4; i++)
		n += caught[i] = catcher(i);
	std::printf("%d caught\n", n);
	delete[] caught;
	return 0;
}
