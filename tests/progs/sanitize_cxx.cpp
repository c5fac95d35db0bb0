// SPDX-License-Identifier: GPL-2.0
/*
 * The C++ side of tests/cases/tools/sanitizers.sh: an exception thrown through
 * traced frames and caught, then what the first argument names:
 *
 *   clean     nothing wrong
 *   overflow  a read past a vector's elements (ASan)
 *   leak      a new[] never deleted (LSan)
 */
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

/* Out of line, so that each keeps its call site (clang has no noipa). */
#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noipa))
#endif

static volatile long sink;

KEEP int deep(int n)
{
	if (n == 0)
		throw std::runtime_error("bottom");
	sink = n;
	return deep(n - 1) + 1;
}

KEEP int caught()
{
	try {
		return deep(3);
	} catch (const std::exception &e) {
		sink = std::strlen(e.what());
		return -1;
	}
}

KEEP int at(const std::vector<int> &v, size_t i)
{
	sink = (long)i;
	return v.data()[i];
}

KEEP int *lose(int n)
{
	int *p = new int[n];

	for (int i = 0; i < n; i++)
		p[i] = i;
	sink = n;
	return p;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "clean";
	std::vector<int> v(4, 7);

	std::printf("%s: caught %d\n", mode, caught());
	std::fflush(stdout);
	if (!std::strcmp(mode, "overflow"))
		std::printf("read %d\n", at(v, v.size()));
	else if (!std::strcmp(mode, "leak"))
		std::printf("lost %d\n", lose(25)[3]);
	std::printf("%s: done\n", mode);
	return 0;
}
