// SPDX-License-Identifier: GPL-2.0
/*
 * The call-site decoding i386 and x86_64 share (x86.h).
 */
#include "x86.h"

#include <string.h>

int32_t x86_rel32(const uint8_t *p)
{
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
			 (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

uint64_t x86_skip_endbr(const struct x86_flavor *x, const struct elf_file *f, uint64_t addr)
{
	const uint8_t *p = elf_vaddr_ptr(f, addr, 4);

	return p && !memcmp(p, x->endbr, 4) ? addr + 4 : addr;
}

static int starts_with(const struct elf_file *f, uint64_t addr, const uint8_t *bytes,
		       size_t len)
{
	const uint8_t *p = len ? elf_vaddr_ptr(f, addr, len) : NULL;

	return p && !memcmp(p, bytes, len);
}

/* A site is at the entry, or after a frame-pointer prologue; anything
 * else gives no reliable way to find the parent's return address. */
static int site_kind(const struct x86_flavor *x, const struct elf_file *f, uint64_t func,
		     uint64_t addr)
{
	uint64_t body = x86_skip_endbr(x, f, func);
	int realigned = 0;

	if (addr == func || addr == body)
		return SITE_ENTRY;
	if (starts_with(f, body, x->realign, x->realign_len)) {
		body += x->realign_len;
		realigned = 1;
	}
	if (starts_with(f, body, x->frame_setup, x->frame_setup_len) &&
	    addr >= body + x->frame_setup_len)
		return realigned ? SITE_FRAME_REALIGNED : SITE_FRAME;
	return -1;
}

int x86_find_site(const struct x86_flavor *x, const struct elf_file *f,
		  const struct mcount_targets *t, uint64_t func, uint64_t size,
		  struct site *out)
{
	uint64_t len = size < X86_MAX_HEAD ? size : X86_MAX_HEAD;
	const uint8_t *code = elf_vaddr_ptr(f, func, len);

	for (uint64_t off = 0; code && off + 5 <= len; off++) {
		unsigned n;
		int kind;

		/* Most bytes start no call: test that before decoding. */
		if (code[off] != 0xe8 && code[off] != 0xff && code[off] != 0x67)
			continue;
		n = x->call_at(f, t, func + off, code + off, len - off);
		if (!n)
			continue;
		kind = site_kind(x, f, func, func + off);
		if (kind < 0)
			return 0;
		*out = (struct site){ .addr = func + off, .func = func, .len = n,
				      .kind = kind };
		return 1;
	}
	return 0;
}

int x86_check_site(const struct x86_flavor *x, const struct elf_file *f, uint64_t addr,
		   uint64_t func, struct site *out)
{
	const uint8_t *p;
	int kind;

	addr = x86_skip_endbr(x, f, addr);
	p = elf_vaddr_ptr(f, addr, 6);
	if (!p || !(out->len = x->table_site_len(p, &out->flags)))
		return 0;
	kind = site_kind(x, f, func, addr);
	if (kind < 0)
		return 0;
	out->addr = addr;
	out->func = func;
	out->kind = kind;
	return 1;
}
