// C++ names in the flame graph exports (tests/cases/export/export_flame.sh): a
// method in a namespace, an operator, a template (its name has '<' and
// '>' for the SVG to escape) and a function of an anonymous namespace,
// whose demangled name has a space.
#include <cstdio>

static volatile unsigned long sink;

#define SPIN(n)	for (unsigned long i = 0; i < (n); i++) sink += i

namespace geo {
struct Shape {
	int sides;
	__attribute__((noinline)) int area() const;
	__attribute__((noinline)) Shape &operator+=(int more);
};

int Shape::area() const
{
	SPIN(100000);
	return sides * sides;
}

template <typename T> __attribute__((noinline)) T twice(T v)
{
	SPIN(100000);
	return v + v;
}

Shape &Shape::operator+=(int more)
{
	SPIN(100000);
	sides += more;
	return *this;
}
}

namespace {
__attribute__((noinline)) int helper(geo::Shape &s)
{
	s += 1;
	return geo::twice<int>(s.area());
}
}

int main()
{
	geo::Shape s{3};

	std::printf("%d\n", helper(s));
	return 0;
}
