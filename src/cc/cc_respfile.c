// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace cc: @FILE arguments, read as gcc reads them, so that what they
 * hold gets its role like any other argument.  Words are separated by
 * white space; single or double quotes keep it in a word; a backslash
 * takes the next character as it is.  A @FILE inside is read too.  A
 * @FILE that cannot be read stays an argument, as gcc keeps it.
 */
#include "cc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NESTING 16

int cc_next_word(const char **p, char **word)
{
	const char *s = *p + strspn(*p, " \t\n\r\f\v");
	char *out, quote = 0;

	if (!*s)
		return 0;
	*word = out = malloc(strlen(s) + 1);
	if (!out)
		return -1;
	for (; *s && (quote || !strchr(" \t\n\r\f\v", *s)); s++) {
		if (*s == '\\' && s[1])
			*out++ = *++s;
		else if (quote ? *s == quote : (*s == '\'' || *s == '"'))
			quote = quote ? 0 : *s;
		else
			*out++ = *s;
	}
	*out = 0;
	*p = s;
	return 1;
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	if (getdelim(&text, &len, 0, f) < 0) {
		free(text);
		text = strdup("");	/* an empty file: no words */
	}
	fclose(f);
	return text;
}

static int expand(struct cmd *w, char *arg, int depth);

static int expand_text(struct cmd *w, const char *text, int depth)
{
	char *word;
	int found;

	while ((found = cc_next_word(&text, &word)) > 0)
		if (expand(w, word, depth))
			return -1;
	return found;
}

/* arg, or the words of the file it names; arg is consumed. */
static int expand(struct cmd *w, char *arg, int depth)
{
	char *text = arg[0] == '@' && depth < MAX_NESTING ? read_text(arg + 1) : NULL;
	int ret;

	if (!text) {
		if (cmd_push(w, arg) == 0)
			return 0;
		free(arg);
		return -1;
	}
	ret = expand_text(w, text, depth + 1);
	free(text);
	free(arg);
	return ret;
}

int cc_expand_response_files(int argc, char **argv, int *out_argc, char ***out_argv)
{
	struct cmd w = { 0 };

	for (int i = 0; i < argc; i++) {
		char *copy = strdup(argv[i]);

		if (!copy || expand(&w, copy, 0)) {
			cc_free_words(w.v);
			return -1;
		}
	}
	if (!w.v && !(w.v = calloc(1, sizeof(*w.v))))
		return -1;
	*out_argc = w.n;
	*out_argv = w.v;
	return 0;
}

void cc_free_words(char **v)
{
	for (char **p = v; p && *p; p++)
		free(*p);
	free(v);
}
