// SPDX-License-Identifier: GPL-2.0
/*
 * C++ exceptions thrown through three traced frames, with destructors
 * that have side effects in between, and caught above them; ten times.
 * The unwinder reads every return address on the way: none may be the
 * tracer's.  Prints what the destructors and the catches did.
 */
#include <cstdio>
#include <stdexcept>
#include <string>

#include "robust.h"

static std::string log_;

/* Inlined, by clang too (which keeps it out of line in a cleanup), so
 * that every compiler's graph shows the three frames alone. */
struct Guard {
	char tag;
	explicit Guard(char t) : tag(t) {}
	__attribute__((always_inline)) ~Guard() { log_ += tag; }
};

/* C names: the graph reads the same whether or not names are demangled. */
extern "C" {

KEEP long g3(long x)
{
	Guard g('3');

	sink = x;
	if (x % 2 == 0)
		throw std::runtime_error("even");
	return x;
}

KEEP long g2(long x)
{
	Guard g('2');
	long r = g3(x + 1);

	sink = r;
	return r;
}

KEEP long g1(long x)
{
	Guard g('1');
	long r = g2(x + 1);

	sink = r;
	return r;
}

KEEP long caught(long x)
{
	sink = x;
	return -x;
}

KEEP long catcher(long x)
{
	long r;

	try {
		r = g1(x);
	} catch (const std::runtime_error &e) {
		log_ += '!';
		r = caught(x);
	}
	sink = r;
	return r;
}

} /* extern "C" */

int main()
{
	long sum = 0;

	for (long i = 0; i < 10; i++)
		sum += catcher(i);
	std::printf("sum %ld log %s\n", sum, log_.c_str());
	return 0;
}
