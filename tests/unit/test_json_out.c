// SPDX-License-Identifier: GPL-2.0
/* JSON text of the exports: strings of any bytes, numbers by hand, and a
 * buffer that passes long strings through whole. */
#include "unit.h"
#include "trace/json_out.h"

#include <stdlib.h>
#include <string.h>

/* s[0..n) as json_out_string() writes it, through a memory stream. */
static char *written(const char *s, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct json_out o;

	if (!f || json_out_init(&o, f))
		return NULL;
	json_out_string(&o, s, n);
	json_out_flush(&o);
	json_out_free(&o);
	fclose(f);
	return text;
}

static int writes(const char *s, size_t n, const char *want)
{
	char *got = written(s, n);
	size_t quoted_len;
	char *quoted = json_quote(s, n, &quoted_len);
	int ok = got && quoted && !strcmp(got, want) && !strcmp(quoted, want) &&
		 quoted_len == strlen(want);

	if (!ok)
		printf("  got %s / %s, want %s\n", got, quoted, want);
	free(got);
	free(quoted);
	return ok;
}

#define WRITES(s, want)	writes(s, sizeof(s) - 1, want)

static void test_strings(void)
{
	CHECK("json: plain text as it is", WRITES("fib", "\"fib\""));
	CHECK("json: quotes and backslashes escaped", WRITES("a\"b\\c", "\"a\\\"b\\\\c\""));
	CHECK("json: control characters, short and \\u forms",
	      WRITES("\n\t\r\b\f\x01\x1f", "\"\\n\\t\\r\\b\\f\\u0001\\u001f\""));
	CHECK("json: a NUL inside", WRITES("a\0b", "\"a\\u0000b\""));
	CHECK("json: UTF-8 of 2, 3 and 4 bytes as it is",
	      WRITES("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\""));
	CHECK("json: bytes that are not UTF-8 become U+FFFD each",
	      WRITES("a\xff\xfe" "b", "\"a\xef\xbf\xbd\xef\xbf\xbd" "b\""));
	CHECK("json: an overlong form is not UTF-8", WRITES("\xc0\xaf", "\"\xef\xbf\xbd\xef\xbf\xbd\""));
	CHECK("json: a surrogate is not UTF-8",
	      WRITES("\xed\xa0\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""));
	CHECK("json: past U+10FFFF is not UTF-8",
	      WRITES("\xf4\x90\x80\x80", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""));
	CHECK("json: a sequence cut by the end", WRITES("x\xe2\x82", "\"x\xef\xbf\xbd\xef\xbf\xbd\""));
	CHECK("json: DEL is JSON as it is", WRITES("\x7f", "\"\x7f\""));
}

/* A string larger than the buffer, every byte escaped: the output must
 * be whole, in order. */
static void test_long_string(void)
{
	size_t n = 3 * JSON_OUT_SIZE;
	char *s = malloc(n), *got;
	size_t i;
	int ok;

	memset(s, '\n', n);
	got = written(s, n);
	ok = got && strlen(got) == 2 * n + 2 && got[0] == '"' && got[2 * n + 1] == '"';
	for (i = 0; ok && i < n; i++)
		ok = got[1 + 2 * i] == '\\' && got[2 + 2 * i] == 'n';
	CHECK("json: a string six times the buffer, whole", ok);
	free(s);
	free(got);
}

static int formats(uint64_t v, int usec, const char *want)
{
	char buf[64], *end = usec ? json_put_usec(buf, v) : json_put_u64(buf, v);

	*end = '\0';
	if (strcmp(buf, want))
		printf("  got %s, want %s\n", buf, want);
	return !strcmp(buf, want);
}

static void test_numbers(void)
{
	CHECK("json: 0", formats(0, 0, "0"));
	CHECK("json: 9, 10, 99, 100", formats(9, 0, "9") && formats(10, 0, "10") &&
	      formats(99, 0, "99") && formats(100, 0, "100"));
	CHECK("json: the largest u64", formats(UINT64_MAX, 0, "18446744073709551615"));
	CHECK("json: ns as us, three decimals", formats(1234567, 1, "1234.567"));
	CHECK("json: under a microsecond", formats(5, 1, "0.005") && formats(0, 1, "0.000"));
	CHECK("json: whole microseconds", formats(20000, 1, "20.000"));
}

int main(void)
{
	test_strings();
	test_long_string();
	test_numbers();
	return unit_done();
}
