// SPDX-License-Identifier: GPL-2.0
/*
 * Demangling borrows libstdc++'s __cxa_demangle, loaded when first needed:
 * fntrace itself is C and links no C++ library; a machine with C++
 * programs to trace has libstdc++.  Without it, names stay as they are.
 * The parameter list is dropped, as uftrace does by default: the graph
 * prints "name() {" either way.
 */
#include "demangle.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);

static demangle_fn find_demangler(void)
{
	static demangle_fn fn;
	static int tried;
	void *lib;

	if (tried++)
		return fn;
	lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
	if (lib)
		fn = (demangle_fn)dlsym(lib, "__cxa_demangle");
	return fn;
}

/* Cut "f(int) const" to "f", minding "<...>" and "(...)" inside templates:
 * the parameter list is the last '(' at depth 0 whose ')' ends the name,
 * or is followed only by qualifiers. */
static void drop_parameters(char *s)
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

char *demangle(const char *name)
{
	demangle_fn fn;
	char *out;
	int status = -1;

	if (strncmp(name, "_Z", 2) || !(fn = find_demangler()))
		return strdup(name);
	out = fn(name, NULL, NULL, &status);
	if (status != 0 || !out) {
		free(out);
		return strdup(name);
	}
	drop_parameters(out);
	return out;
}
