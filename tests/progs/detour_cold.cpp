// A function whose throw, and a loop whose catch, gcc moves into cold
// parts of their own (thrower.cold, main.cold): jumped to, never called.
#include <cstdio>
#include <stdexcept>
__attribute__((noinline)) int thrower(int x)
{
	if (x > 5)
		throw std::runtime_error("big");
	return x;
}
int main()
{
	int s = 0;
	for (int i = 0; i < 10; i++) {
		try {
			s += thrower(i);
		} catch (const std::exception &e) {
			s -= 1;
		}
	}
	std::printf("%d\n", s);
	return 0;
}
