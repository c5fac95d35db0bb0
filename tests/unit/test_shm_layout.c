// SPDX-License-Identifier: GPL-2.0
/*
 * The buffers' shared memory (src/common/shm.c): how a size is cut into
 * chunks, which headers are taken as sane, and the wait that sleeps only
 * while nothing was published.
 */
#include "unit.h"

#include "common/shm.h"

#include <pthread.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int created(unsigned kb, int swapped, unsigned chunks, size_t chunk_size)
{
	struct ft_shm *shm;
	int fd, ok;

	if (ft_shm_create(kb, 0, swapped, &fd, &shm))
		return 0;
	ok = ft_shm_sane(shm) && ft_shm_swapped(shm) == swapped &&
	     ft_shm_nr_chunks(shm) == chunks && ft_shm_chunk_size(shm) == chunk_size &&
	     (char *)ft_shm_chunk(shm, chunks - 1) + chunk_size == (char *)shm + ft_shm_size(shm);
	munmap(shm, ft_shm_size(shm));
	close(fd);
	return ok;
}

/* A wait of 300 ms for `want` chunks past `seen`: how long it took, and
 * whether it left the count of waiters as it found it. */
static double waited(struct ft_shm *shm, uint32_t seen, uint32_t want, int *waiters_back)
{
	double start = now_s();

	ft_shm_wait(shm, seen, want, 300);
	*waiters_back = atomic_load(&shm->waiters) == 0;
	return now_s() - start;
}

/* A writer publishing n chunks while a reader waits. */
struct publisher {
	struct ft_shm *shm;
	unsigned n;
	int urgent;
};

static void *publish(void *arg)
{
	struct publisher *p = arg;
	struct timespec pause = { 0, 20 * 1000 * 1000 };

	nanosleep(&pause, NULL);
	for (unsigned i = 0; i < p->n; i++)
		ft_shm_wake(p->shm, p->urgent);
	return NULL;
}

/* How long a wait for `want` chunks lasted while n were published (or
 * one urgent wake came). */
static double waited_for(struct ft_shm *shm, uint32_t want, unsigned n, int urgent, int *back)
{
	struct publisher p = { shm, n, urgent };
	pthread_t t;
	double took;

	pthread_create(&t, NULL, publish, &p);
	took = waited(shm, atomic_load(&shm->published), want, back);
	pthread_join(t, NULL);
	return took;
}

int main(void)
{
	struct ft_shm *shm;
	int fd, back;
	double t;

	CHECK("shm layout: the default 16 MB is 2048 chunks of 8 KB",
	      created(16384, 0, 2048, 8192));
	CHECK("shm layout: 64 MB is 4096 chunks of 16 KB", created(65536, 0, 4096, 16384));
	CHECK("shm layout: a large buffer gets more chunks of 256 KB at most",
	      ft_shm_chunk_size_for(1u << 22) == FT_CHUNK_MAX &&
	      ft_shm_chunk_size_for(1u << 30) == FT_CHUNK_MAX);
	CHECK("shm layout: a size between powers of two rounds the chunk down",
	      created(3 * 16384, 0, 6144, 8192));
	CHECK("shm layout: a tiny buffer still has four chunks", created(1, 0, 4, FT_CHUNK_MIN));
	CHECK("shm layout: the other byte order alike", created(16384, 1, 2048, 8192));

	if (ft_shm_create(1024, 0, 0, &fd, &shm))
		return 1;
	shm->chunk_size = 4096;
	CHECK("shm layout: chunks smaller than the longest event are refused", !ft_shm_sane(shm));
	shm->chunk_size = 3 * 8192;
	CHECK("shm layout: a chunk size not a power of two is refused", !ft_shm_sane(shm));
	shm->chunk_size = 8192;
	shm->version = FT_SHM_VERSION - 1;
	CHECK("shm layout: another version is refused", !ft_shm_sane(shm));
	shm->version = FT_SHM_VERSION;

	t = waited(shm, atomic_load(&shm->published) - 1, 1, &back);
	CHECK("shm wait: returns at once when enough was published since", t < 0.2 && back);
	t = waited(shm, atomic_load(&shm->published), 1, &back);
	CHECK("shm wait: sleeps its time when nothing was", t >= 0.25 && back);
	t = waited_for(shm, 8, 8, 0, &back);
	CHECK("shm wait: woken once the chunks it waits for are published", t < 0.2 && back);
	t = waited_for(shm, 8, 4, 0, &back);
	CHECK("shm wait: not woken by fewer", t >= 0.25 && back);
	t = waited_for(shm, 8, 1, 1, &back);
	CHECK("shm wait: woken at once by an urgent wake", t < 0.2 && back);
	CHECK("shm wake: counts every publish", atomic_load(&shm->published) == 13);
	ft_shm_freed(shm);
	CHECK("shm freed: counted", atomic_load(&shm->freed) == 1);
	return unit_done();
}
