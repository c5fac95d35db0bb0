// SPDX-License-Identifier: GPL-2.0
/*
 * record --host: the connection to the listener and its queue.
 *
 * The recorder's drain queues a batch of chunks (256 KB at most) and goes
 * on freeing chunks; a thread of the sender's sends the queue out with
 * blocking writes.  The queue holds up to 64 MB of trace: a peer slower
 * than the program for longer than that fills it, and the chunks that
 * find no room are dropped and counted, as those a full disk refuses
 * are, so the program never waits for the network.  The directory's
 * other files (info, funcs-PID) are never refused while the connection
 * stands: they are small, and a trace without them cannot be read.
 *
 * Nagle is left on and the send buffer large: the records are large and
 * nobody waits for a small one.
 */
#include "sender.h"
#include "stream.h"
#include "../cli/cli.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define QUEUE_TRACE_MAX	(64u << 20)
#define SNDBUF_BYTES	(4 << 20)
/* At the end, a listener that takes nothing for this long is gone. */
#define STALL_SECONDS	10

struct qrec {
	struct qrec *next;
	size_t len;
	uint8_t data[];
};

struct sender {
	int fd;
	char peer[300];
	struct stream_header header;
	pthread_t thread;
	int started;
	pthread_mutex_t lock;
	pthread_cond_t more, moved;	/* queued; sent (or lost) */
	struct qrec *head, **tail;
	size_t queued;			/* bytes in the queue */
	int ending;			/* nothing more will be queued */
	int lost;			/* errno; 0: none */
	uint64_t sent;
};

/* A port by number, 1 to 65535 (getaddrinfo would take 99999 modulo
 * 65536, or a service name). */
static int port_ok(const char *port)
{
	char *end;
	long n = strtol(port, &end, 10);

	return *port >= '0' && *port <= '9' && !*end && n >= 1 && n <= 65535;
}

/* "host:port", "[v6addr]:port": host and port into buf; -1 if not so. */
static int split_hostport(const char *hp, char *buf, size_t len, char **host, char **port)
{
	char *colon;

	if (snprintf(buf, len, "%s", hp) >= (int)len)
		return -1;
	colon = strrchr(buf, ':');
	if (!colon || colon == buf || !colon[1])
		return -1;
	*colon = '\0';
	*port = colon + 1;
	*host = buf;
	if (buf[0] == '[') {
		if (colon[-1] != ']')
			return -1;
		colon[-1] = '\0';
		*host = buf + 1;
	}
	return port_ok(*port) ? 0 : -1;
}

/* A connected socket, or -1 with why in *why. */
static int connect_to(const char *host, const char *port, const char **why)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_ADDRCONFIG }, *res;
	int fd = -1, rc = getaddrinfo(host, port, &hints, &res);

	if (rc) {
		*why = gai_strerror(rc);	/* its codes are not errno's */
		return -1;
	}
	for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0 || connect(fd, a->ai_addr, a->ai_addrlen)) {
			*why = strerror(errno);
			if (fd >= 0)
				close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	return fd;
}

struct sender *sender_open(const char *hostport)
{
	char buf[300], *host, *port;
	const char *why = "no address";
	int fd, size = SNDBUF_BYTES;
	struct sender *s;

	if (split_hostport(hostport, buf, sizeof(buf), &host, &port)) {
		cli_error("--host %s: not HOST:PORT", hostport);
		return NULL;
	}
	fd = connect_to(host, port, &why);
	if (fd < 0) {
		cli_error("cannot connect to %s: %s", hostport, why);
		return NULL;
	}
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	s = calloc(1, sizeof(*s));
	if (!s) {
		close(fd);
		return NULL;
	}
	s->fd = fd;
	snprintf(s->peer, sizeof(s->peer), "%s", hostport);
	s->tail = &s->head;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->more, NULL);
	pthread_cond_init(&s->moved, NULL);
	return s;
}

static void free_queue(struct sender *s)
{
	while (s->head) {
		struct qrec *q = s->head;

		s->head = q->next;
		free(q);
	}
	s->tail = &s->head;
	s->queued = 0;
}

/* Only the thread frees what it may be sending: the main thread says a
 * stalled connection lost (sender_finish), and shuts it down, which ends
 * the thread's send. */
static void lose(struct sender *s, int err)
{
	pthread_mutex_lock(&s->lock);
	if (!s->lost)
		s->lost = err ? err : EPIPE;
	free_queue(s);
	pthread_cond_broadcast(&s->moved);
	pthread_mutex_unlock(&s->lock);
}

/* A signal may interrupt it (the recorder's SIGCHLD has no SA_RESTART). */
static int send_all(struct sender *s, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = send(s->fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		__atomic_add_fetch(&s->sent, (uint64_t)n, __ATOMIC_RELAXED);
		p += n;
		len -= n;
	}
	return 0;
}

/* The next record to send, left at the head of the queue (its bytes
 * still count as queued); NULL once the queue is done with. */
static struct qrec *next_record(struct sender *s)
{
	struct qrec *q;

	pthread_mutex_lock(&s->lock);
	while (!s->head && !s->ending && !s->lost)
		pthread_cond_wait(&s->more, &s->lock);
	q = s->lost ? NULL : s->head;
	pthread_mutex_unlock(&s->lock);
	return q;
}

static void sent(struct sender *s, struct qrec *q)
{
	pthread_mutex_lock(&s->lock);
	s->head = q->next;
	if (!s->head)
		s->tail = &s->head;
	s->queued -= q->len;
	free(q);
	pthread_cond_broadcast(&s->moved);
	pthread_mutex_unlock(&s->lock);
}

/* The thread takes no signal: they are for the recorder's main loop.
 * The lock is not held while it sends: the record stays at the head of
 * the queue, and only this thread takes records off. */
static void *send_loop(void *arg)
{
	struct sender *s = arg;
	uint8_t header[STREAM_HEADER_FIXED + 2 * STREAM_TEXT_MAX];
	size_t len = stream_put_header(header, &s->header);
	struct qrec *q;
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	if (send_all(s, header, len)) {
		lose(s, errno);
		return NULL;
	}
	while ((q = next_record(s))) {
		if (send_all(s, q->data, q->len)) {
			lose(s, errno);
			return NULL;
		}
		sent(s, q);
	}
	if (sender_lost(s))
		lose(s, 0);	/* frees what a stall left */
	return NULL;
}

int sender_begin(struct sender *s, const char *prog, uint32_t pid)
{
	const char *base = strrchr(prog, '/');

	gethostname(s->header.host, sizeof(s->header.host) - 1);
	snprintf(s->header.prog, sizeof(s->header.prog), "%s", base ? base + 1 : prog);
	s->header.pid = pid;
	if (pthread_create(&s->thread, NULL, send_loop, s)) {
		cli_error("cannot start the sender to %s", s->peer);
		return -1;
	}
	s->started = 1;
	return 0;
}

static struct qrec *make_record(unsigned type, const char *name, const struct iovec *iov,
				int n)
{
	size_t name_len = name ? strlen(name) : 0, len = 0;
	struct qrec *q;
	uint8_t *p;

	for (int i = 0; i < n; i++)
		len += iov[i].iov_len;
	q = malloc(sizeof(*q) + STREAM_RECORD_FIXED + name_len + len);
	if (!q)
		return NULL;
	q->next = NULL;
	q->len = STREAM_RECORD_FIXED + name_len + len;
	stream_put_record(q->data, type, name_len, len);
	p = q->data + STREAM_RECORD_FIXED;
	if (name_len)	/* END has none: name is NULL */
		memcpy(p, name, name_len);
	p += name_len;
	for (int i = 0; i < n; i++) {
		memcpy(p, iov[i].iov_base, iov[i].iov_len);
		p += iov[i].iov_len;
	}
	return q;
}

int sender_push(struct sender *s, unsigned type, const char *name, const struct iovec *iov,
		int n, int must)
{
	size_t len = STREAM_RECORD_FIXED + (name ? strlen(name) : 0);
	struct qrec *q;
	int ret = 0;

	for (int i = 0; i < n; i++)
		len += iov[i].iov_len;
	pthread_mutex_lock(&s->lock);
	if (s->lost || s->ending || (!must && s->queued + len > QUEUE_TRACE_MAX)) {
		errno = s->lost ? s->lost : EAGAIN;
		pthread_mutex_unlock(&s->lock);
		return -1;
	}
	pthread_mutex_unlock(&s->lock);
	/* copied outside the lock: the thread is sending meanwhile */
	q = make_record(type, name, iov, n);
	pthread_mutex_lock(&s->lock);
	if (!q || s->lost) {
		errno = q ? s->lost : ENOMEM;
		free(q);
		ret = -1;
	} else {
		*s->tail = q;
		s->tail = &q->next;
		s->queued += q->len;
		pthread_cond_signal(&s->more);
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

int sender_lost(const struct sender *s)
{
	return __atomic_load_n(&s->lost, __ATOMIC_RELAXED);
}

uint64_t sender_bytes(const struct sender *s)
{
	return __atomic_load_n(&s->sent, __ATOMIC_RELAXED);
}

const char *sender_peer(const struct sender *s)
{
	return s->peer;
}

/* Until the queue is sent, or the connection lost, or nothing moved for
 * STALL_SECONDS (the listener is stuck, or a cut cable sends no reset):
 * then the connection is given up. */
static void wait_sent(struct sender *s)
{
	pthread_mutex_lock(&s->lock);
	s->ending = 1;
	pthread_cond_signal(&s->more);
	while (s->head && !s->lost) {
		uint64_t before = s->sent;
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += STALL_SECONDS;
		if (pthread_cond_timedwait(&s->moved, &s->lock, &until) && s->sent == before) {
			s->lost = ETIMEDOUT;
			shutdown(s->fd, SHUT_RDWR);
		}
	}
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	s->started = 0;
}

/* The listener's "ok DIRNAME\n", once it has placed the directory. */
static int read_answer(struct sender *s, char *dir, size_t len)
{
	char buf[512];
	size_t got = 0;
	struct pollfd p = { .fd = s->fd, .events = POLLIN };

	shutdown(s->fd, SHUT_WR);
	while (got < sizeof(buf) - 1 && poll(&p, 1, STALL_SECONDS * 1000) == 1) {
		ssize_t n = read(s->fd, buf + got, sizeof(buf) - 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	buf[got] = '\0';
	if (strncmp(buf, "ok ", 3) || !strchr(buf, '\n')) {
		s->lost = got ? EPROTO : ECONNRESET;
		return -1;
	}
	snprintf(dir, len, "%.*s", (int)strcspn(buf + 3, "\n"), buf + 3);
	return 0;
}

int sender_finish(struct sender *s, char *dir, size_t len)
{
	if (!s->started) {
		s->lost = ECANCELED;
		return -1;
	}
	sender_push(s, STREAM_END, NULL, NULL, 0, 1);	/* refused once lost */
	wait_sent(s);
	return s->lost ? -1 : read_answer(s, dir, len);
}

void sender_abort(struct sender *s, const char *why)
{
	struct iovec iov = { (void *)why, strnlen(why, STREAM_ABORT_MAX) };

	if (!s->started)
		return;
	sender_push(s, STREAM_ABORT, NULL, &iov, 1, 1);
	wait_sent(s);
}

void sender_close(struct sender *s)
{
	if (!s)
		return;
	if (s->started) {
		pthread_mutex_lock(&s->lock);
		s->lost = s->lost ? s->lost : ECANCELED;
		s->ending = 1;
		pthread_cond_signal(&s->more);
		pthread_mutex_unlock(&s->lock);
		shutdown(s->fd, SHUT_RDWR);
		pthread_join(s->thread, NULL);
	}
	free_queue(s);
	close(s->fd);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->more);
	pthread_cond_destroy(&s->moved);
	free(s);
}
