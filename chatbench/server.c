/*
 * server.c: the chat server's start and stop. The models serve: threads
 * (server_threads.c, with the rooms' logs in server_log.c) or one event
 * loop (server_epoll.c, its output in server_epoll_out.c); the room
 * registry both use is in room.c.
 */
#include "config.h"
#include "server.h"
#include "clock.h"
#include "log.h"
#include "sock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

struct chat_server *chat_server_start(const struct chat_server_cfg *cfg,
				      char *err, size_t len)
{
	struct chat_server *s = calloc(1, sizeof(*s));
	int r;

	if (!s) {
		snprintf(err, len, "out of memory");
		return NULL;
	}
	s->cfg = *cfg;
	if (s->cfg.max_conns <= 0)
		s->cfg.max_conns = cfg->model == CHAT_EPOLL
					   ? SRV_MAX_CONNS_EPOLL
					   : SRV_MAX_CONNS_THREADS;
	s->ops = cfg->model == CHAT_EPOLL ? &srv_epoll_ops : &srv_threads_ops;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->idle, NULL);
	s->lfd = sock_listen(cfg->bind, cfg->port, SOCK_STREAM, 4096, &s->port,
			     err, len);
	if (s->lfd < 0) {
		free(s);
		return NULL;
	}
	s->wakefd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	r = s->wakefd < 0
		    ? -errno
		    : chat_thread(cfg->model == CHAT_EPOLL ? srv_epoll_main
							   : srv_threads_main,
				  s, 0, 1, &s->main);
	if (r) {
		snprintf(err, len, "cannot start the server: %s", strerror(-r));
		if (s->wakefd >= 0)
			close(s->wakefd);
		close(s->lfd);
		free(s);
		return NULL;
	}
	return s;
}

int chat_server_port(const struct chat_server *s)
{
	return s->port;
}

int chat_server_conns(struct chat_server *s)
{
	int n;

	if (s->cfg.model != CHAT_THREADS)
		return __atomic_load_n(&s->nconns, __ATOMIC_ACQUIRE);
	pthread_mutex_lock(&s->lock);
	n = s->nthreads;
	pthread_mutex_unlock(&s->lock);
	return n;
}

int chat_server_wait_idle(struct chat_server *s, double timeout_s)
{
	uint64_t end = clock_ns() + (uint64_t)(timeout_s * 1e9);
	int n;

	while ((n = chat_server_conns(s)) > 0 && clock_ns() < end)
		nanosleep(&(struct timespec){0, 1000000}, NULL);
	return n;
}

unsigned long long chat_server_runs(struct chat_server *s)
{
	unsigned long long n;

	pthread_mutex_lock(&s->lock);
	n = s->runs;
	pthread_mutex_unlock(&s->lock);
	return n;
}

void chat_server_stop(struct chat_server *s)
{
	uint64_t one = 1;
	struct srv_conn *c;
	struct timespec ts;

	if (!s)
		return;
	__atomic_store_n(&s->stopping, 1, __ATOMIC_RELAXED);
	if (write(s->wakefd, &one, sizeof(one)) < 0)
		log_debug("wake: %s", strerror(errno));
	pthread_join(s->main, NULL);
	/* threads model: hang up every connection, wait for the threads */
	pthread_mutex_lock(&s->lock);
	for (c = s->conns; c; c = c->next)
		shutdown(c->fd, SHUT_RDWR);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 10;
	while (s->nthreads > 0 &&
	       pthread_cond_timedwait(&s->idle, &s->lock, &ts) == 0)
		;
	if (s->nthreads > 0) {
		log_warn("server: %d connection threads did not end",
			 s->nthreads);
		pthread_mutex_unlock(&s->lock);
		return; /* leak rather than free what threads still use */
	}
	while (s->rooms)
		srv_room_free(s, s->rooms);
	pthread_mutex_unlock(&s->lock);
	close(s->lfd);
	close(s->wakefd);
	free(s);
}
