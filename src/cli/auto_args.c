// SPDX-License-Identifier: GPL-2.0
/*
 * record --auto-args: argument specs written from the program's DWARF,
 * one per function it defines, as if given with -A and -R:
 *
 *   int parse(const char *s, unsigned short n, double k)
 *       -> parse@arg1/s,arg2/u16,farg1,retval/i32
 *
 * A parameter's type says how to print it and which registers carry it,
 * by the x86_64 System V rules (the one architecture whose runtime takes
 * arguments yet): integers, bool, enums, characters and pointers take
 * the next integer register; float and double the next SSE register;
 * long double goes on the stack and takes none.  A char pointer is a
 * string.  Anything else (a struct, varargs) ends the list there: where
 * it went cannot be told without classifying it, and a guess would put
 * the next values under the wrong names.  A function returning a struct
 * gets no spec (it may take a hidden pointer in the first register).
 *
 * A definition is trusted only where the symbol table has its name at
 * its address: gcc's clones (f.isra.0, f.constprop.0) describe their own
 * parameters under the original's name.  A name defined twice with
 * different parameters (two static functions) is left out.
 */
#include "auto_args.h"
#include "cli.h"
#include "../arch/arch.h"
#include "../common/argspec.h"
#include "../common/array.h"
#include "../common/trace_format.h"
#include "../elf/elf.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum pass {
	PASS_INT,	/* in the next integer register */
	PASS_FP,	/* in the next floating-point register */
	PASS_STACK,	/* in memory: no register */
	PASS_UNKNOWN,	/* cannot tell: stop here */
};

struct candidate {
	char *name;
	uint64_t addr;
	char *items;		/* "arg1/s,farg1,retval/i32" */
	char *enums;		/* "POS\tVALUE\tNAME\n" of its enum values, or NULL */
};

struct walk {
	const struct arch_desc *arch;
	struct candidate *v;
	size_t nr, cap;
};

static int encoding(Dwarf_Die *type)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc;

	if (!dwarf_attr(type, DW_AT_encoding, &attr) || dwarf_formudata(&attr, &enc))
		return -1;
	return (int)enc;
}

/* A base type's spec type ("i32", "u8", "c", "b", "f64"), or NULL. */
static const char *base_type(Dwarf_Die *type, enum pass *pass)
{
	static const char *const sints[] = { "i8", "i16", NULL, "i32", NULL, NULL, NULL, "i64" };
	static const char *const uints[] = { "u8", "u16", NULL, "u32", NULL, NULL, NULL, "u64" };
	int size = dwarf_bytesize(type);

	*pass = PASS_INT;
	switch (encoding(type)) {
	case DW_ATE_boolean:
		return "b";
	case DW_ATE_signed_char:
	case DW_ATE_unsigned_char:
		return size == 1 ? "c" : NULL;
	case DW_ATE_signed:
		return size >= 1 && size <= 8 ? sints[size - 1] : NULL;
	case DW_ATE_unsigned:
	case DW_ATE_UTF:
		return size >= 1 && size <= 8 ? uints[size - 1] : NULL;
	case DW_ATE_float:
		*pass = size == 4 || size == 8 ? PASS_FP : PASS_STACK;
		return size == 4 ? "f32" : size == 8 ? "f64" : NULL;
	}
	return NULL;
}

/* The type a DIE's DW_AT_type names, typedefs and qualifiers peeled;
 * NULL for none (void). */
static Dwarf_Die *type_of(Dwarf_Die *die, Dwarf_Die *mem)
{
	Dwarf_Attribute attr;
	Dwarf_Die raw;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &raw))
		return NULL;
	return dwarf_peel_type(&raw, mem) == 0 ? mem : NULL;
}

/* A pointer to a character type is a string; any other, a pointer. */
static const char *pointer_type(Dwarf_Die *ptr)
{
	Dwarf_Die mem, *to = type_of(ptr, &mem);
	int enc = to && dwarf_tag(to) == DW_TAG_base_type ? encoding(to) : -1;

	return (enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char) &&
	       dwarf_bytesize(to) == 1 ? "s" : "p";
}

/* How a value of this type is passed, and its spec type. */
static const char *classify(Dwarf_Die *type, enum pass *pass)
{
	int size;

	*pass = PASS_UNKNOWN;
	if (!type)
		return NULL;
	switch (dwarf_tag(type)) {
	case DW_TAG_base_type:
		return base_type(type, pass);
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		*pass = PASS_INT;
		return pointer_type(type);
	case DW_TAG_enumeration_type:
		size = dwarf_bytesize(type);
		*pass = size == 1 || size == 2 || size == 4 || size == 8 ? PASS_INT : PASS_UNKNOWN;
		return size == 1 ? "i8" : size == 2 ? "i16" : size == 4 ? "i32" : "i64";
	}
	return NULL;
}

/* ":NAME" of a named parameter, into buf; its length (0: no name fits). */
static size_t name_suffix(Dwarf_Die *param, char *buf, size_t len)
{
	Dwarf_Attribute attr;
	const char *name = dwarf_attr_integrate(param, DW_AT_name, &attr) ?
			   dwarf_formstring(&attr) : NULL;

	if (!name || strlen(name) > ARGSPEC_MAX_NAME || strlen(name) + 2 > len)
		return 0;
	return (size_t)snprintf(buf, len, ":%s", name);
}

/* An enum's values as "POS\tVALUE\tNAME" lines, for the report. */
static void put_enumerators(FILE *enums, unsigned pos, Dwarf_Die *type)
{
	Dwarf_Die e;
	Dwarf_Attribute attr;
	Dwarf_Sword value;

	if (!enums || dwarf_tag(type) != DW_TAG_enumeration_type || dwarf_child(type, &e))
		return;
	do {
		if (dwarf_tag(&e) == DW_TAG_enumerator && dwarf_diename(&e) &&
		    dwarf_attr(&e, DW_AT_const_value, &attr) && !dwarf_formsdata(&attr, &value))
			fprintf(enums, "%u\t%lld\t%s\n", pos, (long long)value, dwarf_diename(&e));
	} while (dwarf_siblingof(&e, &e) == 0);
}

/* "argN/T:NAME" or "fargN/T:NAME" for each parameter while their registers are
 * known, into buf, and their enums' values; how many. */
static unsigned param_items(const struct walk *w, Dwarf_Die *fn, char *buf, size_t len,
			    FILE *enums)
{
	unsigned ints = 0, fps = 0, n = 0;
	size_t at = 0;
	Dwarf_Die child, tmem;

	buf[0] = '\0';
	if (dwarf_child(fn, &child) != 0)
		return 0;
	do {
		enum pass pass;
		const char *t;

		if (dwarf_tag(&child) == DW_TAG_unspecified_parameters)
			break;
		if (dwarf_tag(&child) != DW_TAG_formal_parameter)
			continue;
		t = classify(type_of(&child, &tmem), &pass);
		if (pass == PASS_STACK)
			continue;
		if (pass == PASS_UNKNOWN || !t || n == ARGSPEC_MAX_ITEMS - 1 ||
		    (pass == PASS_INT ? ++ints > w->arch->int_arg_regs
				      : ++fps > w->arch->fp_arg_regs))
			break;
		at += snprintf(buf + at, len - at, "%s%s%u/%s", n ? "," : "",
			       pass == PASS_FP ? "farg" : "arg", pass == PASS_FP ? fps : ints, t);
		at += name_suffix(&child, buf + at, len - at);
		put_enumerators(enums, pass == PASS_INT ? ints : 0, &tmem);
		n++;
	} while (at < len && dwarf_siblingof(&child, &child) == 0);
	return n;
}

/* The items for fn, or NULL if it gets no spec; its enums' values in
 * *enums (malloc'd, or NULL). */
static char *function_items(const struct walk *w, Dwarf_Die *fn, char **enums)
{
	Dwarf_Die tmem, *ret = type_of(fn, &tmem);
	const char *rt = NULL;
	enum pass pass = PASS_INT;
	char buf[1024];
	size_t enums_len;
	FILE *e;
	unsigned n;

	*enums = NULL;
	if (ret) {
		rt = classify(ret, &pass);
		if (!rt || pass == PASS_STACK || pass == PASS_UNKNOWN)
			return NULL;	/* a struct: maybe a hidden first argument */
	}
	e = open_memstream(enums, &enums_len);
	if (ret && pass == PASS_INT)
		put_enumerators(e, 0, ret);
	n = param_items(w, fn, buf, sizeof(buf) - 16, e);
	if (e && (fclose(e) || !enums_len)) {
		free(*enums);
		*enums = NULL;
	}
	if (strlen(buf) >= sizeof(buf) - 17 || !(n || rt)) {
		free(*enums);
		*enums = NULL;
		return NULL;	/* nothing, or cut short: not a spec */
	}
	if (rt)
		snprintf(buf + strlen(buf), 16, "%sretval/%s", n ? "," : "", rt);
	return strdup(buf);
}

static int add_candidate(void *arg, const char *name, uint64_t addr, char *items,
			 char *enums)
{
	struct walk *w = arg;

	if (!items || grow_array((void **)&w->v, &w->cap, w->nr + 1, sizeof(*w->v))) {
		free(items);
		free(enums);
		return items ? -1 : 0;
	}
	w->v[w->nr++] = (struct candidate){ strdup(name), addr, items, enums };
	return 0;
}

static int on_function(Dwarf_Die *fn, void *arg)
{
	Dwarf_Attribute attr;
	const char *name = NULL;
	char *items, *enums;
	Dwarf_Addr addr;

	if (dwarf_attr_integrate(fn, DW_AT_linkage_name, &attr))
		name = dwarf_formstring(&attr);
	if (!name)
		name = dwarf_diename(fn);
	if (!name || dwarf_lowpc(fn, &addr) != 0)
		return DWARF_CB_OK;
	items = function_items(arg, fn, &enums);
	return add_candidate(arg, name, addr, items, enums) ? DWARF_CB_ABORT : DWARF_CB_OK;
}

static int walk_dwarf(int fd, struct walk *w)
{
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
	Dwarf_Off off = 0, next;
	size_t header;

	if (!dw)
		return -1;
	while (dwarf_nextcu(dw, off, &next, &header, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(dw, off + header, &cu))
			dwarf_getfuncs(&cu, on_function, w, 0);
		off = next;
	}
	dwarf_end(dw);
	return 0;
}

/* ---- definitions the symbol table confirms ---- */

struct func_sym {
	uint64_t addr;
	const char *name;
};

static int by_addr(const void *a, const void *b)
{
	const struct func_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The program's function symbols, sorted by address (names point into
 * f, which must stay open). */
static struct func_sym *function_symbols(const struct elf_file *f, size_t *nr)
{
	int symtab = elf_find_section_type(f, SHT_SYMTAB);
	unsigned n = symtab < 0 ? 0 : elf_sym_count(f, symtab);
	struct func_sym *v = calloc(n ? n : 1, sizeof(*v));
	struct elf_sym sym;

	*nr = 0;
	for (unsigned i = 0; v && i < n; i++)
		if (elf_sym_get(f, symtab, i, &sym) == 0 && sym.type == STT_FUNC && sym.value)
			v[(*nr)++] = (struct func_sym){ sym.value, sym.name };
	if (v)
		qsort(v, *nr, sizeof(*v), by_addr);
	return v;
}

static int symbol_confirms(const struct func_sym *v, size_t nr, const struct candidate *c)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (v[mid].addr < c->addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < nr && v[lo].addr == c->addr; lo++)
		if (!strcmp(v[lo].name, c->name))
			return 1;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static int same_enums(const struct candidate *a, const struct candidate *b)
{
	return !a->enums == !b->enums && (!a->enums || !strcmp(a->enums, b->enums));
}

/* Each enum value of c as a "FUNC\tPOS\tVALUE\tNAME" line. */
static void write_enums(FILE *out, const struct candidate *c)
{
	char *copy = c->enums ? strdup(c->enums) : NULL, *save = NULL;

	for (char *line = copy ? strtok_r(copy, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		fprintf(out, "%s\t%s\n", c->name, line);
	free(copy);
}

/* The specs, one line each, and their enums' values: names defined once,
 * or alike every time. */
static size_t write_specs(FILE *out, FILE *enums, struct candidate *v, size_t nr)
{
	size_t written = 0;

	qsort(v, nr, sizeof(*v), by_name);
	for (size_t i = 0, k; i < nr; i = k) {
		int alike = 1;

		for (k = i + 1; k < nr && !strcmp(v[k].name, v[i].name); k++)
			alike &= !strcmp(v[k].items, v[i].items) && same_enums(&v[k], &v[i]);
		if (!alike || fprintf(out, "%s@%s\n", v[i].name, v[i].items) <= 0)
			continue;
		write_enums(enums, &v[i]);
		written++;
	}
	return written;
}

static void free_candidates(struct walk *w)
{
	for (size_t i = 0; i < w->nr; i++) {
		free(w->v[i].name);
		free(w->v[i].items);
		free(w->v[i].enums);
	}
	free(w->v);
}

/* Drops the candidates the symbol table does not confirm. */
static void keep_confirmed(struct walk *w, const struct elf_file *f)
{
	size_t nr_syms, kept = 0;
	struct func_sym *syms = function_symbols(f, &nr_syms);

	for (size_t i = 0; i < w->nr; i++) {
		if (syms && symbol_confirms(syms, nr_syms, &w->v[i])) {
			w->v[kept++] = w->v[i];
			continue;
		}
		free(w->v[i].name);
		free(w->v[i].items);
		free(w->v[i].enums);
	}
	w->nr = kept;
	free(syms);
}

int auto_args_write(const char *program, const struct arch_desc *arch, FILE *out,
		    FILE *enums)
{
	struct walk w = { .arch = arch };
	struct elf_file f;
	int fd = open(program, O_RDONLY | O_CLOEXEC), ret = -1;

	if (fd < 0 || elf_open_path(&f, program)) {
		cli_error("--auto-args: cannot read %s", program);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (walk_dwarf(fd, &w)) {
		cli_error("--auto-args: %s has no DWARF: build it with -g", program);
		goto out;
	}
	keep_confirmed(&w, &f);
	ret = (int)write_specs(out, enums, w.v, w.nr);
out:
	free_candidates(&w);
	elf_close(&f);
	close(fd);
	return ret;
}
