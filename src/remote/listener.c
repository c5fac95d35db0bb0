// SPDX-License-Identifier: GPL-2.0
/*
 * fntrace listen: the sockets, the connections' threads, and stopping.
 *
 * It binds what it is told and nothing else: the address given, or
 * every address of the host if none is (IPv4 and IPv6 each, the IPv6
 * socket v6-only); port 0 takes a free port, the same for each address,
 * said on the first line of stdout for a script to read.  Each
 * connection gets a thread; one that ends writes a byte to a pipe the
 * main loop polls, and is joined there.  SIGINT and SIGTERM come to the
 * main loop the same way: it stops taking connections, shuts down those
 * still open (each keeps what arrived, saying it was cut by the
 * listener stopping) and joins them.
 */
#include "listener.h"
#include "receiver.h"
#include "../cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_SOCKETS 8

struct listener;

struct conn {
	struct receiver r;
	struct listener *l;
	pthread_t thread;
	int done;
	struct conn *next;
};

struct listener {
	const struct listen_options *o;
	int socks[MAX_SOCKETS];
	unsigned nr_socks;
	int out_fd;
	int done_pipe[2];
	pthread_mutex_t lock;
	struct conn *conns;
	int status;		/* --once: how its stream ended */
	int stop;
};

static int stop_pipe[2] = { -1, -1 };

static void on_stop(int sig)
{
	char c = (char)sig;

	if (write(stop_pipe[1], &c, 1) < 0)
		return;
}

/* The port a socket got, for the others to take too. */
static void set_port(struct sockaddr *sa, unsigned port)
{
	if (sa->sa_family == AF_INET6)
		((struct sockaddr_in6 *)sa)->sin6_port = htons(port);
	else
		((struct sockaddr_in *)sa)->sin_port = htons(port);
}

static unsigned port_of(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len))
		return 0;
	return ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
					      : ((struct sockaddr_in *)&ss)->sin_port);
}

static int bind_one(struct addrinfo *a, unsigned port, int *err)
{
	int one = 1, fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);

	if (fd < 0) {
		*err = errno;
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (a->ai_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (port)
		set_port(a->ai_addr, port);
	if (bind(fd, a->ai_addr, a->ai_addrlen) || listen(fd, 64)) {
		*err = errno;
		close(fd);
		return -1;
	}
	return fd;
}

/* Every address of the option's, or of the host: 0, or -1 (said) if
 * none could be bound. */
static int bind_all(struct listener *l, char *addrs, size_t len)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE }, *res;
	int rc = getaddrinfo(l->o->bind, l->o->port, &hints, &res), err = 0;
	unsigned port = 0;

	if (rc) {
		cli_error("listen: %s port %s: %s", l->o->bind ? l->o->bind : "any address",
			  l->o->port, gai_strerror(rc));
		return -1;
	}
	addrs[0] = '\0';
	for (struct addrinfo *a = res; a && l->nr_socks < MAX_SOCKETS; a = a->ai_next) {
		char host[INET6_ADDRSTRLEN + 8];	/* numeric, and a scope */
		int fd = bind_one(a, port, &err);

		if (fd < 0)
			continue;
		l->socks[l->nr_socks++] = fd;
		port = port_of(fd);
		if (!getnameinfo(a->ai_addr, a->ai_addrlen, host, sizeof(host), NULL, 0,
				 NI_NUMERICHOST))
			snprintf(addrs + strlen(addrs), len - strlen(addrs), "%s%s",
				 addrs[0] ? ", " : "", host);
	}
	freeaddrinfo(res);
	if (!l->nr_socks) {
		cli_error("listen: cannot listen on %s port %s: %s",
			  l->o->bind ? l->o->bind : "any address", l->o->port, strerror(err));
		return -1;
	}
	printf("listening on port %u (%s)\n", port, addrs);
	fflush(stdout);
	return 0;
}

static void *serve(void *arg)
{
	struct conn *c = arg;
	struct listener *l = c->l;
	sigset_t all;
	char byte = 1;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	receiver_run(&c->r);
	shutdown(c->r.fd, SHUT_RDWR);
	pthread_mutex_lock(&l->lock);
	c->done = 1;
	pthread_mutex_unlock(&l->lock);
	if (write(l->done_pipe[1], &byte, 1) < 0)
		return NULL;
	return NULL;
}

/* ADDR:PORT, [ADDR]:PORT for IPv6. */
static void name_peer(const struct sockaddr_storage *ss, socklen_t len, char *buf, size_t size)
{
	char host[INET6_ADDRSTRLEN + 8], port[8];

	if (getnameinfo((const struct sockaddr *)ss, len, host, sizeof(host), port, sizeof(port),
			NI_NUMERICHOST | NI_NUMERICSERV))
		snprintf(buf, size, "?");
	else if (ss->ss_family == AF_INET6)
		snprintf(buf, size, "[%s]:%s", host, port);
	else
		snprintf(buf, size, "%s:%s", host, port);
}

static void accept_one(struct listener *l, int sock)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int fd = accept4(sock, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC);
	struct conn *c;

	if (fd < 0)
		return;
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return;
	}
	c->l = l;
	c->r = (struct receiver){ .fd = fd, .out_fd = l->out_fd, .out = l->o->out };
	name_peer(&ss, len, c->r.peer, sizeof(c->r.peer));
	pthread_mutex_lock(&l->lock);
	if (pthread_create(&c->thread, NULL, serve, c)) {
		pthread_mutex_unlock(&l->lock);
		cli_error("listen: %s: no thread to serve it: connection dropped", c->r.peer);
		close(fd);
		free(c);
		return;
	}
	c->next = l->conns;
	l->conns = c;
	pthread_mutex_unlock(&l->lock);
}

/* Join the connections that ended; with --once, the first stream's
 * end stops the listener. */
static void reap(struct listener *l, int all)
{
	struct conn **p = &l->conns;

	pthread_mutex_lock(&l->lock);
	while (*p) {
		struct conn *c = *p;

		if (!c->done && !all) {
			p = &c->next;
			continue;
		}
		*p = c->next;
		pthread_mutex_unlock(&l->lock);
		pthread_join(c->thread, NULL);
		close(c->r.fd);
		if (l->o->once && c->r.had_header && !l->stop) {
			l->stop = 1;
			l->status = c->r.complete ? 0 : 1;
		}
		free(c);
		pthread_mutex_lock(&l->lock);
	}
	pthread_mutex_unlock(&l->lock);
}

/* Stop: no more connections; those open are shut down, and keep what
 * arrived. */
static void stop_all(struct listener *l)
{
	for (unsigned i = 0; i < l->nr_socks; i++)
		close(l->socks[i]);
	pthread_mutex_lock(&l->lock);
	for (struct conn *c = l->conns; c; c = c->next) {
		c->r.stopping = 1;
		shutdown(c->r.fd, SHUT_RDWR);
	}
	pthread_mutex_unlock(&l->lock);
	reap(l, 1);
}

static void serve_until_stopped(struct listener *l)
{
	struct pollfd p[MAX_SOCKETS + 2];
	unsigned n = l->nr_socks;

	for (unsigned i = 0; i < n; i++)
		p[i] = (struct pollfd){ .fd = l->socks[i], .events = POLLIN };
	p[n] = (struct pollfd){ .fd = stop_pipe[0], .events = POLLIN };
	p[n + 1] = (struct pollfd){ .fd = l->done_pipe[0], .events = POLLIN };
	while (!l->stop) {
		char buf[64];

		if (poll(p, n + 2, -1) < 0 && errno != EINTR)
			break;
		for (unsigned i = 0; i < n; i++)
			if (p[i].revents & POLLIN)
				accept_one(l, l->socks[i]);
		if (p[n].revents & POLLIN)
			l->stop = 1;
		if ((p[n + 1].revents & POLLIN) && read(l->done_pipe[0], buf, sizeof(buf)) > 0)
			reap(l, 0);
	}
	stop_all(l);
}

/* DIR, made if it is not there (its parent must be). */
static int open_out(const char *out)
{
	int fd;

	if (mkdir(out, 0755) && errno != EEXIST) {
		cli_error("listen: cannot create %s: %s", out, strerror(errno));
		return -1;
	}
	fd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		cli_error("listen: cannot open %s: %s", out, strerror(errno));
	return fd;
}

static void catch_stops(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int listen_run(const struct listen_options *o)
{
	struct listener l = { .o = o, .lock = PTHREAD_MUTEX_INITIALIZER };
	char addrs[1024];

	if (pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK) ||
	    pipe2(l.done_pipe, O_CLOEXEC | O_NONBLOCK)) {
		cli_error("listen: %s", strerror(errno));
		return 1;
	}
	catch_stops();
	l.out_fd = open_out(o->out);
	if (l.out_fd < 0 || bind_all(&l, addrs, sizeof(addrs)))
		return 1;
	serve_until_stopped(&l);
	close(l.out_fd);
	return l.status;
}
