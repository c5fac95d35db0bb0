// SPDX-License-Identifier: GPL-2.0
/*
 * Demangling borrows libstdc++'s __cxa_demangle, loaded when first needed:
 * fntrace itself is C and links no C++ library; a machine with C++
 * programs to trace has libstdc++.  Without it, names stay as they are.
 * The parameter list is dropped, as uftrace does by default: the graph
 * prints "name() {" either way.
 */
#include "demangle.h"
#include "../common/cxx_name.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static cxx_demangler find_demangler(void)
{
	static cxx_demangler fn;
	static int tried;
	void *lib;

	if (tried++)
		return fn;
	lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
	if (lib)
		fn = (cxx_demangler)dlsym(lib, "__cxa_demangle");
	return fn;
}

char *demangle(const char *name)
{
	char *plain = strncmp(name, "_Z", 2) ? NULL : cxx_plain_name(find_demangler(), name);

	return plain ? plain : strdup(name);
}
