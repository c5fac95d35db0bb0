// SPDX-License-Identifier: GPL-2.0
/*
 * set_ftrace_args and the capturing path.
 *
 * The specs are read only under ftrace_lock(): by the update, which gives
 * each record the entry of a table that lists the values to take for it
 * (all the items of every spec that names it), and by the control file.
 * The table only grows, and an entry never changes once a record points
 * at it, so a hook reads it without a lock and nothing is ever retired.
 * Specs that name one function exactly, as --auto-args writes one per
 * function, are found by name: an update stays linear in the records.
 *
 * The capturing path runs between a traced function's entry and its body
 * (and between its return and its caller), where its floating-point
 * arguments (and return value) are live: it reads them first, through
 * the arch, and calls nothing that may use the vector registers.  A
 * string is copied with process_vm_readv on the process itself, which
 * says EFAULT where a load would have faulted.
 */
#include "args.h"
#include "buffer.h"
#include "control.h"
#include "events.h"
#include "ftrace.h"
#include "messages.h"
#include "seccomp.h"
#include "tracers.h"
#include "tracing.h"
#include "../common/argspec.h"
#include "../common/hash.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define ENTRY_ITEMS	ARGSPEC_MAX_ITEMS
#define TABLE_SIZE	4096
#define TABLE_SLOTS	(2 * TABLE_SIZE)	/* the table's hash: a power of 2 */
#define MATCHES_MAX	16			/* specs that name one function */
#define STRING_WORDS	(FT_ARG_STRING_MAX / 4)

struct args_entry {
	uint8_t nr_items;
	uint8_t fp_args;	/* an argument comes from the FP registers */
	uint8_t fp_return;	/* the return value does */
	uint8_t has_return;
	uint8_t words[2];	/* at most, of the entry's items and the return's */
	struct arg_item items[ENTRY_ITEMS];
};

_Static_assert(ENTRY_ITEMS * (1 + STRING_WORDS) <= UINT8_MAX, "an entry's words fit words[]");

static struct arg_spec *specs;
static unsigned nr_specs;
/* Specs naming one function exactly (--auto-args makes thousands), by
 * name: open addressing, slot = spec index + 1, 0 empty; nr_slots a power
 * of 2, at least twice their number.  The others are tried one by one. */
static uint32_t *by_name;
static size_t nr_slots;
static struct args_entry table[TABLE_SIZE];	/* [0]: none */
static uint16_t table_slots[TABLE_SLOTS];	/* entry index, 0 empty */
static unsigned table_used = 1;
static int table_full_said;

/* ---- the specs ---- */

static int check_regs(const struct arg_spec *s, char *err, size_t errlen)
{
	for (unsigned i = 0; i < s->nr_items; i++) {
		const struct arg_item *it = &s->items[i];
		unsigned have = it->fp ? arch_arg_regs.nr_fp : arch_arg_regs.nr_int;

		if (!arch_arg_regs.nr_int) {
			snprintf(err, errlen, "arguments cannot be recorded on this architecture yet");
			return -1;
		}
		if (it->pos > have) {
			snprintf(err, errlen, "%sarg%u: only the first %u %s arguments are in "
				 "registers", it->fp ? "f" : "", it->pos, have,
				 it->fp ? "floating-point" : "integer");
			return -1;
		}
		if (!it->fp && it->offset + it->size > sizeof(uintptr_t)) {
			snprintf(err, errlen, "arg%u+%u: past the %zu bytes of a register",
				 it->pos, it->offset, sizeof(uintptr_t));
			return -1;
		}
	}
	return 0;
}

static void free_specs(struct arg_spec *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		argspec_free(&v[i]);
	free(v);
}

static int add_spec(struct arg_spec **v, unsigned *n, const char *text,
		    char *err, size_t errlen)
{
	struct arg_spec *grown = realloc(*v, (*n + 1) * sizeof(**v));

	if (!grown) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	*v = grown;
	if (argspec_parse(&grown[*n], text, err, errlen))
		return -1;
	if (check_regs(&grown[*n], err, errlen)) {
		argspec_free(&grown[*n]);
		return -1;
	}
	(*n)++;
	return 0;
}

/* The new list: the current one (append) and the specs in text. */
static int parse_list(const char *text, int append, struct arg_spec **v, unsigned *n,
		      char *err, size_t errlen)
{
	char *copy = strdup(text), *save = NULL;
	int ret = copy ? 0 : -1;

	*v = NULL;
	*n = 0;
	for (unsigned i = 0; append && !ret && i < nr_specs; i++)
		ret = add_spec(v, n, specs[i].text, err, errlen);
	for (char *tok = copy ? strtok_r(copy, " \t\n", &save) : NULL; tok && !ret;
	     tok = strtok_r(NULL, " \t\n", &save))
		ret = add_spec(v, n, tok, err, errlen);
	free(copy);
	return ret;
}

/* The name index of the specs now in force; -1 if out of memory. */
static int index_names(void)
{
	size_t n = 16;

	free(by_name);
	while (n < 2 * (size_t)nr_specs)
		n *= 2;
	by_name = calloc(n, sizeof(*by_name));
	nr_slots = by_name ? n : 0;
	for (unsigned i = 0; by_name && i < nr_specs; i++) {
		const char *name = specs[i].glob.v[0].pattern;
		size_t k;

		if (!argspec_one_function(&specs[i]))
			continue;
		for (k = fnv1a_str(name) & (n - 1); by_name[k]; k = (k + 1) & (n - 1))
			;
		by_name[k] = i + 1;
	}
	return by_name ? 0 : -1;
}

int ft_args_write(const char *text, int append, char *err, size_t errlen)
{
	struct arg_spec *next, *old = specs;
	unsigned nr_next, nr_old = nr_specs;

	if (parse_list(text, append, &next, &nr_next, err, errlen)) {
		free_specs(next, nr_next);
		return -1;
	}
	specs = next;
	nr_specs = nr_next;
	ft_graph.args = nr_next > 0;
	if (index_names() || ftrace_update()) {
		specs = old;
		nr_specs = nr_old;
		ft_graph.args = nr_old > 0;
		free_specs(next, nr_next);
		index_names();
		ft_update_failed(err, errlen, "cannot patch, nothing changed");
		return -1;
	}
	free_specs(old, nr_old);
	return 0;
}

void ft_args_emit(void (*emit)(void *arg, const char *text, size_t len), void *arg)
{
	for (unsigned i = 0; i < nr_specs; i++) {
		emit(arg, specs[i].text, strlen(specs[i].text));
		emit(arg, "\n", 1);
	}
}

/* ---- the table ---- */

/* The specs that name func, in the order they were given: those of its
 * exact name from the index, the others tried. */
static unsigned matching(const char *func, const char *module, unsigned *out)
{
	unsigned n = 0;

	for (size_t k = fnv1a_str(func) & (nr_slots - 1);
	     nr_slots && by_name[k] && n < MATCHES_MAX; k = (k + 1) & (nr_slots - 1))
		if (!strcmp(specs[by_name[k] - 1].glob.v[0].pattern, func))
			out[n++] = by_name[k] - 1;
	for (unsigned i = 0; i < nr_specs && n < MATCHES_MAX; i++)
		if (!argspec_one_function(&specs[i]) && filter_selects(&specs[i].glob, func, module))
			out[n++] = i;
	for (unsigned i = 1; i < n; i++)	/* few: insertion sort */
		for (unsigned k = i; k > 0 && out[k - 1] > out[k]; k--) {
			unsigned t = out[k];

			out[k] = out[k - 1];
			out[k - 1] = t;
		}
	return n;
}

/* Every item of every spec that names the function, as many as fit;
 * none of its arguments where they cannot be read (args_readable 0):
 * how many were left out so. */
static unsigned gather(struct args_entry *e, const char *func, const char *module,
		       int args_readable)
{
	unsigned which[MATCHES_MAX], n = matching(func, module, which), dropped = 0;

	memset(e, 0, sizeof(*e));
	for (unsigned m = 0; m < n; m++) {
		const struct arg_spec *s = &specs[which[m]];

		for (unsigned k = 0; k < s->nr_items && e->nr_items < ENTRY_ITEMS; k++) {
			const struct arg_item *it = &s->items[k];

			if (it->pos && !args_readable) {
				dropped++;
				continue;
			}
			e->items[e->nr_items++] = *it;
			e->words[it->pos == 0] += it->type == FT_ARG_STRING ? 1 + STRING_WORDS : 3;
			e->has_return |= it->pos == 0;
			e->fp_args |= it->fp && it->pos;
			e->fp_return |= it->fp && !it->pos;
		}
	}
	return dropped;
}

/* The entry equal to e, added if there is none; 0 if the table is full. */
static unsigned table_find(const struct args_entry *e)
{
	size_t k = fnv1a(e, sizeof(*e)) & (TABLE_SLOTS - 1);

	for (; table_slots[k]; k = (k + 1) & (TABLE_SLOTS - 1))
		if (!memcmp(&table[table_slots[k]], e, sizeof(*e)))
			return table_slots[k];
	if (table_used == TABLE_SIZE) {
		if (!table_full_said)
			ft_warn("set_ftrace_args: more than %d different lists of values; "
				"functions beyond them are traced without", TABLE_SIZE - 1);
		table_full_said = 1;
		return 0;
	}
	table[table_used] = *e;
	table_slots[k] = table_used;
	/* The entry is whole before a record can point at it. */
	atomic_thread_fence(memory_order_release);
	return table_used++;
}

uint32_t ft_args_rec_flags(const struct ftrace_rec *rec, const char *module)
{
	static int said;
	struct args_entry e;
	int readable;

	if (!nr_specs)
		return 0;
	/* Where the arch reads arguments at an entry site only
	 * (arch_arg_regs.entry_only), a -pg call has moved them already:
	 * such a function's return value alone, said once. */
	readable = !arch_arg_regs.entry_only || rec->kind != SITE_FRAME;
	if (gather(&e, rec->name, module, readable) && !said++)
		ft_warn("set_ftrace_args: %s is built with -pg, which moves its arguments "
			"before the call: only its return value is recorded "
			"(-fpatchable-function-entry leaves them in place)", rec->name);
	return e.nr_items ? table_find(&e) << FTRACE_FL_ARGS_SHIFT : 0;
}

static const struct args_entry *entry_of(uint32_t id)
{
	return &table[ftrace_rec_get(id)->flags >> FTRACE_FL_ARGS_SHIFT];
}


/* ---- the capturing path: no call that may touch the vector registers ---- */

/* Up to len bytes at p, without faulting: a read that meets an unreadable
 * page gives the bytes before it (the kernel splits no iovec, so the
 * range is cut at the page boundary).  Bytes read, or -1. */
long ft_args_read(uintptr_t p, char *buf, size_t len)
{
	uintptr_t boundary = (p | 4095) + 1;
	size_t first = boundary - p < len ? boundary - p : len;
	struct iovec local = { buf, len };
	struct iovec remote[2] = { { (void *)p, first }, { (void *)boundary, len - first } };
	int saved = errno;
	long n;

	if (__atomic_load_n(&ft_seccomp_seen, __ATOMIC_RELAXED))
		return -1;
	n = syscall(SYS_process_vm_readv, syscall(SYS_getpid), &local, 1UL, remote,
		    first < len ? 2UL : 1UL, 0UL);
	if (n < 0 && errno == ENOSYS)
		n = ft_args_read_emulated(p, buf, len);
	errno = saved;
	return n;
}

/* A field of a struct takes its bytes of the register, and says where
 * they were: the reader names it by position and offset. */
static unsigned put_value(uint32_t *w, const struct arg_item *it, uint64_t v)
{
	int fp_type = it->type == FT_ARG_DOUBLE || it->type == FT_ARG_FLOAT;

	v >>= 8 * it->offset;
	w[0] = ft_arg_head(it->type, it->pos, it->size ? it->size : sizeof(uintptr_t)) |
	       it->offset << FT_ARG_OFFSET_SHIFT | (fp_type && !it->fp ? FT_ARG_FP_IN_INT : 0);
	w[1] = (uint32_t)v;
	w[2] = (uint32_t)(v >> 32);
	return 3;
}

/* The string at p, read into the item's own words; or the pointer, if
 * nothing there can be read. */
static unsigned put_string(uint32_t *w, const struct arg_item *it, uintptr_t p)
{
	char *text = (char *)(w + 1);
	long got = p ? ft_args_read(p, text, FT_ARG_STRING_MAX) : -1;
	unsigned len = 0;

	if (got <= 0) {
		struct arg_item bad = { FT_ARG_BAD_STRING, it->pos, sizeof(uintptr_t), 0, 0 };

		return put_value(w, &bad, p);
	}
	while (len < (unsigned)got && text[len])
		len++;
	/* The words are the buffer's: what was read past the string must
	 * not stay there, where a reader would take it for events. */
	for (unsigned i = len; i % 4 || i < (unsigned)got; i++)
		text[i] = '\0';
	/* No NUL in what could be read: the string goes on, cut here. */
	w[0] = ft_arg_head(FT_ARG_STRING, it->pos, len) |
	       (len == (unsigned)got ? FT_ARG_TRUNCATED : 0);
	return 1 + (len + 3) / 4;
}

/* The registers a call's values come from.  The floating-point ones are
 * read first, before anything else runs: the C that follows may call
 * what uses them (libc's memset, which gcc calls to zero a structure,
 * uses the vector registers).  Only what the entry's items read is set. */
struct values_at {
	const uintptr_t *regs;		/* the block ftrace_caller saved */
	uintptr_t retval;
	uint64_t fp[ARCH_MAX_ARG_REGS];
	uint64_t fp_ret;
};

static void read_fp(const struct args_entry *e, int of_return, struct values_at *at)
{
	if (!of_return && e->fp_args)
		arch_fp_args(at->fp);
	/* 0 otherwise: no item reads it then, but gcc cannot tell */
	at->fp_ret = of_return && e->fp_return ? arch_fp_retval() : 0;
}

/* The items of e for the entry (of_return 0) or the return, as words
 * into w: at most e->words[of_return] of them. */
static unsigned collect(const struct args_entry *e, int of_return, const struct values_at *at,
			uint32_t *w)
{
	unsigned n = 0;

	for (unsigned i = 0; i < e->nr_items; i++) {
		const struct arg_item *it = &e->items[i];
		uint64_t v;

		if ((it->pos == 0) != of_return)
			continue;
		if (of_return)
			v = it->fp ? at->fp_ret : at->retval;
		else
			v = it->fp ? at->fp[it->pos - 1] : at->regs[arch_arg_regs.int_slot[it->pos - 1]];
		n += it->type == FT_ARG_STRING ? put_string(w + n, it, v) : put_value(w + n, it, v);
	}
	return n;
}

/* The values straight into the event's room after c->pos, which the
 * caller reserved: none staged on the traced thread's stack, which may
 * be a small signal stack. */
static void emit_args(struct ft_context *c, const struct args_entry *e, int of_return,
		      const struct values_at *at)
{
	unsigned n = collect(e, of_return, at, c->pos + 1);

	if (n)
		ev_commit(c, ft_long_word(FT_LONG_ARGS, n | (of_return ? FT_ARGS_OF_RETURN : 0)), n);
}

/* The entry and its values are reserved room together: they stay in one
 * chunk, next to each other, as a reader wants them.  The table entry is
 * read once: an update may point the record at another meanwhile. */
int ft_args_entry(struct ft_context *c, uint32_t id, uint32_t flags, uint64_t now,
		  const uintptr_t *regs)
{
	const struct args_entry *e = &table[flags >> FTRACE_FL_ARGS_SHIFT];
	struct values_at at;	/* no initializer: gcc makes one a memset call */
	int room;

	read_fp(e, 0, &at);
	at.regs = regs;
	room = e->words[0] && !ft_buffer_reserve(c, FT_MAX_EVENT_WORDS + 1 + e->words[0]);
	ev_entry(c, id, now);
	if (room)
		emit_args(c, e, 0, &at);
	return e->has_return;
}

void ft_args_exit(struct ft_context *c, uint32_t id, uint64_t now, uintptr_t retval)
{
	const struct args_entry *e = entry_of(id);
	struct values_at at;	/* no initializer: gcc makes one a memset call */

	read_fp(e, 1, &at);
	at.retval = retval;
	if (e->words[1] && !ft_buffer_reserve(c, FT_MAX_EVENT_WORDS + 1 + e->words[1]))
		emit_args(c, e, 1, &at);
	ev_exit(c, now);
}
