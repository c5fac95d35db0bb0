// SPDX-License-Identifier: GPL-2.0
/*
 * From DWARF to argument specs (src/dwarf/): what a parameter's type
 * says of how it is printed and passed (dwt_classify), a struct flattened
 * into its scalars (dwt_flatten), and the specs --auto-args writes from
 * them by x86_64's rules (auto_args_write).  The DWARF is that of a small
 * program gcc builds here, with -g, so the types are the compiler's own.
 */
#include "unit.h"
#include "../../src/arch/arch.h"
#include "../../src/dwarf/auto_args.h"
#include "../../src/dwarf/dwarf_types.h"

#include <dwarf.h>
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char program_c[] =
	"#include <stdbool.h>\n"
	"enum color { RED, GREEN = 5, BLUE = -2 };\n"
	"typedef const char *name_t;\n"
	"struct seg { struct { int x, y; } a; float w[2]; };\n"
	"struct flags { unsigned a : 3, b : 5; short c; };\n"
	"struct big { int v[20]; };\n"
	"union num { int i; float f; };\n"
	"struct pair { int a, b; };\n"
	"struct mixed { double d; long l; };\n"
	"struct chars { char a, b, c, d, e, f, g, h; };\n"
	"int scalars(signed char sc, unsigned short us, int i, unsigned long long ull,\n"
	"            bool b, char c) { return sc + us + i + (int)ull + b + c; }\n"
	"double floats(float f, double d, long double ld, int after)\n"
	"{ return f + d + (double)ld + after; }\n"
	"name_t pointers(name_t n, int *ip, const unsigned char *bytes, enum color col)\n"
	"{ return *ip + *bytes + col ? n : 0; }\n"
	"int aggregates(struct seg s, struct flags fl, struct big b, int after)\n"
	"{ return s.a.x + fl.c + b.v[0] + after; }\n"
	"int unions(union num u, float g) { return u.i + g; }\n"
	"int chars(struct chars c) { return c.a + c.h; }\n"
	"int many(int a, int b, int c, int d, int e, int f, int g)\n"
	"{ return a + b + c + d + e + f + g; }\n"
	"long pairs(int before, struct pair p, struct mixed m, int after)\n"
	"{ return before + p.a + (long)m.d + m.l + after; }\n"
	"struct big make_big(int k) { struct big b = { { k } }; return b; }\n"
	"int variadic(int n, ...) { return n; }\n"
	"int wide(int a, __int128 w, int b) { return a + (int)w + b; }\n"
	"int main(void) { return 0; }\n";

static char dir[] = "/tmp/fntrace-unit-dwarf.XXXXXX";
static char program[sizeof(dir) + 16];
static int dir_made;

/* The program above, built with -g: 0, or -1 if gcc could not. */
static int build_program(void)
{
	char cmd[256], source[sizeof(dir) + 16];
	FILE *f;

	if (!mkdtemp(dir))
		return -1;
	dir_made = 1;
	snprintf(source, sizeof(source), "%s/prog.c", dir);
	snprintf(program, sizeof(program), "%s/prog", dir);
	f = fopen(source, "w");
	if (!f || fputs(program_c, f) < 0 || fclose(f))
		return -1;
	snprintf(cmd, sizeof(cmd), "gcc -g -O0 -o %s %s", program, source);
	return system(cmd) == 0 ? 0 : -1;
}

/* ---- the DIEs of one function's parameters ---- */

struct lookup {
	const char *name;
	Dwarf_Die fn;
	int found;
};

static int match_function(Dwarf_Die *fn, void *arg)
{
	struct lookup *l = arg;
	const char *name = dwarf_diename(fn);

	if (!name || strcmp(name, l->name))
		return DWARF_CB_OK;
	l->fn = *fn;
	l->found = 1;
	return DWARF_CB_ABORT;
}

/* The DIE of the function named name, in *fn: 0, or -1. */
static int find_function(Dwarf *dw, const char *name, Dwarf_Die *fn)
{
	struct lookup l = { .name = name };
	Dwarf_Off off = 0, next;
	size_t header;

	while (!l.found && dwarf_nextcu(dw, off, &next, &header, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(dw, off + header, &cu))
			dwarf_getfuncs(&cu, match_function, &l, 0);
		off = next;
	}
	*fn = l.fn;
	return l.found ? 0 : -1;
}

/* The type of fn's parameter number pos (from 1) in *mem: mem, or NULL. */
static Dwarf_Die *param_type(Dwarf *dw, const char *fname, unsigned pos, Dwarf_Die *mem)
{
	Dwarf_Die fn, child;
	unsigned n = 0;

	if (find_function(dw, fname, &fn) || dwarf_child(&fn, &child))
		return NULL;
	do {
		if (dwarf_tag(&child) == DW_TAG_formal_parameter && ++n == pos)
			return dwt_type_of(&child, mem);
	} while (dwarf_siblingof(&child, &child) == 0);
	return NULL;
}

/* ---- dwt_classify ---- */

/* "TYPE/PASS" of each parameter of fname, space-separated ("-" for no
 * type); PASS: i, f, s (stack), a (aggregate), ? (unknown). */
static void classify_params(Dwarf *dw, const char *fname, unsigned nr, char *out, size_t len)
{
	static const char passes[] = { [PASS_INT] = 'i', [PASS_FP] = 'f', [PASS_STACK] = 's',
				       [PASS_AGGREGATE] = 'a', [PASS_UNKNOWN] = '?' };
	size_t at = 0;

	out[0] = '\0';
	for (unsigned i = 1; i <= nr && at < len; i++) {
		Dwarf_Die mem, *type = param_type(dw, fname, i, &mem);
		enum pass pass;
		const char *t = dwt_classify(type, &pass);

		at += snprintf(out + at, len - at, "%s%s/%c", i > 1 ? " " : "", t ? t : "-",
			       passes[pass]);
	}
}

static void test_classify(Dwarf *dw)
{
	char got[256];

	classify_params(dw, "scalars", 6, got, sizeof(got));
	CHECK("classify: integers by size and sign, bool, char",
	      !strcmp(got, "c/i u16/i i32/i u64/i b/i c/i"));
	classify_params(dw, "floats", 4, got, sizeof(got));
	CHECK("classify: float and double in FP registers, long double on the stack",
	      !strcmp(got, "f32/f f64/f -/s i32/i"));
	classify_params(dw, "pointers", 4, got, sizeof(got));
	CHECK("classify: char pointers (through a typedef too) are strings, an enum i32",
	      !strcmp(got, "s/i p/i s/i i32/i"));
	classify_params(dw, "aggregates", 4, got, sizeof(got));
	CHECK("classify: structs are the arch's to place", !strcmp(got, "-/a -/a -/a i32/i"));
	classify_params(dw, "unions", 1, got, sizeof(got));
	CHECK("classify: unions too", !strcmp(got, "-/a"));
}

/* ---- dwt_flatten ---- */

/* The parameter's scalars as "NAME/TYPE@OFFSET[f]" lines. */
static int flatten_param(Dwarf *dw, const char *fname, unsigned pos, const char *name,
			 struct dwt_aggregate *agg, char *out, size_t len)
{
	Dwarf_Die mem, *type = param_type(dw, fname, pos, &mem);
	size_t at = 0;
	int ret;

	out[0] = '\0';
	if (!type)
		return -2;
	ret = dwt_flatten(type, name, agg);
	for (unsigned i = 0; i < agg->n && at < len; i++)
		at += snprintf(out + at, len - at, "%s%s/%s@%u%s", i ? " " : "",
			       agg->field[i].name, agg->field[i].type, agg->where[i].offset,
			       agg->where[i].fp ? "f" : "");
	return ret;
}

static void test_flatten(Dwarf *dw)
{
	struct dwt_aggregate agg;
	char got[1024];
	int ret;

	ret = flatten_param(dw, "aggregates", 1, "s", &agg, got, sizeof(got));
	CHECK("flatten: nested struct and array, named by path, floats marked",
	      ret == 0 && agg.size == 16 && !agg.overflow &&
	      !strcmp(got, "s.a.x/i32@0 s.a.y/i32@4 s.w[0]/f32@8f s.w[1]/f32@12f"));

	ret = flatten_param(dw, "aggregates", 2, "fl", &agg, got, sizeof(got));
	CHECK("flatten: bit-fields hold their bytes, unnamed; the field after them named",
	      ret == 0 && agg.size == 4 && agg.n >= 2 && !agg.field[0].name[0] &&
	      !agg.field[agg.n - 2].name[0] && strstr(got, " fl.c/i16@2") &&
	      strlen(strstr(got, " fl.c/i16@2")) == strlen(" fl.c/i16@2"));

	ret = flatten_param(dw, "aggregates", 3, "b", &agg, got, sizeof(got));
	CHECK("flatten: past DWT_MAX_FIELDS scalars the list stops and says so",
	      ret == 0 && agg.size == 80 && agg.overflow && agg.n == DWT_MAX_FIELDS &&
	      !strcmp(agg.field[DWT_MAX_FIELDS - 1].name, "b.v[15]"));

	ret = flatten_param(dw, "unions", 1, "u", &agg, got, sizeof(got));
	CHECK("flatten: a union's members all at its start",
	      ret == 0 && agg.size == 4 && !strcmp(got, "u.i/i32@0 u.f/f32@0f"));
}

/* ---- auto_args_write: the specs, by x86_64's rules ---- */

/* The line of out that starts with prefix, or NULL. */
static const char *line_of(const char *out, const char *prefix)
{
	size_t len = strlen(prefix);

	for (const char *l = out; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (!strncmp(l, prefix, len))
			return l;
	return NULL;
}

/* Is the line of out for function fn exactly "fn@items"? */
static int has_spec(const char *out, const char *fn, const char *items)
{
	char prefix[128];
	const char *l;

	snprintf(prefix, sizeof(prefix), "%s@", fn);
	l = line_of(out, prefix);
	return l && !strncmp(l + strlen(prefix), items, strlen(items)) &&
	       l[strlen(prefix) + strlen(items)] == '\n';
}

static void test_specs(void)
{
	const struct arch_desc *x86_64 = arch_lookup(EM_X86_64);
	char *specs = NULL, *enums = NULL;
	size_t specs_len, enums_len;
	FILE *out = open_memstream(&specs, &specs_len);
	FILE *en = open_memstream(&enums, &enums_len);
	int n = x86_64 && out && en ? auto_args_write(program, x86_64, out, en) : -1;

	if (out)
		fclose(out);
	if (en)
		fclose(en);
	CHECK("specs: one for each of the program's 12 functions", n == 12);
	specs = specs ? specs : strdup("");
	enums = enums ? enums : strdup("");
	CHECK("specs: integer registers in order, each parameter named",
	      has_spec(specs, "scalars", "arg1/c:sc,arg2/u16:us,arg3/i32:i,arg4/u64:ull,"
			  "arg5/b:b,arg6/c:c,retval/i32"));
	CHECK("specs: FP registers counted apart; long double takes none",
	      has_spec(specs, "floats", "farg1/f32:f,farg2/f64:d,arg1/i32:after,retval/f64"));
	CHECK("specs: strings, pointers and enums",
	      has_spec(specs, "pointers", "arg1/s:n,arg2/p:ip,arg3/s:bytes,arg4/i32:col,"
			   "retval/s"));
	CHECK("specs: an enum's values beside its function",
	      line_of(enums, "pointers\t4\t5\tGREEN\n") && line_of(enums, "pointers\t4\t-2\tBLUE\n"));
	CHECK("specs: a struct's eightbytes by class; one in memory takes no register",
	      has_spec(specs, "aggregates", "arg1/i32:s.a.x,arg1+4/i32:s.a.y,farg1/f32:s.w[0],"
			     "farg1+4/f32:s.w[1],arg2+2/i16:fl.c,arg3/i32:after,retval/i32"));
	CHECK("specs: a union of an int and a float in an integer register",
	      has_spec(specs, "unions", "arg1/i32:u.i,arg1/f32:u.f,farg1/f32:g,retval/i32"));
	CHECK("specs: past the registers the list stops, the return value kept",
	      has_spec(specs, "many", "arg1/i32:a,arg2/i32:b,arg3/i32:c,arg4/i32:d,arg5/i32:e,"
			 "arg6/i32:f,retval/i32"));
	CHECK("specs: a struct of a double and a long: one FP and one integer register",
	      has_spec(specs, "pairs", "arg1/i32:before,arg2/i32:p.a,arg2+4/i32:p.b,"
			"farg1/f64:m.d,arg3/i64:m.l,arg4/i32:after,retval/i64"));
	CHECK("specs: at ARGSPEC_MAX_ITEMS the list stops, the return value kept",
	      has_spec(specs, "chars", "arg1/c:c.a,arg1+1/c:c.b,arg1+2/c:c.c,arg1+3/c:c.d,"
			  "arg1+4/c:c.e,arg1+5/c:c.f,arg1+6/c:c.g,retval/i32"));
	CHECK("specs: a struct returned in memory takes the first register, and no retval",
	      has_spec(specs, "make_big", "arg2/i32:k"));
	CHECK("specs: a variadic function's named parameters",
	      has_spec(specs, "variadic", "arg1/i32:n,retval/i32"));
	CHECK("specs: a value that cannot be printed ends the list (the next would be misplaced)",
	      has_spec(specs, "wide", "arg1/i32:a,retval/i32"));
	free(specs);
	free(enums);
}

int main(void)
{
	char cmd[sizeof(dir) + 16];
	int built = build_program() == 0, fd = built ? open(program, O_RDONLY) : -1;
	Dwarf *dw = fd >= 0 ? dwarf_begin(fd, DWARF_C_READ) : NULL;

	CHECK("gcc -g builds the program, and its DWARF opens", built && dw);
	if (dw) {
		test_classify(dw);
		test_flatten(dw);
		test_specs();
		dwarf_end(dw);
	}
	if (fd >= 0)
		close(fd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (dir_made && system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
	return unit_done();
}
