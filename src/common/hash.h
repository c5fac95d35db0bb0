/* SPDX-License-Identifier: GPL-2.0 */
/*
 * FNV-1a, for the small hash tables of names and byte strings (the
 * runtime's argument specs and value lists, the report's names).
 */
#ifndef FNTRACE_HASH_H
#define FNTRACE_HASH_H

#include <stddef.h>
#include <stdint.h>

static inline uint32_t fnv1a(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint32_t h = 2166136261u;

	while (len--)
		h = (h ^ *b++) * 16777619u;
	return h;
}

static inline uint32_t fnv1a_str(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

#endif
