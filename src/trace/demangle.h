/* SPDX-License-Identifier: GPL-2.0 */
/*
 * C++ names as people read them: "_ZN2ns3Cls6methodEi" -> "ns::Cls::method".
 */
#ifndef FNTRACE_DEMANGLE_H
#define FNTRACE_DEMANGLE_H

/* A malloc()ed copy of name, demangled (without its parameter list) if it
 * is a C++ name and libstdc++ is installed; NULL if out of memory. */
char *demangle(const char *name);

#endif
