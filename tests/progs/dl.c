// SPDX-License-Identifier: GPL-2.0
/* dlopen, call and dlclose a traced library several times. */
#include <dlfcn.h>
#include <stdio.h>

__attribute__((noipa)) static long call_lib(const char *path, const char *expr)
{
	void *h = dlopen(path, RTLD_NOW);
	long (*eval)(const char *);
	long v;

	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return -1;
	}
	eval = (long (*)(const char *))dlsym(h, "calc_eval");
	v = eval ? eval(expr) : -1;
	dlclose(h);
	return v;
}

int main(int argc, char **argv)
{
	long sum = 0;

	for (int i = 0; i < 3; i++)
		sum += call_lib(argv[1], "2 * (3 + 4)");
	printf("%ld\n", sum);
	return 0;
}
