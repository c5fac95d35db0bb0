// SPDX-License-Identifier: GPL-2.0
/*
 * The remote stream's framing, both sides (stream.h).
 */
#include "stream.h"

#include <string.h>

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static size_t cut(const char *s)
{
	size_t n = strlen(s);

	return n > STREAM_TEXT_MAX ? STREAM_TEXT_MAX : n;
}

size_t stream_put_header(uint8_t *buf, const struct stream_header *h)
{
	size_t host = cut(h->host), prog = cut(h->prog);

	memcpy(buf, STREAM_MAGIC, 8);
	put32(buf + 8, STREAM_VERSION);
	put32(buf + 12, h->pid);
	buf[16] = host >> 8;
	buf[17] = host;
	buf[18] = prog >> 8;
	buf[19] = prog;
	memcpy(buf + STREAM_HEADER_FIXED, h->host, host);
	memcpy(buf + STREAM_HEADER_FIXED + host, h->prog, prog);
	return STREAM_HEADER_FIXED + host + prog;
}

int stream_get_header(const uint8_t *buf, struct stream_header *h, unsigned *host_len,
		      unsigned *prog_len, const char **why)
{
	*why = NULL;
	if (memcmp(buf, STREAM_MAGIC, 8))
		*why = "not an fntrace stream (bad magic)";
	h->version = get32(buf + 8);
	h->pid = get32(buf + 12);
	*host_len = (unsigned)buf[16] << 8 | buf[17];
	*prog_len = (unsigned)buf[18] << 8 | buf[19];
	if (!*why && h->version != STREAM_VERSION)
		*why = "a stream of another version";
	if (!*why && (*host_len > STREAM_TEXT_MAX || *prog_len > STREAM_TEXT_MAX))
		*why = "a header whose host or program name is too long";
	return *why ? -1 : 0;
}

void stream_put_record(uint8_t *buf, unsigned type, unsigned name_len, uint32_t len)
{
	buf[0] = type;
	buf[1] = name_len;
	put32(buf + 2, len);
}

int stream_get_record(const uint8_t *buf, unsigned *type, unsigned *name_len,
		      uint32_t *len, const char **why)
{
	*type = buf[0];
	*name_len = buf[1];
	*len = get32(buf + 2);
	*why = NULL;
	if (*type < STREAM_FILE || *type > STREAM_ABORT)
		*why = "a record of no known type";
	else if (*len > STREAM_PAYLOAD_MAX)
		*why = "a record longer than 16 MB";
	else if (*type == STREAM_END && (*name_len || *len))
		*why = "an end record with a name or bytes";
	else if (*type == STREAM_ABORT && (*name_len || *len > STREAM_ABORT_MAX))
		*why = "an abort record with a name or a long reason";
	else if (*type < STREAM_END && !*name_len)
		*why = "a record with no file name";
	return *why ? -1 : 0;
}

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '+' || c == '-';
}

/* No '/', so no absolute path and no "a/../b"; no leading dot, so
 * neither "." nor ".." nor a temporary file's name. */
int stream_name_ok(const char *name, size_t len)
{
	if (!len || len > STREAM_NAME_MAX || name[0] == '.')
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!name_char(name[i]))
			return 0;
	return 1;
}

void stream_safe_text(char *text)
{
	if (!text[0]) {
		strcpy(text, "unknown");
		return;
	}
	for (char *p = text; *p; p++)
		if (!name_char(*p) || (p == text && *p == '.'))
			*p = '_';
}
