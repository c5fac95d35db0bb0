// SPDX-License-Identifier: GPL-2.0
/*
 * Detours: the planner's passes over one function and the relocator
 * (detour.h).  Capstone finds the instruction boundaries and operands;
 * the architecture's table (src/arch/<arch>/detour.c) says what each
 * instruction is and re-encodes the ones that move.
 */
#include "detour.h"

#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>

extern const struct detour_arch detour_x86_64, detour_aarch64;

static const struct detour_arch *const detour_arches[] = {
	&detour_x86_64,
	&detour_aarch64,
};

static const char *const refusal_str[DETOUR_NR_REFUSALS] = {
	[DETOUR_OK] = "ok",
	[DETOUR_NO_SIZE] = "symbol of size 0",
	[DETOUR_NOT_IN_FILE] = "bytes not in the file",
	[DETOUR_UNDECODABLE] = "undecodable instruction",
	[DETOUR_TOO_SHORT] = "too short for the jump",
	[DETOUR_TARGET_INSIDE] = "a branch lands inside the replaced bytes",
	[DETOUR_JUMP_TABLE] = "a jump table may land inside the replaced bytes",
	[DETOUR_UNMOVABLE] = "instruction cannot be relocated",
	[DETOUR_CALL_INSIDE] = "a call returns inside the replaced bytes",
	[DETOUR_UNREACHED] = "code after a jump inside the replaced bytes",
	[DETOUR_OUT_OF_REACH] = "out of reach",
	[DETOUR_NO_ROOM] = "trampoline too small",
	[DETOUR_COLD_PART] = "a function's cold part, entered by a jump, not a call",
};

const char *detour_refusal_str(unsigned refusal)
{
	return refusal < DETOUR_NR_REFUSALS ? refusal_str[refusal] : "?";
}

const struct detour_arch *detour_arch_lookup(unsigned machine)
{
	for (unsigned i = 0; i < sizeof(detour_arches) / sizeof(detour_arches[0]); i++)
		if (detour_arches[i]->machine == machine)
			return detour_arches[i];
	return NULL;
}

int detour_open(struct detour_dec *d, unsigned machine)
{
	csh h;

	memset(d, 0, sizeof(*d));
	d->arch = detour_arch_lookup(machine);
	if (!d->arch || cs_open(d->arch->cs_arch, d->arch->cs_mode, &h) != CS_ERR_OK)
		return -1;
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	d->cs = h;
	d->insn = cs_malloc(h);
	if (!d->insn) {
		cs_close(&h);
		return -1;
	}
	return 0;
}

void detour_close(struct detour_dec *d)
{
	csh h = d->cs;

	if (d->insn)
		cs_free(d->insn, 1);
	if (h)
		cs_close(&h);
	memset(d, 0, sizeof(*d));
}

static void refuse(struct detour_plan *p, unsigned why, uint64_t at)
{
	if (!p->refusal) {
		p->refusal = why;
		p->why_at = at;
	}
}

static int push(uint64_t **v, size_t *nr, size_t *cap, uint64_t addr)
{
	if (*nr == *cap) {
		size_t n = *cap ? 2 * *cap : 1024;
		uint64_t *w = realloc(*v, n * sizeof(*w));

		if (!w)
			return -1;
		*v = w;
		*cap = n;
	}
	(*v)[(*nr)++] = addr;
	return 0;
}

int detour_add_target(struct detour_targets *t, uint64_t addr)
{
	return push(&t->v, &t->nr, &t->cap, addr);
}

/* What a function's instruction of kind k says of it: targets, tables,
 * DETOUR_SEEN_*. */
static int note(struct detour_plan *p, struct detour_targets *t, enum detour_kind k,
		uint64_t target)
{
	static const uint8_t seen[DETOUR_NR_KINDS] = {
		[DETOUR_INDIRECT] = DETOUR_SEEN_INDIRECT,
		[DETOUR_INDIRECT_REG] = DETOUR_SEEN_REG_JUMP,
		[DETOUR_TABLE_READ] = DETOUR_SEEN_TABLE_READ,
		[DETOUR_TABLE_BASE] = DETOUR_SEEN_TABLE_BASE,
	};

	p->seen |= seen[k];
	if (k == DETOUR_TABLE_BASE &&
	    push(&t->tables, &t->nr_tables, &t->cap_tables, target))
		return -1;
	if (k == DETOUR_JUMP || k == DETOUR_COND || k == DETOUR_CALL || k == DETOUR_PCREL ||
	    k == DETOUR_TABLE_BASE)
		return detour_add_target(t, target);
	return 0;
}

static int falls_through(enum detour_kind k)
{
	return k != DETOUR_JUMP && k != DETOUR_RET && k != DETOUR_TAIL && k != DETOUR_INDIRECT &&
	       k != DETOUR_INDIRECT_REG && k != DETOUR_TRAP;
}

/* What the instructions moved so far leave for the next one. */
struct moved {
	uint64_t call_end;	/* the last call's return address, or 0 */
	int stopped;		/* the last one does not fall through */
};

/*
 * An instruction that falls in the replaced bytes: can it move at all?
 * (Relocated where it is, nothing is out of reach: that is the
 * trampoline's to say, once its address is known.)  A call must be the
 * last of them: a thread inside its callee when the jump is written
 * returns to the original code, after the call, and that must not be
 * inside the replaced bytes.  After a jump or a return only padding may
 * follow: code there is entered from elsewhere, by a branch (checked
 * later) or by what names no instruction, an exception's landing pad.
 */
static void check_movable(struct detour_dec *d, struct detour_plan *p, enum detour_kind k,
			  struct moved *m)
{
	const cs_insn *insn = d->insn;
	uint8_t scratch[DETOUR_MAX_RELOC];
	int r = d->arch->relocate(insn, insn->address, scratch, sizeof(scratch));

	if (r < 0)
		refuse(p, -r, insn->address);
	if (m->call_end && m->call_end < insn->address + insn->size)
		refuse(p, DETOUR_CALL_INSIDE, m->call_end);
	if (m->stopped && k != DETOUR_PADDING)
		refuse(p, DETOUR_UNREACHED, insn->address);
	if (k == DETOUR_CALL || k == DETOUR_CALL_INDIRECT)
		m->call_end = insn->address + insn->size;
	m->stopped |= !falls_through(k);
	p->len = insn->address + insn->size - p->patch;
	p->moved++;
}

/* An instruction the disassembler does not know: where instructions
 * have one length and this one does not move, no branch is lost (the
 * disassembler knows every branch of the base architecture), and the
 * next one is where it would be. */
static int step_over(const struct detour_arch *a, const struct detour_plan *p,
		     const uint8_t **code, size_t *left, uint64_t *pc)
{
	if (!a->fixed_len || *left < a->fixed_len || *pc < p->patch + a->jump_len)
		return 0;
	*code += a->fixed_len;
	*left -= a->fixed_len;
	*pc += a->fixed_len;
	return 1;
}

/* Pass 1 (detour.h): the whole function decoded, its targets kept. */
int detour_scan(struct detour_dec *d, const uint8_t *code, struct detour_plan *p,
		struct detour_targets *t)
{
	const struct detour_arch *a = d->arch;
	uint64_t pc = p->func, target;
	struct moved m = { 0 };
	size_t left = p->size;

	p->patch = p->func;
	if (!p->size)
		refuse(p, DETOUR_NO_SIZE, p->func);
	while (left) {
		if (!cs_disasm_iter(d->cs, &code, &left, &pc, d->insn)) {
			if (step_over(a, p, &code, &left, &pc))
				continue;
			refuse(p, DETOUR_UNDECODABLE, pc);
			break;
		}
		enum detour_kind k = a->classify(d->insn, &target);

		if (k == DETOUR_LANDING && d->insn->address == p->func)
			p->patch = pc;
		else if (d->insn->address < p->patch + a->jump_len)
			check_movable(d, p, k, &m);
		if (note(p, t, k, target))
			return -1;
	}
	/* Too short says it all, whatever else was found. */
	if (p->size && p->patch + a->jump_len > p->func + p->size) {
		p->refusal = 0;
		refuse(p, DETOUR_TOO_SHORT, p->func);
	}
	return 0;
}

int detour_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void detour_targets_sort(struct detour_targets *t)
{
	if (t->nr)
		qsort(t->v, t->nr, sizeof(*t->v), detour_cmp_u64);
}

void detour_targets_free(struct detour_targets *t)
{
	free(t->v);
	free(t->tables);
	memset(t, 0, sizeof(*t));
}

/* The first target above addr, or UINT64_MAX. */
static uint64_t target_above(const struct detour_targets *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->v[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nr ? t->v[lo] : UINT64_MAX;
}

/*
 * A function that may dispatch through a jump table whose entries were
 * not read may be entered anywhere (the arch's classify() says which
 * jumps may be a table's): one that jumps through an indexed address
 * (absolute entries, not read), or through a register, with a table's
 * load, but takes the address of no table itself.
 */
static int may_have_table(const struct detour_plan *p)
{
	const unsigned pic = DETOUR_SEEN_REG_JUMP | DETOUR_SEEN_TABLE_READ;

	return (p->seen & DETOUR_SEEN_INDIRECT) ||
	       (p->seen & (pic | DETOUR_SEEN_TABLE_BASE)) == pic;
}

/*
 * Pass 2.  A branch to the patch address itself is harmless: it runs the
 * jump, and the trampoline runs what was there.  One that lands after it,
 * inside the replaced bytes, would run half the jump; so where a jump
 * table may, the replaced bytes must be a single instruction.
 */
void detour_check(const struct detour_targets *t, struct detour_plan *p)
{
	uint64_t hit;

	if (p->refusal)
		return;
	hit = target_above(t, p->patch);
	if (hit < p->patch + p->len)
		refuse(p, DETOUR_TARGET_INSIDE, hit);
	else if (may_have_table(p) && p->moved > 1)
		refuse(p, DETOUR_JUMP_TABLE, p->patch);
}

int detour_copy(struct detour_dec *d, const uint8_t *code, uint64_t start, unsigned len,
		uint64_t tramp, uint8_t *out, size_t room)
{
	const struct detour_arch *a = d->arch;
	uint64_t pc = start;
	size_t left = len, o = 0;

	while (left) {
		uint8_t buf[DETOUR_MAX_RELOC];
		int r;

		if (!cs_disasm_iter(d->cs, &code, &left, &pc, d->insn))
			return -DETOUR_UNDECODABLE;
		r = a->relocate(d->insn, tramp + o, buf, sizeof(buf));
		if (r < 0)
			return r;
		if (o + r > room)
			return -DETOUR_NO_ROOM;
		memcpy(out + o, buf, r);
		o += r;
	}
	if (o + a->jump_len > room)
		return -DETOUR_NO_ROOM;
	if (a->write_jump(tramp + o, start + len, out + o) < 0)
		return -DETOUR_OUT_OF_REACH;
	return o + a->jump_len;
}

int detour_entry(const struct detour_dec *d, uint64_t start, uint64_t tramp, uint8_t *out)
{
	return d->arch->write_jump(start, tramp, out) < 0 ? -DETOUR_OUT_OF_REACH
							 : (int)d->arch->jump_len;
}
