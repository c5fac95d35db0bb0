// SPDX-License-Identifier: GPL-2.0
/*
 * A CPU's perf ring read into kevents records.  The ring is the kernel's
 * (perf_event_mmap_page): records of { type, misc, size } from data_tail
 * to data_head, the last one possibly wrapping round the end; the
 * recorder reads what is there and moves data_tail on, which gives the
 * room back.  A sample's raw part is the tracepoint's record, its first
 * field common_type saying which tracepoint it is; its fields are read
 * where the format file put them (tracefs.c).
 */
#include "kevents.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define RING_PAGES	512		/* 2 MB a CPU at 4 KB pages */
#define MIN_RING_PAGES	16

/* The sample_id trailer every other record ends with (sample_id_all),
 * and the head of a sample: TID, TIME, ID (the event's, which tells two
 * events' samples of one hit apart), CPU. */
struct sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint32_t cpu, res;
};

/* RING_PAGES, or fewer where the locked memory perf allows a user
 * without CAP_IPC_LOCK (perf_event_mlock_kb, then RLIMIT_MEMLOCK) does
 * not hold that many: a smaller ring loses more, and says so. */
int kev_ring_map(struct kev_ring *r)
{
	size_t page = sysconf(_SC_PAGESIZE);

	for (size_t pages = RING_PAGES; pages >= MIN_RING_PAGES; pages /= 2) {
		r->data_size = pages * page;
		r->base = mmap(NULL, page + r->data_size, PROT_READ | PROT_WRITE, MAP_SHARED,
			       r->fd, 0);
		if (r->base != MAP_FAILED)
			return 0;
		if (errno != EPERM && errno != ENOMEM)
			break;
	}
	r->base = NULL;
	return -1;
}

void kev_ring_unmap(struct kev_ring *r)
{
	if (r->base)
		munmap(r->base, sysconf(_SC_PAGESIZE) + r->data_size);
}

/* ---- the file ---- */

void kev_flush(struct kevents *k)
{
	size_t done = 0;

	if (k->keep.recs)
		return;

	while (!k->write_failed && done < k->buffered) {
		ssize_t n = write(k->out, k->buf + done, k->buffered - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			k->write_failed = 1;
		else
			done += n;
	}
	if (k->write_failed)
		k->counts.unwritten += (k->buffered - done) / sizeof(struct kev_record);
	k->buffered = 0;
}

void kev_put(struct kevents *k, const struct kev_record *rec)
{
	if (kev_of_control_thread(k, rec)) {
		k->counts.left_out[rec->kind]++;
		return;
	}
	k->counts.by_kind[rec->kind] += rec->kind == KEV_LOST ? (uint64_t)rec->value : 1;
	if (k->keep.recs) {
		kev_keep_put(&k->keep, rec);
		return;
	}
	if (k->buffered + sizeof(*rec) > (1 << 16))
		kev_flush(k);
	memcpy(k->buf + k->buffered, rec, sizeof(*rec));
	k->buffered += sizeof(*rec);
}

/* ---- decoding ---- */

/* A field of the raw record, as wide as the format says, sign-extended
 * if asked; 0 if the record is too short to hold it. */
static uint64_t field(const uint8_t *raw, uint32_t len, const struct kev_field *f, int sign)
{
	uint64_t v = 0;

	if (f->offset + f->size > len || f->size > 8)
		return 0;
	memcpy(&v, raw + f->offset, f->size);	/* little-endian hosts */
	if (sign && f->size < 8 && (v >> (8 * f->size - 1)) & 1)
		v |= ~0ULL << (8 * f->size);
	return v;
}

static void copy_comm(uint64_t *to, const uint8_t *raw, uint32_t len, const struct kev_field *f)
{
	if (f->offset + f->size <= len)
		memcpy(to, raw + f->offset, f->size < 16 ? f->size : 16);
}

static void decode_syscall(const struct kev_tracepoint *tp, int enter, const uint8_t *raw,
			   uint32_t len, struct kev_record *rec)
{
	rec->kind = enter ? KEV_SYS_ENTER : KEV_SYS_EXIT;
	rec->nr = field(raw, len, &tp->fields[0], 1);
	if (!enter) {
		rec->value = field(raw, len, &tp->fields[1], 1);
		return;
	}
	for (unsigned i = 0; i < 6 && (i + 1) * 8 <= tp->fields[1].size; i++) {
		struct kev_field arg = { NULL, tp->fields[1].offset + 8 * i, 8 };

		rec->args[i] = field(raw, len, &arg, 0);
	}
}

static void decode_tracepoint(const struct kevents *k, int which, const uint8_t *raw,
			      uint32_t len, struct kev_record *rec)
{
	const struct kev_tracepoint *tp = &k->tps[which];

	switch (which) {
	case TP_SYS_ENTER:
	case TP_SYS_EXIT:
		decode_syscall(tp, which == TP_SYS_ENTER, raw, len, rec);
		break;
	case TP_SWITCH:
		rec->kind = KEV_SWITCH_OUT;
		rec->nr = field(raw, len, &tp->fields[0], 0);
		rec->value = field(raw, len, &tp->fields[1], 1);
		copy_comm(rec->args, raw, len, &tp->fields[2]);
		break;
	case TP_WAKING:
		rec->kind = KEV_WAKEUP;
		rec->value = field(raw, len, &tp->fields[0], 1);
		rec->nr = field(raw, len, &tp->fields[1], 1);
		copy_comm(rec->args, raw, len, &tp->fields[2]);
		break;
	case TP_FAULT:
		rec->kind = KEV_FAULT;
		for (int i = 0; i < 3; i++)
			rec->args[i] = field(raw, len, &tp->fields[i], 0);
		break;
	}
}

static int tracepoint_of(const struct kevents *k, unsigned id)
{
	for (int i = 0; i < NR_TPS; i++)
		if ((k->used & 1u << i) && k->tps[i].id == id)
			return i;
	return -1;
}

/*
 * One hit seen by two of our events, kept once: the same record from
 * another event (its id), after the last.  A wake-up of one of our
 * threads by another is given to both threads' events, on the one CPU
 * it happened on, at one time.  And record -p may open its events on a
 * thread that has some of them already, inherited from the thread that
 * made it while the recorder was opening that one's (open.c): each of
 * those hits writes two samples, one after the other, each with a time
 * of its own.  The same call made again is the same event's.  Wake-ups
 * come between the samples of one hit (an interrupt's), so they are
 * compared with the last wake-up, the others with the last of them.
 */
static int repeated(struct kevents *k, struct kev_ring *r, const struct kev_record *rec,
		    uint64_t id)
{
	int wakeup = rec->kind == KEV_WAKEUP;
	struct kev_record *last = wakeup ? &r->last_wakeup : &r->last;
	uint64_t *last_id = wakeup ? &r->last_wakeup_id : &r->last_id;
	int same = id != *last_id && last->kind == rec->kind && last->tid == rec->tid &&
		   last->pid == rec->pid && last->cpu == rec->cpu && last->nr == rec->nr &&
		   last->value == rec->value && !memcmp(last->args, rec->args, sizeof(rec->args)) &&
		   (wakeup ? last->time == rec->time : 1);

	*last = *rec;
	*last_id = id;
	if (same)
		k->counts.repeated[rec->kind]++;
	return same;
}

static void on_sample(struct kevents *k, struct kev_ring *r, const uint8_t *p, uint32_t size)
{
	const struct sample_id *id = (const void *)p;
	struct kev_record rec = { 0 };
	uint32_t raw_len;
	uint16_t type;
	int which;

	if (size < sizeof(*id) + 4 + 2)
		return;
	memcpy(&raw_len, p + sizeof(*id), 4);
	p += sizeof(*id) + 4;
	if (raw_len > size - sizeof(*id) - 4 || raw_len < 2)
		return;
	memcpy(&type, p, 2);
	which = tracepoint_of(k, type);
	if (which < 0)
		return;
	rec = (struct kev_record){ .time = id->time, .pid = id->pid, .tid = id->tid,
				   .cpu = id->cpu };
	decode_tracepoint(k, which, p, raw_len, &rec);
	if (!repeated(k, r, &rec, id->id))
		kev_put(k, &rec);
}

/* PERF_RECORD_SWITCH (in) and PERF_RECORD_LOST, their sample_id at the
 * end. */
static void on_other(struct kevents *k, struct kev_ring *r, const struct perf_event_header *h,
		     const uint8_t *body, uint32_t size)
{
	struct sample_id id;
	struct kev_record rec = { 0 };
	uint64_t lost[2];

	if (size < sizeof(id))
		return;
	memcpy(&id, body + size - sizeof(id), sizeof(id));
	rec = (struct kev_record){ .time = id.time, .pid = id.pid, .tid = id.tid, .cpu = id.cpu };
	if (h->type == PERF_RECORD_SWITCH && !(h->misc & PERF_RECORD_MISC_SWITCH_OUT)) {
		rec.kind = KEV_SWITCH_IN;
		if (repeated(k, r, &rec, id.id))
			return;
	} else if (h->type == PERF_RECORD_LOST && size >= sizeof(lost) + sizeof(id)) {
		memcpy(lost, body, sizeof(lost));
		rec.kind = KEV_LOST;
		rec.value = (int64_t)lost[1];
		r->last = rec;	/* what comes next may well be the same again */
	} else {
		return;
	}
	kev_put(k, &rec);
}

/* The record at offset `at` of the data, copied whole if it wraps. */
static const uint8_t *record_at(struct kevents *k, struct kev_ring *r, uint64_t at,
				uint16_t size)
{
	const uint8_t *data = (const uint8_t *)r->base + sysconf(_SC_PAGESIZE);
	size_t off = at % r->data_size;

	if (off + size <= r->data_size)
		return data + off;
	if (!k->wrap && !(k->wrap = malloc(1 << 16)))
		return NULL;
	memcpy(k->wrap, data + off, r->data_size - off);
	memcpy(k->wrap + (r->data_size - off), data, size - (r->data_size - off));
	return k->wrap;
}

void kev_ring_read(struct kevents *k, struct kev_ring *r)
{
	struct perf_event_mmap_page *page = r->base;
	uint64_t head = __atomic_load_n(&page->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = page->data_tail;

	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		const uint8_t *rec = record_at(k, r, tail, sizeof(h));

		if (!rec)
			break;
		memcpy(&h, rec, sizeof(h));
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		rec = record_at(k, r, tail, h.size);
		if (!rec)
			break;
		if (h.type == PERF_RECORD_SAMPLE)
			on_sample(k, r, rec + sizeof(h), h.size - sizeof(h));
		else
			on_other(k, r, &h, rec + sizeof(h), h.size - sizeof(h));
		tail += h.size;
	}
	__atomic_store_n(&page->data_tail, tail, __ATOMIC_RELEASE);
}
