// SPDX-License-Identifier: GPL-2.0
/*
 * A relocated copy run: for functions of this program (x86_64 assembly
 * below, one per relocation that can come first), the planner's plan from
 * the program's own file, the copy of the bytes it would replace built
 * in a page within 2 GB, and that copy called as the function itself:
 * it runs the moved instructions and jumps back into the original.  The
 * result must be the function's.  This proves the relocation, not only
 * its bytes.  The same for aarch64 functions, in a program built for
 * aarch64 (tests/progs/detour_run_aarch64.c, run under qemu-user), which
 * runs the copies made here.
 */
#include "detour_fixture.h"

#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static const struct detour_plan *plan_of(const struct detour_plans *plans, const char *name)
{
	for (unsigned i = 0; i < plans->nr; i++)
		if (!strcmp(plans->v[i].name, name))
			return &plans->v[i];
	return NULL;
}

#if defined(__x86_64__)
int counter[8] = { 10, 11, 12, 13, 14, 15, 16, 17 };
int cell;
int add_one(int x);

/* Each: a relocation among the bytes the jump replaces. */
__asm__(".text\n"
	/* lea counter(%rip): RIP-relative disp32 */
	".globl f_rip\n.type f_rip,@function\nf_rip:\n"
	"	lea counter(%rip), %rax\n"
	"	and $7, %edi\n"
	"	mov (%rax,%rdi,4), %eax\n"
	"	ret\n"
	".size f_rip, .-f_rip\n"
	/* js rel8 becomes js rel32 */
	".globl f_jcc\n.type f_jcc,@function\nf_jcc:\n"
	"	test %edi, %edi\n"
	"	js 1f\n"
	"	lea 1(%rdi), %eax\n"
	"	ret\n"
	"1:	mov $-1, %eax\n"
	"	ret\n"
	".size f_jcc, .-f_jcc\n"
	/* call rel32: the callee returns into the trampoline */
	".globl f_call\n.type f_call,@function\nf_call:\n"
	"	call add_one\n"
	"	add %eax, %eax\n"
	"	ret\n"
	".size f_call, .-f_call\n"
	/* jmp rel8 over padding becomes jmp rel32 */
	".globl f_jmp\n.type f_jmp,@function\nf_jmp:\n"
	"	jmp 1f\n"
	"	int3\n	int3\n	int3\n"
	"1:	lea 3(%rdi), %eax\n"
	"	ret\n"
	".size f_jmp, .-f_jmp\n"
	/* jrcxz: no rel32 form, a jmp rel32 of its own */
	".globl f_jrcxz\n.type f_jrcxz,@function\nf_jrcxz:\n"
	"	mov %rdi, %rcx\n"
	"	jrcxz 1f\n"
	"	mov $1, %eax\n"
	"	ret\n"
	"1:	mov $2, %eax\n"
	"	ret\n"
	".size f_jrcxz, .-f_jrcxz\n"
	/* a RIP-relative store with an immediate after its disp32 */
	".globl f_store\n.type f_store,@function\nf_store:\n"
	"	movl $7, cell(%rip)\n"
	"	mov cell(%rip), %eax\n"
	"	add %edi, %eax\n"
	"	ret\n"
	".size f_store, .-f_store\n");

int f_rip(int), f_jcc(int), f_call(int), f_jmp(int), f_jrcxz(long), f_store(int);
typedef int (*int_fn)(int);
typedef int (*long_fn)(long);

__attribute__((noinline)) int add_one(int x)
{
	return x + 1;
}

/* A page within 2 GB of near, or NULL. */
static uint8_t *page_near(uintptr_t near)
{
	for (uintptr_t step = 1ul << 24; step < 1ul << 31; step <<= 1) {
		void *p = mmap((void *)((near + step) & ~0xffful), 4096, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			continue;
		if ((uintptr_t)p - near < (1ul << 31) || near - (uintptr_t)p < (1ul << 31))
			return p;
		munmap(p, 4096);
	}
	return NULL;
}

/* The copy of fn's replaced bytes, in a page near it: NULL if the plan
 * refuses fn or the copy cannot be built. */
static void *trampoline(struct detour_dec *d, const struct detour_plans *plans,
			const char *name, void *fn)
{
	const struct detour_plan *p = plan_of(plans, name);
	uintptr_t bias = (uintptr_t)fn - (p ? p->func : 0);
	uint8_t *page = page_near((uintptr_t)fn);
	int n;

	if (!p || p->refusal || !page)
		return NULL;
	n = detour_copy(d, (const uint8_t *)(p->patch + bias), p->patch + bias, p->len,
			(uintptr_t)page, page, 4096);
	if (n <= 0 || mprotect(page, 4096, PROT_READ | PROT_EXEC))
		return NULL;
	return page;
}

#define RUNS_AS(d, plans, fn, type, ...)                                                 \
	({                                                                               \
		type t = (type)trampoline(d, plans, #fn, (void *)fn);                    \
		int args[] = { __VA_ARGS__ }, same = t != NULL;                          \
		for (unsigned i = 0; same && i < sizeof(args) / sizeof(args[0]); i++)    \
			same = t(args[i]) == fn(args[i]);                                \
		same;                                                                    \
	})

static void x86_64_runs(void)
{
	struct detour_plans plans;
	struct detour_dec d;
	struct elf_file f;
	char err[128];

	CHECK("detour run: the program's own plan",
	      elf_open_path(&f, "/proc/self/exe") == 0 &&
	      detour_plan_image(&f, &plans, err, sizeof(err)) == 0);
	CHECK("detour run: capstone opens", detour_open(&d, f.machine) == 0);
	CHECK("detour run: lea of a RIP-relative address",
	      RUNS_AS(&d, &plans, f_rip, int_fn, 0, 3, 7, 12));
	CHECK("detour run: js rel8 as js rel32, taken and not",
	      RUNS_AS(&d, &plans, f_jcc, int_fn, -5, 0, 41));
	CHECK("detour run: a call returning into the trampoline",
	      RUNS_AS(&d, &plans, f_call, int_fn, 1, 20));
	CHECK("detour run: jmp rel8 as jmp rel32", RUNS_AS(&d, &plans, f_jmp, int_fn, 4));
	CHECK("detour run: jrcxz, taken and not",
	      RUNS_AS(&d, &plans, f_jrcxz, long_fn, 0, 9));
	CHECK("detour run: a RIP-relative store of an immediate",
	      RUNS_AS(&d, &plans, f_store, int_fn, 0, 5) && cell == 7);
	detour_close(&d);
	detour_plans_free(&plans);
	elf_close(&f);
}
#else
static void x86_64_runs(void)
{
	CHECK("detour run: x86_64 functions to run on this host", 0);
}
#endif

/*
 * aarch64: the runner's functions planned, their copies made for its page
 * at A64_TRAMP (64 MB above its text: in a B's reach, out of ADR's and of
 * a literal load's), written to a file it reads, and its verdicts read
 * back, one line per copy.
 */
#define A64_TRAMP	0x4000000ul
#define A64_RUNS	11	/* the runner's functions */

static const char *a64_runner(void)
{
	static char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 40);

	if (n <= 0)
		return NULL;
	path[n] = 0;
	strcat(dirname(path), "/../progs/detour_run_aarch64");
	return path;
}

/* One line per function "f_*" the plan accepts: "NAME ADDRESS HEX". */
static unsigned a64_write_copies(struct detour_dec *d, const struct elf_file *f,
				 const struct detour_plans *plans, FILE *out)
{
	uint64_t at = A64_TRAMP;
	unsigned n = 0;

	for (unsigned i = 0; i < plans->nr; i++) {
		const struct detour_plan *p = &plans->v[i];
		const uint8_t *code = elf_vaddr_ptr(f, p->patch, p->len);
		uint8_t copy[128];
		int len;

		if (strncmp(p->name, "f_", 2) || p->refusal || !code ||
		    (len = detour_copy(d, code, p->patch, p->len, at, copy, sizeof(copy))) <= 0)
			continue;
		fprintf(out, "%s %llx", p->name, (unsigned long long)at);
		for (int b = 0; b < len; b++)
			fprintf(out, " %02x", copy[b]);
		fprintf(out, "\n");
		at += 0x100;
		n++;
	}
	return n;
}

/* The runner's verdicts on the copies in file: how many lines. */
static unsigned a64_verdicts(const char *runner, const char *file)
{
	char cmd[2 * PATH_MAX + 8], line[128], name[64];
	unsigned n = 0;
	FILE *in;

	snprintf(cmd, sizeof(cmd), "'%s' '%s' 2>&1", runner, file);
	in = popen(cmd, "r");
	while (in && fgets(line, sizeof(line), in)) {
		char what[160];

		if (sscanf(line, "ok %63s", name) == 1) {
			snprintf(what, sizeof(what), "detour run: aarch64 %s's copy", name);
			CHECK(what, 1);
		} else {
			snprintf(what, sizeof(what), "detour run: aarch64: %s", strtok(line, "\n"));
			CHECK(what, 0);
		}
		n++;
	}
	if (in)
		pclose(in);
	return n;
}

static void aarch64_runs(void)
{
	char file[] = "/tmp/detour_run.XXXXXX";
	const char *runner = a64_runner();
	struct detour_plans plans = { 0 };
	struct detour_dec d;
	struct elf_file f;
	char err[128];
	unsigned made = 0;
	int fd = mkstemp(file);
	FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;

	CHECK("detour run: the aarch64 runner planned",
	      runner && out && elf_open_path(&f, runner) == 0 &&
	      detour_plan_image(&f, &plans, err, sizeof(err)) == 0);
	if (plans.nr && detour_open(&d, f.machine) == 0) {
		made = a64_write_copies(&d, &f, &plans, out);
		detour_close(&d);
	}
	if (out)
		fclose(out);
	CHECK("detour run: a copy of each aarch64 function", made == A64_RUNS);
	CHECK("detour run: each aarch64 copy ran", made && a64_verdicts(runner, file) == made);
	if (plans.nr) {
		detour_plans_free(&plans);
		elf_close(&f);
	}
	unlink(file);
}

int main(void)
{
	x86_64_runs();
	aarch64_runs();
	return unit_done();
}
