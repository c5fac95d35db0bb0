// SPDX-License-Identifier: GPL-2.0
/*
 * A command line as one line of text that a POSIX shell reads back into
 * the same words: for the data directory's info, whose lines are
 * `key: value`.  An argument may hold any byte but NUL (a newline, a
 * quote, bytes that are not UTF-8), and may be long: none is cut.
 *
 *   plain words         ./prog -n 5
 *   spaces, quotes      'a b' 'it'\''s'
 *   control, non-ASCII  $'5\nx' $'\xff'
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_plain(const char *w)
{
	return *w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			       "0123456789_@%+=:,./-") == strlen(w);
}

static int is_printable(const char *w)
{
	for (; *w; w++)
		if ((unsigned char)*w < 0x20 || (unsigned char)*w >= 0x7f)
			return 0;
	return 1;
}

static void single_quoted(FILE *out, const char *w)
{
	fputc('\'', out);
	for (; *w; w++)
		if (*w == '\'')
			fputs("'\\''", out);
		else
			fputc(*w, out);
	fputc('\'', out);
}

/* bash's, zsh's and POSIX 2024's $'...': every byte representable. */
static void dollar_quoted(FILE *out, const char *w)
{
	fputs("$'", out);
	for (; *w; w++) {
		unsigned char c = *w;

		if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c == '\\' || c == '\'')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
	fputc('\'', out);
}

char *cli_command_line(char *const *argv, size_t argc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		return NULL;
	for (size_t i = 0; i < argc; i++) {
		if (i)
			fputc(' ', out);
		if (is_plain(argv[i]))
			fputs(argv[i], out);
		else if (is_printable(argv[i]))
			single_quoted(out, argv[i]);
		else
			dollar_quoted(out, argv[i]);
	}
	if (fclose(out)) {
		free(text);
		return NULL;
	}
	return text;
}
