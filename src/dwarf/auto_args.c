// SPDX-License-Identifier: GPL-2.0
/*
 * record --auto-args: argument specs written from the program's DWARF,
 * one per function it defines, as if given with -A and -R:
 *
 *   int parse(const char *s, unsigned short n, double k)
 *       -> parse@arg1/s,arg2/u16,farg1,retval/i32
 *
 * A parameter's type says how to print it and which registers carry it
 * (dwarf_types.c); a struct passed by value is flattened into its
 * fields, which the arch places by its calling convention:
 *
 *   double dist(struct point p, struct point q)   (struct point {int x, y;})
 *       -> dist@arg1/i32:p.x,arg1+4/i32:p.y,arg2/i32:q.x,arg2+4/i32:q.y,retval/f64
 *
 * What goes on the stack (long double, a large struct) takes no
 * register and is skipped; anything the list cannot place (varargs, a
 * C++ class that may be passed by reference) ends it there: a guess
 * would put the next values under the wrong names.  A struct returned in
 * memory takes the first register for its address where the arch says
 * so; one returned in registers is not recorded.
 *
 * A definition is trusted only where the symbol table has its name at
 * its address: gcc's clones (f.isra.0, f.constprop.0) describe their own
 * parameters under the original's name.  A name defined twice with
 * different parameters (two static functions) is left out.
 */
#include "auto_args.h"
#include "../cli/cli.h"
#include "dwarf_types.h"
#include "../arch/arch.h"
#include "../common/argspec.h"
#include "../common/array.h"
#include "../common/trace_format.h"
#include "../elf/elf.h"
#include "../target/target.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The items of a spec as they are written, and the registers they took. */
struct item_list {
	char *buf;
	size_t len, at;
	unsigned n;		/* items */
	unsigned ints, fps;	/* argument registers taken */
	FILE *enums;
};

/* A name the spec syntax takes: a parameter's, or a field's path. */
static int nameable(const char *name)
{
	return name && ((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') ||
			*name == '_') && strlen(name) <= ARGSPEC_MAX_NAME;
}

/* ",argN+B/T:NAME": fp picks fargN; B, and the name, only if there are. */
static void put_item(struct item_list *l, int fp, unsigned pos, unsigned shift,
		     const char *type, const char *name)
{
	l->at += snprintf(l->buf + l->at, l->len - l->at, "%s%s%u", l->n ? "," : "",
			  fp ? "farg" : "arg", pos);
	if (shift && l->at < l->len)
		l->at += snprintf(l->buf + l->at, l->len - l->at, "+%u", shift);
	if (l->at < l->len)
		l->at += snprintf(l->buf + l->at, l->len - l->at, "/%s", type);
	if (nameable(name) && l->at < l->len)
		l->at += snprintf(l->buf + l->at, l->len - l->at, ":%s", name);
	l->n++;
}

static const char *param_name(Dwarf_Die *param)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(param, DW_AT_name, &attr) ? dwarf_formstring(&attr) : NULL;
}

/* A struct parameter's fields, each where the arch places it; one on
 * the stack takes no register, and the list goes on.  -1: the list
 * stops here. */
static int aggregate_items(const struct walk *w, Dwarf_Die *type, const char *name,
			   struct item_list *l)
{
	const struct arch_desc *arch = w->arch;
	struct dwt_aggregate agg;
	enum arch_pass where;
	unsigned ints, fps;

	if (!arch->place_aggregate || dwt_flatten(type, name, &agg))
		return -1;
	where = arch->place_aggregate(agg.where, agg.n, agg.size, arch->int_arg_regs - l->ints,
				      arch->fp_arg_regs - l->fps, &ints, &fps);
	if (where == ARCH_PASS_MEMORY)
		return 0;
	if (where != ARCH_PASS_REGS || agg.overflow)
		return -1;
	for (unsigned i = 0; i < agg.n; i++) {
		const struct arch_scalar *v = &agg.where[i];

		if (!agg.field[i].name[0])
			continue;	/* a bit-field */
		if (l->n == ARGSPEC_MAX_ITEMS - 1)
			return -1;
		put_item(l, v->fp, (v->fp ? l->fps : l->ints) + 1 + v->reg, v->shift,
			 agg.field[i].type, agg.field[i].name);
	}
	l->ints += ints;
	l->fps += fps;
	return 0;
}

/* A scalar parameter's item, its enum's values beside; -1: the list
 * stops here. */
static int scalar_item(const struct walk *w, Dwarf_Die *param, Dwarf_Die *type,
		       const char *t, enum pass pass, struct item_list *l)
{
	unsigned pos = pass == PASS_INT ? ++l->ints : ++l->fps;

	if (!t || l->n == ARGSPEC_MAX_ITEMS - 1 ||
	    pos > (pass == PASS_INT ? w->arch->int_arg_regs : w->arch->fp_arg_regs))
		return -1;
	put_item(l, pass == PASS_FP, pos, 0, t, param_name(param));
	put_enumerators(l->enums, pass == PASS_INT ? pos : 0, type);
	return 0;
}

/* "argN/T:NAME" or "fargN/T:NAME" for each parameter while their
 * registers are known, and their enums' values. */
static void param_items(const struct walk *w, Dwarf_Die *fn, struct item_list *l)
{
	Dwarf_Die child, tmem, *type;
	int stop = 0;

	l->buf[0] = '\0';
	if (dwarf_child(fn, &child) != 0)
		return;
	do {
		enum pass pass;
		const char *t;

		if (dwarf_tag(&child) == DW_TAG_unspecified_parameters)
			break;
		if (dwarf_tag(&child) != DW_TAG_formal_parameter)
			continue;
		type = dwt_type_of(&child, &tmem);
		t = dwt_classify(type, &pass);
		if (pass == PASS_AGGREGATE)
			stop = aggregate_items(w, type, param_name(&child), l);
		else if (pass == PASS_INT || pass == PASS_FP)
			stop = scalar_item(w, &child, type, t, pass, l);
		else
			stop = pass != PASS_STACK;
	} while (!stop && l->at < l->len && dwarf_siblingof(&child, &child) == 0);
}

/*
 * What the return value's type does: its item type in *rt (NULL: none
 * recorded), and the argument registers it takes first (a hidden
 * pointer to memory for a large struct); -1: no spec at all.  A struct
 * returned in registers is not recorded.
 */
static int return_type(const struct walk *w, Dwarf_Die *ret, const char **rt, unsigned *ints)
{
	const struct arch_desc *arch = w->arch;
	struct dwt_aggregate agg;
	enum pass pass;
	unsigned used_int, used_fp;

	*rt = NULL;
	*ints = 0;
	if (!ret)
		return 0;
	*rt = dwt_classify(ret, &pass);
	if (pass == PASS_INT || pass == PASS_FP)
		return *rt ? 0 : -1;
	if (pass != PASS_AGGREGATE || !arch->place_aggregate || dwt_flatten(ret, NULL, &agg))
		return -1;
	switch (arch->place_aggregate(agg.where, agg.n, agg.size, arch->int_ret_regs,
				      arch->fp_ret_regs, &used_int, &used_fp)) {
	case ARCH_PASS_MEMORY:
		*ints = arch->sret_in_arg;
		return 0;
	case ARCH_PASS_REGS:
		return agg.overflow ? -1 : 0;
	default:
		return -1;
	}
}

/* The items for fn, or NULL if it gets no spec; its enums' values in
 * *enums (malloc'd, or NULL). */
static char *function_items(const struct walk *w, Dwarf_Die *fn, char **enums)
{
	Dwarf_Die tmem, *ret = dwt_type_of(fn, &tmem);
	char buf[1024];
	struct item_list l = { .buf = buf, .len = sizeof(buf) - 16 };
	const char *rt;
	size_t enums_len;

	*enums = NULL;
	if (return_type(w, ret, &rt, &l.ints))
		return NULL;
	l.enums = open_memstream(enums, &enums_len);
	if (ret)
		put_enumerators(l.enums, 0, ret);
	param_items(w, fn, &l);
	if (l.enums && (fclose(l.enums) || !enums_len)) {
		free(*enums);
		*enums = NULL;
	}
	if (l.at >= l.len - 1 || !(l.n || rt)) {
		free(*enums);
		*enums = NULL;
		return NULL;	/* nothing, or cut short: not a spec */
	}
	if (rt)
		snprintf(buf + l.at, 16, "%sretval/%s", l.n ? "," : "", rt);
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

/* The text a memstream held in *text, or NULL (freed) if it failed. */
static char *stream_text(FILE *f, char **text, int ok)
{
	if (f && fclose(f))
		ok = 0;
	if (!f || !ok) {
		free(*text);
		*text = NULL;
	}
	return *text;
}

char *auto_args_of_process(pid_t pid, char **enums)
{
	char path[64], *specs = NULL;
	size_t specs_len, enums_len;
	struct cli_target t;
	const struct arch_desc *arch;
	FILE *out, *en;
	int n = -1;

	*enums = NULL;
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	if (access(path, R_OK)) {
		cli_error("--auto-args: cannot read the program of process %d", (int)pid);
		return NULL;
	}
	if (cli_target_of(path, &t) || !(arch = cli_target_auto_args_arch(&t)))
		return NULL;
	out = open_memstream(&specs, &specs_len);
	en = open_memstream(enums, &enums_len);
	if (!out || !en)
		cli_error("out of memory");
	else
		n = auto_args_write(path, arch, out, en);
	if (n == 0)
		cli_error("--auto-args: the DWARF of process %d's program describes no "
			  "function's parameters", (int)pid);
	stream_text(en, enums, n > 0);
	stream_text(out, &specs, n > 0 && *enums);
	if (!specs && n > 0)
		cli_error("out of memory");
	if (!specs) {
		free(*enums);
		*enums = NULL;
	}
	return specs;
}
