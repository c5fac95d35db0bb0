// SPDX-License-Identifier: GPL-2.0
/*
 * Parameter types from DWARF, for record --auto-args (dwarf_types.h).
 *
 * A scalar's type says how to print it and which kind of register takes
 * it: integers, bool, enums, characters and pointers an integer one,
 * float and double a floating-point one; a char pointer is a string.  A
 * struct, union or class is flattened into its scalars, in order, each
 * named by its path from the parameter:
 *
 *   struct seg { struct { int x, y; } a; float w[2]; } s
 *       -> s.a.x (i32 at 0), s.a.y (i32 at 4), s.w[0] (f32 at 8), s.w[1] (f32 at 12)
 *
 * and the arch places them.  In C++ a class that has member functions or
 * bases of its own (or holds one) may be passed by a hidden reference,
 * which gcc's DWARF does not say: such a class is not placed at all.
 */
#include "dwarf_types.h"

#include <dwarf.h>
#include <stdio.h>
#include <string.h>

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

Dwarf_Die *dwt_type_of(Dwarf_Die *die, Dwarf_Die *mem)
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
	Dwarf_Die mem, *to = dwt_type_of(ptr, &mem);
	int enc = to && dwarf_tag(to) == DW_TAG_base_type ? encoding(to) : -1;

	return (enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char) &&
	       dwarf_bytesize(to) == 1 ? "s" : "p";
}

const char *dwt_classify(Dwarf_Die *type, enum pass *pass)
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
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		*pass = PASS_AGGREGATE;
		return NULL;
	}
	return NULL;
}

/* ---- flattening an aggregate ---- */

struct flattening {
	struct dwt_aggregate *out;
	int cxx;		/* the type is C++'s */
};

static int is_cxx(Dwarf_Die *die)
{
	Dwarf_Die cu;
	int lang = dwarf_diecu(die, &cu, NULL, NULL) ? dwarf_srclang(&cu) : -1;

	return lang == DW_LANG_C_plus_plus || lang == DW_LANG_C_plus_plus_03 ||
	       lang == DW_LANG_C_plus_plus_11 || lang == DW_LANG_C_plus_plus_14;
}

/* prefix.member, prefix[i], or prefix (an anonymous member) into buf; -1
 * if it does not fit a spec's name. */
static int join_name(char *buf, const char *prefix, const char *member, int index)
{
	int n = index >= 0 ? snprintf(buf, ARGSPEC_MAX_NAME + 1, "%s[%d]", prefix, index) :
		member ? snprintf(buf, ARGSPEC_MAX_NAME + 1, "%s.%s", prefix, member) :
			 snprintf(buf, ARGSPEC_MAX_NAME + 1, "%s", prefix);

	return n < 0 || n > ARGSPEC_MAX_NAME ? -1 : 0;
}

static int push(struct flattening *fl, uint32_t offset, unsigned size, int fp, int odd,
		const char *name, const char *type)
{
	struct dwt_aggregate *a = fl->out;

	if (a->n == DWT_MAX_FIELDS) {
		a->overflow = 1;
		return 0;
	}
	a->where[a->n] = (struct arch_scalar){ .offset = offset, .size = size, .fp = fp,
					       .odd = odd };
	snprintf(a->field[a->n].name, sizeof(a->field[a->n].name), "%s", name);
	a->field[a->n++].type = type;
	return 0;
}

static int flatten_type(struct flattening *fl, Dwarf_Die *type, uint32_t offset,
			const char *name);

/* A scalar: a long double is set apart (the arch says where it goes);
 * a type that cannot be printed at all cannot be placed either. */
static int flatten_scalar(struct flattening *fl, Dwarf_Die *type, uint32_t offset,
			  const char *name)
{
	Dwarf_Word size;
	enum pass pass;
	const char *t = dwt_classify(type, &pass);

	if (dwarf_aggregate_size(type, &size) || !size || size > 255)
		return -1;
	if (pass == PASS_STACK && dwarf_tag(type) == DW_TAG_base_type)
		return push(fl, offset, (unsigned)size, 1, 1, name, "");
	if (!t || (pass != PASS_INT && pass != PASS_FP))
		return -1;
	return push(fl, offset, (unsigned)size, pass == PASS_FP, 0, name, t);
}

/* One dimension, its count of elements known. */
static int flatten_array(struct flattening *fl, Dwarf_Die *array, uint32_t offset,
			 const char *name)
{
	Dwarf_Die elem_mem, *elem = dwt_type_of(array, &elem_mem), sub;
	Dwarf_Word count, esize;
	char path[ARGSPEC_MAX_NAME + 1];

	if (!elem || dwarf_child(array, &sub) || dwarf_tag(&sub) != DW_TAG_subrange_type ||
	    dwarf_siblingof(&sub, &sub) == 0 || dwarf_aggregate_size(array, &count) ||
	    dwarf_aggregate_size(elem, &esize) || !esize)
		return -1;
	count /= esize;
	for (Dwarf_Word i = 0; i < count; i++)
		if (join_name(path, name, NULL, (int)i) ||
		    flatten_type(fl, elem, offset + (uint32_t)(i * esize), path))
			return -1;
	return 0;
}

/*
 * A bit-field classes the bytes it lies in as integer ones, and is not
 * printed: its first and last byte stand for it.  Where the DWARF gives
 * only its storage unit (the older DW_AT_bit_offset form clang 14
 * writes), the unit stands for it: integer bytes within the value all
 * the same.
 */
static int flatten_bitfield(struct flattening *fl, Dwarf_Die *member, uint32_t offset)
{
	Dwarf_Attribute attr;
	Dwarf_Word bit_off = 0, bits;
	int unit = dwarf_bytesize(member);

	if (dwarf_bitsize(member) <= 0)
		return -1;
	if (!dwarf_attr(member, DW_AT_data_bit_offset, &attr))
		return unit > 0 ? push(fl, offset, (unsigned)unit, 0, 0, "", "") : -1;
	if (dwarf_formudata(&attr, &bit_off))
		return -1;
	bits = (Dwarf_Word)dwarf_bitsize(member);
	if (push(fl, offset + (uint32_t)(bit_off / 8), 1, 0, 0, "", ""))
		return -1;
	return push(fl, offset + (uint32_t)((bit_off + bits - 1) / 8), 1, 0, 0, "", "");
}

static int flatten_member(struct flattening *fl, Dwarf_Die *member, uint32_t offset,
			  const char *name)
{
	Dwarf_Attribute attr;
	Dwarf_Word at = 0;
	Dwarf_Die mem, *type;
	char path[ARGSPEC_MAX_NAME + 1];

	if (dwarf_hasattr(member, DW_AT_external) || dwarf_hasattr(member, DW_AT_declaration))
		return 0;	/* a static member: not in the value */
	if (dwarf_attr(member, DW_AT_data_member_location, &attr) &&
	    dwarf_formudata(&attr, &at))
		return -1;	/* a location expression: a virtual base */
	if (dwarf_hasattr(member, DW_AT_bit_size))
		return flatten_bitfield(fl, member, offset + (uint32_t)at);
	type = dwt_type_of(member, &mem);
	if (!type || join_name(path, name, dwarf_diename(member), -1))
		return -1;
	return flatten_type(fl, type, offset + (uint32_t)at, path);
}

static int flatten_members(struct flattening *fl, Dwarf_Die *type, uint32_t offset,
			   const char *name)
{
	Dwarf_Die child;

	if (dwarf_hasattr(type, DW_AT_declaration))
		return -1;	/* incomplete */
	if (dwarf_child(type, &child))
		return 0;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_member:
			if (flatten_member(fl, &child, offset, name))
				return -1;
			break;
		case DW_TAG_subprogram:
		case DW_TAG_inheritance:
			if (fl->cxx)
				return -1;
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

static int flatten_type(struct flattening *fl, Dwarf_Die *type, uint32_t offset,
			const char *name)
{
	switch (dwarf_tag(type)) {
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		return flatten_members(fl, type, offset, name);
	case DW_TAG_array_type:
		return flatten_array(fl, type, offset, name);
	}
	return flatten_scalar(fl, type, offset, name);
}

int dwt_flatten(Dwarf_Die *type, const char *name, struct dwt_aggregate *out)
{
	struct flattening fl = { out, is_cxx(type) };
	int size = dwarf_bytesize(type);

	memset(out, 0, sizeof(*out));
	if (size <= 0)
		return -1;
	out->size = (uint32_t)size;
	return flatten_type(&fl, type, 0, name ? name : "");
}
