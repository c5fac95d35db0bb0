/* SPDX-License-Identifier: GPL-2.0 */
/*
 * C++ names as people write them: a demangled name without its parameter
 * list ("ns::Cls::method(int) const" -> "ns::Cls::method"), as uftrace
 * prints them and as filters take them.  The demangling itself is
 * libstdc++'s __cxa_demangle, found by each side its own way.
 */
#ifndef FNTRACE_CXX_NAME_H
#define FNTRACE_CXX_NAME_H

#include <stddef.h>

typedef char *(*cxx_demangler)(const char *mangled, char *buf, size_t *len, int *status);

/* name demangled by fn, its parameters dropped (malloc'd); NULL if name is
 * not a C++ name, fn is NULL or cannot demangle it. */
char *cxx_plain_name(cxx_demangler fn, const char *name);

#endif
