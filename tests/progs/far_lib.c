/*
 * dlopen()s a library after filling every free gap of the address space
 * within argv[1] MB of the mcount the process resolves (the runtime's, when
 * traced) with inaccessible mappings: the kernel (or qemu) must then map
 * the library farther away.  Prints the library's result on stdout, and
 * on stderr how far it landed.
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

int main(int argc, char **argv)
{
	uintptr_t mb = argc > 2 ? strtoul(argv[1], NULL, 10) : 0, window = mb << 20;
	void *mcount = dlsym(RTLD_DEFAULT, "_mcount"), *lib;
	int (*entry)(int);

	if (!mcount)
		mcount = dlsym(RTLD_DEFAULT, "mcount");
	if (!mcount) {
		fprintf(stderr, "far_lib: no mcount\n");
		return 1;
	}
	fill_gaps((uintptr_t)mcount > window ? ((uintptr_t)mcount - window) & ~(uintptr_t)0xfff : 4096,
		  (uintptr_t)mcount + window < (uintptr_t)mcount ? UINTPTR_MAX & ~(uintptr_t)0xfff
								  : (uintptr_t)mcount + window);
	lib = dlopen(argv[2], RTLD_NOW);
	entry = lib ? (int (*)(int))dlsym(lib, "far_entry") : NULL;
	if (!entry) {
		fprintf(stderr, "far_lib: %s\n", dlerror());
		return 1;
	}
	fprintf(stderr, "far_lib: %lu MB from mcount\n",
		(unsigned long)(distance((uintptr_t)entry, (uintptr_t)mcount) >> 20));
	printf("%d\n", entry(10));
	return 0;
}
