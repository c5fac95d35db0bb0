// SPDX-License-Identifier: GPL-2.0
/*
 * C++ names without their parameter lists (cxx_name.h).
 */
#include "cxx_name.h"

#include <stdlib.h>
#include <string.h>

/* The parameter list is the last '(' at depth 0 whose ')' ends the name,
 * or is followed only by qualifiers. */
static void cxx_drop_parameters(char *s)
{
	int angle = 0, paren = 0;
	char *cut = NULL;

	for (char *p = s; *p; p++) {
		if (*p == '<')
			angle++;
		else if (*p == '>' && angle)
			angle--;
		else if (*p == '(' && !angle && !paren++)
			cut = p;
		else if (*p == ')' && paren)
			paren--;
	}
	if (cut && cut != s)
		*cut = '\0';
}

char *cxx_plain_name(cxx_demangler fn, const char *name)
{
	int status = -1;
	char *out;

	if (!fn || strncmp(name, "_Z", 2))
		return NULL;
	out = fn(name, NULL, NULL, &status);
	if (status != 0 || !out) {
		free(out);
		return NULL;
	}
	cxx_drop_parameters(out);
	return out;
}
