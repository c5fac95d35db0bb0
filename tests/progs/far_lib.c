/*
 * dlopen()s a library after filling every free gap of the address space
 * within argv[1] MB of the mcount the process resolves (the runtime's, when
 * traced) with inaccessible mappings: the kernel (or qemu) must then map
 * the library farther away.  Prints the library's result on stdout, and
 * on stderr how far it landed.  With ROUNDS (argv[3]), it closes the
 * library and opens it again that many times, each time after filling the
 * gaps within argv[1] MB of where it last was: every load lands out of
 * reach of the far-call trampolines made for the loads before.
 *
 * Usage: far_lib MB LIBRARY [ROUNDS]
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

static uintptr_t distance(uintptr_t a, uintptr_t b)
{
	return a > b ? a - b : b - a;
}

static void fill(uintptr_t lo, uintptr_t hi)
{
	if (lo < hi)
		mmap((void *)lo, hi - lo, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
}

/* Fill the gaps between the mappings /proc/self/maps lists, in [lo, hi). */
static void fill_gaps(uintptr_t lo, uintptr_t hi)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	unsigned long start, end, prev = lo;
	char line[512];

	while (maps && fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%lx-%lx", &start, &end) != 2 || end <= lo)
			continue;
		if (start >= hi)
			break;
		fill(prev, start);
		prev = end;
	}
	fill(prev, hi);
	if (maps)
		fclose(maps);
}

/* Open the library, call it; its entry point, or 0 after a message. */
static uintptr_t load_and_call(const char *path, uintptr_t mcount, int say)
{
	void *lib = dlopen(path, RTLD_NOW);
	int (*entry)(int) = lib ? (int (*)(int))dlsym(lib, "far_entry") : NULL;

	if (!entry) {
		fprintf(stderr, "far_lib: %s\n", dlerror());
		return 0;
	}
	if (say)
		fprintf(stderr, "far_lib: %lu MB from mcount\n",
			(unsigned long)(distance((uintptr_t)entry, mcount) >> 20));
	printf("%d\n", entry(10));
	dlclose(lib);
	return (uintptr_t)entry;
}

static void fill_around(uintptr_t at, uintptr_t window)
{
	fill_gaps(at > window ? (at - window) & ~(uintptr_t)0xfff : 4096,
		  at + window < at ? UINTPTR_MAX & ~(uintptr_t)0xfff : at + window);
}

int main(int argc, char **argv)
{
	uintptr_t mb = argc > 2 ? strtoul(argv[1], NULL, 10) : 0, window = mb << 20, at;
	long rounds = argc > 3 ? atol(argv[3]) : 1;
	void *mcount = dlsym(RTLD_DEFAULT, "_mcount");

	if (!mcount)
		mcount = dlsym(RTLD_DEFAULT, "mcount");
	if (!mcount) {
		fprintf(stderr, "far_lib: no mcount\n");
		return 1;
	}
	at = (uintptr_t)mcount;
	for (long r = 0; r < rounds; r++) {
		fill_around(at, window);
		if (!(at = load_and_call(argv[2], (uintptr_t)mcount, r == 0)))
			return 1;
	}
	return 0;
}
