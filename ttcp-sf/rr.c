/*
 * rr.c: what both sides of request/response share (rr.h): the setup
 * frame, the UDP sequence stamp, and whole reads and writes that rely on
 * the socket's own timeouts (one syscall per step: a transaction of a
 * byte each way is two syscalls on each side, as in netperf).
 */
#include "config.h"
#include "rr.h"
#include "sig.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void rr_setup_put(unsigned char *b, const struct rr_setup *s)
{
	uint32_t req = htonl(s->req), resp = htonl(s->resp);

	memcpy(b, RR_MAGIC, 6);
	b[6] = (unsigned char)s->kind;
	b[7] = 0;
	memcpy(b + 8, &req, 4);
	memcpy(b + 12, &resp, 4);
	b[16] = (unsigned char)(s->flows >> 8);
	b[17] = (unsigned char)s->flows;
	b[18] = (unsigned char)(s->flow >> 8);
	b[19] = (unsigned char)s->flow;
}

/* -EINVAL, saying why (when asked). */
static int __attribute__((format(printf, 3, 4)))
bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int rr_setup_get(const unsigned char *b, struct rr_setup *s, char *why,
		 size_t len)
{
	uint32_t req, resp, max;

	if (memcmp(b, RR_MAGIC, 6))
		return bad(why, len, "no --rr setup frame");
	if (b[7] || b[6] < RR_TCP || b[6] > RR_UDP_END)
		return bad(why, len, "kind %u.%u unknown (1 to %d)", b[6], b[7],
			   RR_UDP_END);
	memcpy(&req, b + 8, 4);
	memcpy(&resp, b + 12, 4);
	s->kind = b[6];
	s->req = ntohl(req);
	s->resp = ntohl(resp);
	s->flows = (uint16_t)(b[16] << 8 | b[17]);
	s->flow = (uint16_t)(b[18] << 8 | b[19]);
	if (!s->flows || s->flows > RR_FLOWS_MAX)
		return bad(why, len, "%u flows out of range (1 to %d)",
			   s->flows, RR_FLOWS_MAX);
	if (s->flow >= s->flows)
		return bad(why, len, "flow %u of %u", s->flow + 1, s->flows);
	if (s->flows > 1 && s->kind != RR_TCP)
		return bad(why, len, "%u flows of %s (-P is TCP_RR's only)",
			   s->flows, rr_name(s->kind));
	if (s->kind == RR_CRR_END || s->kind == RR_UDP_END)
		return 0;
	max = s->kind == RR_UDP ? RR_UDP_MAX : RR_MAX_SIZE;
	if (!s->req || s->req > max)
		return bad(why, len, "request size %u out of range (1 to %u%s)",
			   s->req, max, s->kind == RR_UDP ? ", a datagram" : "");
	if (!s->resp || s->resp > max)
		return bad(why, len, "response size %u out of range (1 to %u%s)",
			   s->resp, max, s->kind == RR_UDP ? ", a datagram" : "");
	return 0;
}

const char *rr_name(int kind)
{
	switch (kind) {
	case RR_TCP:
		return "tcp_rr";
	case RR_CRR:
	case RR_CRR_END:
		return "tcp_crr";
	case RR_UDP:
	case RR_UDP_END:
		return "udp_rr";
	}
	return "?";
}

void rr_stamp_put(unsigned char *b, size_t size, uint64_t seq)
{
	uint32_t be = htonl((uint32_t)seq);

	memcpy(b, (unsigned char *)&be + 4 - (size < 4 ? size : 4),
	       size < 4 ? size : 4);
}

uint32_t rr_stamp_get(const unsigned char *b, size_t size)
{
	size_t n = size < 4 ? size : 4, i;
	uint32_t v = 0;

	for (i = 0; i < n; i++)
		v = v << 8 | b[i];
	return v;
}

ssize_t rr_read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = read(fd, (char *)buf + got, len - got);
		if (n == 0)
			break;
		if (n > 0) {
			got += (size_t)n;
			continue;
		}
		if (errno == EINTR && !sig_stop)
			continue;
		return errno == EAGAIN ? -ETIMEDOUT : -errno;
	}
	return (ssize_t)got;
}

ssize_t rr_write_full(int fd, const void *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = send(fd, (const char *)buf + done, len - done,
			 MSG_NOSIGNAL);
		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR && !sig_stop)
			continue;
		return n == 0 ? -EIO : errno == EAGAIN ? -ETIMEDOUT : -errno;
	}
	return (ssize_t)done;
}
