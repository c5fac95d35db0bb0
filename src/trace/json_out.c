// SPDX-License-Identifier: GPL-2.0
/*
 * JSON text, buffered and formatted by hand (json_out.h).
 */
#include "json_out.h"

#include <errno.h>
#include <stdlib.h>

int json_out_init(struct json_out *o, FILE *f)
{
	*o = (struct json_out) { .f = f };
	o->buf = malloc(JSON_OUT_SIZE + JSON_OUT_PIECE);
	return o->buf ? 0 : -1;
}

void json_out_free(struct json_out *o)
{
	free(o->buf);
	o->buf = NULL;
}

int json_out_flush(struct json_out *o)
{
	if (!o->error && o->len) {
		errno = 0;
		if (fwrite(o->buf, 1, o->len, o->f) != o->len)
			o->error = errno ? errno : EIO;
	}
	o->written += o->len;
	o->len = 0;
	return o->error ? -1 : 0;
}

void json_out_raw(struct json_out *o, const char *s, size_t n)
{
	while (n) {
		size_t room = JSON_OUT_SIZE + JSON_OUT_PIECE - o->len;
		size_t take = n < room ? n : room;

		memcpy(o->buf + o->len, s, take);
		o->len += take;
		s += take;
		n -= take;
		if (n)
			json_out_flush(o);
	}
}

/* ---- strings ---- */

/* The length of the well-formed UTF-8 sequence at s (n bytes left) that
 * starts with a byte >= 0x80, or 0: no overlong forms, no surrogates,
 * nothing past U+10FFFF (RFC 3629), as a strict JSON parser wants. */
static unsigned utf8_length(const unsigned char *s, size_t n)
{
	static const uint32_t least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	unsigned len;
	uint32_t c;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (n < len)
		return 0;
	c = s[0] & (0x7f >> len);
	for (unsigned i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < least[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return len;
}

/* The escape of a byte below 0x20, '"' or '\', at p. */
static char *put_escape(char *p, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	static const char short_form[] = {
		['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n', ['\f'] = 'f', ['\r'] = 'r',
		['"'] = '"', ['\\'] = '\\',
	};

	*p++ = '\\';
	if (c < sizeof(short_form) && short_form[c]) {
		*p++ = short_form[c];
		return p;
	}
	p = json_put(p, "u00", 3);
	*p++ = hex[c >> 4];
	*p++ = hex[c & 15];
	return p;
}

static int plain(unsigned char c)
{
	return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

/* Escapes from *s towards end into dst while a unit's worst case (six
 * bytes: \u00XX) fits in the room left; moves *s past what it took and
 * returns the bytes written. */
static size_t escape_some(const unsigned char **s, const unsigned char *end,
			  char *dst, size_t room)
{
	const unsigned char *p = *s;
	char *d = dst;

	while (p < end && (size_t)(d - dst) + 6 <= room) {
		unsigned len;

		if (plain(*p)) {
			*d++ = *p++;
		} else if (*p < 0x80) {
			d = put_escape(d, *p++);
		} else if ((len = utf8_length(p, end - p))) {
			d = json_put(d, (const char *)p, len);
			p += len;
		} else {
			d = json_put(d, "\xef\xbf\xbd", 3);	/* U+FFFD */
			p++;
		}
	}
	*s = p;
	return d - dst;
}

void json_out_string(struct json_out *o, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	json_out_raw(o, "\"", 1);
	while (p < end) {
		json_out_room(o);
		o->len += escape_some(&p, end, o->buf + o->len,
				      JSON_OUT_SIZE + JSON_OUT_PIECE - o->len);
	}
	json_out_raw(o, "\"", 1);
}

char *json_quote(const char *s, size_t n, size_t *len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t cap = 6 * n + 3;		/* every byte escaped, quotes, NUL */
	char *q = malloc(cap);

	if (!q)
		return NULL;
	q[0] = '"';
	*len = 1 + escape_some(&p, p + n, q + 1, cap - 3);
	q[(*len)++] = '"';
	q[*len] = '\0';
	return q;
}

/* ---- numbers ---- */

static unsigned decimal_digits(uint64_t v)
{
	unsigned n = 1;

	for (uint64_t ten = 10; n < 20 && v >= ten; ten *= 10)
		n++;
	return n;
}

/* Digits are written straight to their place, from the last: a copy
 * from a scratch buffer would read back what was just stored in small
 * pieces, which the CPU cannot forward, and stall. */
char *json_put_u64(char *p, uint64_t v)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char *end = p + decimal_digits(v), *t = end;

	while (v >= 100) {
		t -= 2;
		memcpy(t, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(t - 2, pairs + 2 * v, 2);
	else
		t[-1] = '0' + v;
	return end;
}

char *json_put_usec(char *p, uint64_t ns)
{
	unsigned frac = ns % 1000;

	p = json_put_u64(p, ns / 1000);
	p[0] = '.';
	p[1] = '0' + frac / 100;
	p[2] = '0' + frac / 10 % 10;
	p[3] = '0' + frac % 10;
	return p + 4;
}
