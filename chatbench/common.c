/*
 * common.c: what chatbench's client and server models share (chat.h):
 * threads with small stacks, whole sends and receives, aligned memory and
 * growing queues; on the client side a user's connection and JOIN, the
 * checks of what a user receives, and the words for a run that timed out.
 */
#include "config.h"
#include "chat.h"
#include "clock.h"
#include "sock.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int chat_thread(void *(*fn)(void *), void *arg, int detached, int big,
		void *tid_out)
{
	pthread_attr_t a;
	pthread_t t;
	int r;

	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, big ? CHAT_BIG_STACK : CHAT_STACK);
	if (detached)
		pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	r = pthread_create(&t, &a, fn, arg);
	pthread_attr_destroy(&a);
	if (r)
		return -r;
	if (tid_out)
		memcpy(tid_out, &t, sizeof(t));
	return 0;
}

/* len bytes received (out: sent) whole, or fewer at EOF; -errno. */
static long chat_full(int fd, char *buf, size_t len, int out)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = out ? chat_send(fd, buf + done, len - done, MSG_NOSIGNAL)
			: chat_recv(fd, buf + done, len - done, 0);
		if (n > 0)
			done += (size_t)n;
		else if (n == 0 && !out)
			break;
		else if (n < 0 && errno != EINTR)
			return -errno;
	}
	return (long)done;
}

long chat_recv_full(int fd, void *buf, size_t len)
{
	return chat_full(fd, buf, len, 0);
}

long chat_send_full(int fd, const void *buf, size_t len)
{
	return chat_full(fd, (char *)buf, len, 1);
}

void *chat_zalloc(size_t len)
{
	void *p = aligned_alloc(64, (len + 63) & ~(size_t)63);

	if (p)
		memset(p, 0, len);
	return p;
}

void chat_omit_begin(const struct chat_run_cfg *c, struct chat_run_result *r,
		     double t_go, uint64_t delivered)
{
	r->omitted = delivered;
	r->omitted_s = clock_now() - t_go;
	if (c->measure)
		c->measure(c->measure_arg);
}

void chat_omit_short(char *buf, size_t len, const struct chat_run_cfg *c,
		     double t_go)
{
	snprintf(buf, len,
		 "--omit %g s: the exchange ended after %.3f s, before its measured part began (more --messages, or a shorter --omit)",
		 c->omit_s, clock_now() - t_go);
}

double chat_default_timeout(const struct chat_run_cfg *c)
{
	double due = (double)c->rooms * c->users * c->messages * (c->users - 1);

	return 60.0 + due / 20000.0;
}

int chat_check_surplus(int fd, uint16_t room, uint16_t user, char *err,
		       size_t elen)
{
	uint8_t b;

	if (recv(fd, &b, 1, MSG_DONTWAIT | MSG_PEEK) == 1) {
		snprintf(err, elen,
			 "room %u user %u: got more than its room's messages",
			 room, user);
		return -1;
	}
	return 0;
}

void chat_reserve(uint8_t **buf, size_t *cap, size_t need, size_t first)
{
	size_t c = *cap ? *cap : first;
	uint8_t *b;

	if (need <= *cap)
		return;
	while (c < need)
		c *= 2;
	b = realloc(*buf, c);
	if (!b)
		abort();
	*buf = b;
	*cap = c;
}

int chat_user_connect(const struct chat_run_cfg *c, uint16_t room,
		      uint16_t user, char *err, size_t len)
{
	struct chat_join j = {.token = c->token,
			      .rooms = c->rooms,
			      .users = c->users,
			      .messages = c->messages,
			      .size = c->size,
			      .flags = c->nodelay ? CHAT_JOIN_NODELAY : 0};
	uint8_t f[CHAT_JOIN_LEN];
	char why[256];
	int fd;

	fd = sock_connect(c->host, c->port, SOCK_STREAM, 10000, why,
			  sizeof(why));
	if (fd < 0) {
		snprintf(err, len, "room %u user %u: %s", room, user, why);
		return -1;
	}
	if (c->nodelay)
		sock_set_nodelay(fd, 1);
	chatframe_join(f, room, user, &j);
	if (chat_send_full(fd, f, sizeof(f)) != (long)sizeof(f)) {
		snprintf(err, len,
			 "room %u user %u: sending JOIN to %s:%d failed", room,
			 user, c->host, c->port);
		close(fd);
		return -1;
	}
	return fd;
}

int chat_check_msg(const struct chat_run_cfg *c, uint16_t room, uint16_t user,
		   uint32_t *next, const struct chat_hdr *h, char *err,
		   size_t elen)
{
	if (h->type != CHAT_MSG || h->len != c->size)
		snprintf(err, elen,
			 "got %s frame of %u bytes, expected MSG of %u",
			 chatframe_type_name(h->type), h->len, c->size);
	else if (h->room != room)
		snprintf(err, elen, "got a message of room %u", h->room);
	else if (h->sender >= c->users || h->sender == user)
		snprintf(err, elen, "got a message from user %u", h->sender);
	else if (h->seq != next[h->sender] || h->seq >= c->messages)
		snprintf(err, elen,
			 "got message seq %u from user %u, expected seq %u",
			 h->seq, h->sender, next[h->sender]);
	else
		return 0;
	return -1;
}

void chat_ready_timeout(char *buf, size_t len, const struct chat_run_cfg *c,
			uint32_t nready, uint32_t n)
{
	snprintf(
		buf, len,
		"timed out after %.1f s waiting for the server to start the rooms (%u of %u users ready)",
		c->timeout_s, nready, n);
}

void chat_run_timeout(char *buf, size_t len, const struct chat_run_cfg *c,
		      uint64_t expected, const uint64_t *got, uint32_t n)
{
	uint64_t due = (uint64_t)c->messages * (c->users - 1), sum = 0;
	uint32_t i, shortn = 0, first = 0;

	for (i = 0; i < n; i++) {
		sum += got[i];
		if (got[i] < due && !shortn++)
			first = i;
	}
	snprintf(
		buf, len,
		"run timed out after %.1f s: %llu of %llu messages missing; %u of %u users short, first room %u user %u with %llu of %llu",
		c->timeout_s, (unsigned long long)(expected - sum),
		(unsigned long long)expected, shortn, n, first / c->users,
		first % c->users, (unsigned long long)(n ? got[first] : 0),
		(unsigned long long)due);
}
