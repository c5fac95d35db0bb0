/* A call tree with known stacks and counts for the flame graph exports
 * (tests/cases/export/export_flame.sh): main calls a() three times and b() once,
 * a() calls c().  Every function spins a while in its own body, so each
 * stack has self time; the loops call nothing, so no other stack shows. */
#include <stdio.h>

static volatile unsigned long sink;

#define SPIN(n)	for (unsigned long i = 0; i < (n); i++) sink += i

__attribute__((noinline)) void c(void) { SPIN(200000); }
__attribute__((noinline)) void a(void) { SPIN(100000); c(); }
__attribute__((noinline)) void b(void) { SPIN(300000); }

int main(void)
{
	SPIN(50000);
	for (int i = 0; i < 3; i++)
		a();
	b();
	printf("%lu\n", sink);
	return 0;
}
