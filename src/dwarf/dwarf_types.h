/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --auto-args: what a parameter's DWARF type says of how to print
 * it and how it is passed; a struct's fields flattened for the arch to
 * place (arch_desc.place_aggregate).
 */
#ifndef FNTRACE_DWARF_TYPES_H
#define FNTRACE_DWARF_TYPES_H

#include "../arch/arch.h"
#include "../common/argspec.h"

#include <elfutils/libdw.h>

enum pass {
	PASS_INT,	/* in the next integer register */
	PASS_FP,	/* in the next floating-point register */
	PASS_STACK,	/* in memory: no register */
	PASS_AGGREGATE,	/* a struct, union or class: the arch places it */
	PASS_UNKNOWN,	/* cannot tell: stop here */
};

/* The type a DIE's DW_AT_type names, typedefs and qualifiers peeled;
 * NULL for none (void). */
Dwarf_Die *dwt_type_of(Dwarf_Die *die, Dwarf_Die *mem);
/* How a value of this type is passed, and its spec type ("i32", "s",
 * "f64"...; NULL for an aggregate or what cannot be printed). */
const char *dwt_classify(Dwarf_Die *type, enum pass *pass);

/* An aggregate's scalars, at most DWT_MAX_FIELDS: where each lies (for
 * the arch) and what the report calls it ("p.pos.x", "v[1]"). */
#define DWT_MAX_FIELDS 16

struct dwt_field {
	char name[ARGSPEC_MAX_NAME + 1];	/* "" for a bit-field: not printed */
	const char *type;			/* spec type */
};

struct dwt_aggregate {
	uint32_t size;
	unsigned n;
	int overflow;		/* more scalars than fit: not all listed */
	struct arch_scalar where[DWT_MAX_FIELDS];
	struct dwt_field field[DWT_MAX_FIELDS];
};

/* Flatten the aggregate type, its fields named from name; 0, or -1 if
 * it cannot be placed with confidence (a type that cannot be printed, a
 * C++ class with members of its own that may make it passed by
 * reference).  Past DWT_MAX_FIELDS scalars the list stops, and
 * overflow says so: placed only if the arch sends it to memory. */
int dwt_flatten(Dwarf_Die *type, const char *name, struct dwt_aggregate *out);

#endif
