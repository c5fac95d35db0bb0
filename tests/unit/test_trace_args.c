// SPDX-License-Identifier: GPL-2.0
/*
 * The text of an ARGS event's values (trace/trace_args.h): every type and
 * size, the escapes, the cut of a short buffer, and damaged events that
 * must show what fits and nothing past their words.
 */
#include "unit.h"
#include "common/trace_format.h"
#include "trace/trace_args.h"

#include <stdlib.h>
#include <string.h>

/* One event's items, built as the writer lays them out. */
struct items {
	uint32_t w[128];
	uint32_t n;
};

static void add(struct items *it, unsigned type, unsigned pos, unsigned size, uint64_t v)
{
	it->w[it->n++] = ft_arg_head(type, pos, size);
	it->w[it->n++] = (uint32_t)v;
	it->w[it->n++] = (uint32_t)(v >> 32);
}

static void add_double(struct items *it, double d)
{
	uint64_t v;

	memcpy(&v, &d, sizeof(v));
	add(it, FT_ARG_DOUBLE, 1, 8, v);
}

static void add_float(struct items *it, float f)
{
	uint32_t v;

	memcpy(&v, &f, sizeof(v));
	add(it, FT_ARG_FLOAT, 1, 4, v);
}

static void add_string(struct items *it, unsigned pos, const char *s, size_t len, int cut)
{
	uint32_t words = (len + 3) / 4;

	it->w[it->n++] = ft_arg_head(FT_ARG_STRING, pos, len) | (cut ? FT_ARG_TRUNCATED : 0);
	memset(&it->w[it->n], 0, words * 4);
	memcpy(&it->w[it->n], s, len);
	it->n += words;
}

/* The items' text, with a canary past the buffer that must survive. */
static int formats_as(const struct items *it, size_t size, const char *want)
{
	char buf[TR_ARGS_TEXT_LEN + 8];
	size_t len;

	memset(buf, 'Z', sizeof(buf));
	len = tr_args_format(it->w, it->n, buf, size);
	if (buf[size] != 'Z' || len != strlen(buf) || strcmp(buf, want)) {
		printf("  got '%s' (%zu), want '%s'\n", buf[size] == 'Z' ? buf : "(overflow)",
		       len, want);
		return 0;
	}
	return 1;
}

#define EXPECT(name, it, want)	CHECK(name, formats_as(it, TR_ARGS_TEXT_LEN, want))

static void test_integers(void)
{
	struct items it = { 0 };

	add(&it, FT_ARG_SIGNED, 1, 1, 0xff);
	add(&it, FT_ARG_SIGNED, 2, 2, 0x12348000);
	add(&it, FT_ARG_SIGNED, 3, 4, 0xfffffffeull);
	add(&it, FT_ARG_SIGNED, 4, 8, (uint64_t)INT64_MIN);
	add(&it, FT_ARG_SIGNED, 5, 4, 0xdead00000007ull);
	EXPECT("signed: i8 i16 i32 i64, truncated and sign-extended", &it,
	       "-1, -32768, -2, -9223372036854775808, 7");
	it.n = 0;
	add(&it, FT_ARG_UNSIGNED, 1, 1, 0x1ff);
	add(&it, FT_ARG_UNSIGNED, 2, 8, UINT64_MAX);
	add(&it, FT_ARG_HEX, 3, 8, 0x10);
	add(&it, FT_ARG_HEX, 4, 2, 0xabcdef);
	EXPECT("unsigned u8 u64, hex x64 x16", &it, "255, 18446744073709551615, 0x10, 0xcdef");
	it.n = 0;
	add(&it, FT_ARG_POINTER, 1, 8, 0x7ffd1230);
	add(&it, FT_ARG_POINTER, 2, 8, 0);
	add(&it, FT_ARG_POINTER, 3, 4, 0xffffffff80001000ull);
	EXPECT("pointer: hex, NULL as 0x0, a 32-bit one zero-extended", &it,
	       "0x7ffd1230, 0x0, 0x80001000");
}

static void test_chars(void)
{
	struct items it = { 0 };

	add(&it, FT_ARG_CHAR, 1, 1, 'a');
	add(&it, FT_ARG_CHAR, 2, 1, '\n');
	add(&it, FT_ARG_CHAR, 3, 1, 1);
	add(&it, FT_ARG_CHAR, 4, 1, '\'');
	add(&it, FT_ARG_CHAR, 5, 1, '"');
	add(&it, FT_ARG_CHAR, 6, 1, 0x1ff);
	add(&it, FT_ARG_CHAR, 7, 4, 0x263a);
	EXPECT("char: printable, escaped, truncated, wide", &it,
	       "'a', '\\n', '\\x01', '\\'', '\"', '\\xff', '\\x263a'");
}

static void test_floats(void)
{
	struct items it = { 0 };

	add_double(&it, 0.1);
	add_double(&it, 3.5);
	add_double(&it, -2);
	add_double(&it, 1.0 / 3);
	add_double(&it, 1e300 * 1e300);
	add_float(&it, 1.5f);
	add_float(&it, 0.1f);
	EXPECT("double and float: the shortest exact decimal", &it,
	       "0.1, 3.5, -2, 0.3333333333333333, inf, 1.5, 0.1");
}

static void test_strings(void)
{
	static const char odd[] = "say \"hi\"\n\tback\\slash \xff\x7f\x01";
	struct items it = { 0 };

	add_string(&it, 1, odd, sizeof(odd) - 1, 0);
	add_string(&it, 2, "abcd", 4, 1);
	add_string(&it, 3, "", 0, 0);
	add(&it, FT_ARG_BAD_STRING, 4, 8, 0);
	add(&it, FT_ARG_BAD_STRING, 5, 8, 0x1234);
	EXPECT("strings: escapes, cut, empty; unreadable ones", &it,
	       "\"say \\\"hi\\\"\\n\\tback\\\\slash \\xff\\x7f\\x01\", \"abcd\"..., \"\", "
	       "(null), 0x1234 (unreadable)");
}

static void test_cut(void)
{
	struct items it = { 0 };
	char big[FT_ARG_STRING_MAX], all[2 * TR_ARGS_TEXT_LEN] = "";

	add(&it, FT_ARG_SIGNED, 1, 8, 123456);
	add(&it, FT_ARG_HEX, 2, 8, 0x10);
	CHECK("cut: a short buffer ends in ...", formats_as(&it, 10, "123456...") &&
	      formats_as(&it, 4, "...") && formats_as(&it, 2, "1") &&
	      formats_as(&it, 13, "123456, 0x10"));
	/* Four strings of the longest kept, all escapes: 1049 bytes. */
	memset(big, 0xff, sizeof(big));
	it.n = 0;
	for (int i = 0; i < 4; i++) {
		add_string(&it, i + 1, big, sizeof(big), 1);
		strcat(all, i ? ", \"" : "\"");
		for (size_t k = 0; k < sizeof(big); k++)
			strcat(all, "\\xff");
		strcat(all, "\"...");
	}
	strcpy(all + TR_ARGS_TEXT_LEN - 4, "...");
	CHECK("cut: four long strings stop at the report's buffer",
	      formats_as(&it, TR_ARGS_TEXT_LEN, all));
}

/* What a damaged event gives: the items that fit, nothing past n words. */
static void test_damaged(void)
{
	struct items it = { 0 };
	struct tr_args_iter iter;
	struct tr_arg a;
	unsigned found = 0;
	char text[64];
	uint32_t *exact;

	add(&it, FT_ARG_SIGNED, 1, 8, 5);
	add(&it, 200, 2, 8, 5);
	add(&it, 0, 3, 8, 5);
	EXPECT("damaged: unknown types show as ?", &it, "5, ?, ?");
	it.n = 0;
	add(&it, FT_ARG_SIGNED, 1, 8, 5);
	add_string(&it, 2, "abcdefgh", 8, 0);
	it.w[it.n++] = ft_arg_head(FT_ARG_HEX, 3, 8);	/* its value is missing */
	it.w[it.n] = 7;
	EXPECT("damaged: an item past the event's end is left out", &it, "5, \"abcdefgh\"");
	it.w[3] = ft_arg_head(FT_ARG_STRING, 2, 200);	/* longer than the event */
	EXPECT("damaged: a string past the event's end is left out", &it, "5");
	tr_args_iter_init(&iter, it.w, 2);		/* half an item */
	while (tr_args_next(&iter, &a))
		found++;
	CHECK("damaged: nothing read past n words", found == 0);
	/* Strings end an event in memory of its exact size: under ASan
	 * (make check-sanitize), a read of a value they lack fails. */
	it.n = 0;
	add_string(&it, 1, "abc", 3, 0);
	add_string(&it, 2, "", 0, 0);
	exact = malloc(it.n * sizeof(*exact));
	memcpy(exact, it.w, it.n * sizeof(*exact));
	CHECK("damaged: strings at the very end, nothing read past them",
	      tr_args_format(exact, it.n, text, sizeof(text)) == 9 &&
	      !strcmp(text, "\"abc\", \"\""));
	free(exact);
}

static void test_keys(void)
{
	struct items it = { 0 };
	struct tr_args_iter iter;
	struct tr_arg a;
	char key[TR_ARG_KEY_MAX], keys[128] = "";

	add(&it, FT_ARG_POINTER, 1, 8, 0x1000);
	add_string(&it, 1, "x", 1, 0);
	add(&it, FT_ARG_SIGNED, 3, 4, 2);
	add(&it, FT_ARG_SIGNED, 0, 4, 7);
	tr_args_iter_init(&iter, it.w, it.n);
	while (tr_args_next(&iter, &a)) {
		strcat(keys, tr_arg_key(&a, key, sizeof(key)));
		strcat(keys, " ");
	}
	CHECK("keys: by position, a repeated one numbered",
	      !strcmp(keys, "arg1 arg1_2 arg3 retval "));
}

/* A struct's fields: where in the register, and from which kind. */
static void test_fields(void)
{
	struct items it = { 0 };
	struct tr_args_iter iter;
	struct tr_arg a[3];

	it.w[it.n++] = ft_arg_head(FT_ARG_SIGNED, 2, 4) | 4u << FT_ARG_OFFSET_SHIFT;
	it.w[it.n++] = (uint32_t)-3;
	it.w[it.n++] = 0;
	it.w[it.n++] = ft_arg_head(FT_ARG_FLOAT, 2, 4) | FT_ARG_FP_IN_INT;
	it.w[it.n++] = 0x3fc00000;	/* 1.5f */
	it.w[it.n++] = 0;
	add_float(&it, 0.5f);
	tr_args_iter_init(&iter, it.w, it.n);
	CHECK("fields: offset and register kind read back",
	      tr_args_next(&iter, &a[0]) && tr_args_next(&iter, &a[1]) &&
	      tr_args_next(&iter, &a[2]) && a[0].offset == 4 && !a[0].in_fp &&
	      a[1].offset == 0 && !a[1].in_fp && a[2].in_fp && a[2].offset == 0);
	CHECK("fields: formatted as their types", formats_as(&it, 64, "-3, 1.5, 0.5"));
}

int main(void)
{
	test_integers();
	test_chars();
	test_floats();
	test_strings();
	test_cut();
	test_damaged();
	test_keys();
	test_fields();
	return unit_done();
}
