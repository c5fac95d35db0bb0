// SPDX-License-Identifier: GPL-2.0
/*
 * mips: which slot a return to return_to_handler came from.
 *
 * x86's ret pops the return address from a slot just below the caller's
 * stack pointer, so return_to_handler knows the slot.  A mips function
 * returns through ra, reloaded from wherever its prologue kept it (or
 * never stored, in a leaf): at return_to_handler only the stack pointer
 * is known, and it is the caller's.  So each hijack is noted here, per
 * thread, as (the caller's sp, the slot), and a return takes the newest
 * note whose caller's sp is the one it returns with.  Notes above it
 * belong to frames that were skipped (an unwinding, a longjmp) and go.
 * Two calls from the same caller at the same sp, one skipped and one
 * returning (a cleanup handler glibc calls after its own longjmp), are
 * told apart by age: the newer one is returning.
 *
 * The notes of a thread are mapped at its first hijack (the runtime may
 * be loaded by dlopen, for attach, where static TLS has no room for
 * arrays) and unmapped when it exits.
 */
#include "../arch.h"

#include <pthread.h>
#include <sys/mman.h>

#define NOTES 2048

struct note {
	uintptr_t caller_sp;
	uintptr_t *slot;
};

struct notes {
	unsigned depth;
	struct note v[NOTES];
};

static __thread struct notes *notes;
static pthread_key_t notes_key;
static pthread_once_t notes_once = PTHREAD_ONCE_INIT;

/* At thread exit, after its last return (a thread that exits is unwound
 * first): its notes go with it. */
static void unmap_notes(void *p)
{
	notes = NULL;
	munmap(p, sizeof(struct notes));
}

static void make_key(void)
{
	if (pthread_key_create(&notes_key, unmap_notes))
		notes_key = (pthread_key_t)-1;
}

static struct notes *thread_notes(void)
{
	void *p;

	if (notes)
		return notes;
	p = mmap(NULL, sizeof(struct notes), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	pthread_once(&notes_once, make_key);
	if (notes_key != (pthread_key_t)-1)
		pthread_setspecific(notes_key, p);
	notes = p;
	return notes;
}

/* After the graph hook: a slot it turned to return_to_handler is noted.
 * before: what the slot held before the hook ran. */
void mips_note_hijack(uintptr_t *slot, uintptr_t before, uintptr_t caller_sp)
{
	uintptr_t handler = (uintptr_t)return_to_handler;
	struct notes *n;

	if (*slot != handler || before == handler || !(n = thread_notes()) ||
	    n->depth == NOTES)
		return;
	n->v[n->depth] = (struct note){ caller_sp, slot };
	n->depth++;
}

/* The newest note for sp, counted from 1; 0 if none. */
static unsigned find(const struct notes *n, uintptr_t sp)
{
	unsigned i = n->depth;

	while (i > 0 && n->v[i - 1].caller_sp != sp)
		i--;
	return i;
}

uintptr_t ftrace_return_to_handler(uintptr_t retval, uintptr_t *slot);

/*
 * return_to_handler: the slot of the return that came back with sp is that
 * of the newest note for sp (with none, as when notes ran out, the newest
 * of all).  The note goes once the core gives back a real return address.
 * A tail call leaves no note of its own (its parent's slot already held
 * return_to_handler): its return finds the parent's, whose slot the callee
 * reused or not; either way the core closes the callee, and gives back
 * return_to_handler again if the parent's frame is still to be closed, for
 * which the note is still there.
 */
uintptr_t mips_return_to_handler(uintptr_t retval, uintptr_t sp)
{
	struct notes *n = notes;
	unsigned i = n ? find(n, sp) : 0;
	uintptr_t *slot, ret;

	if (!i && n)
		i = n->depth;
	slot = i ? n->v[i - 1].slot : (uintptr_t *)sp - 1;
	ret = ftrace_return_to_handler(retval, slot);
	if (i && ret != (uintptr_t)return_to_handler)
		n->depth = i - 1;
	return ret;
}

/* For the unwinder (src/core/unwind_fde.c), which stands at a frame whose
 * CFA is its caller's sp: the slot of the newest note for it. */
uintptr_t *arch_return_slot(uintptr_t cfa)
{
	const struct notes *n = notes;
	unsigned i = n ? find(n, cfa) : 0;

	return i ? n->v[i - 1].slot : (uintptr_t *)cfa - 1;
}
