/*
 * ttcp-fake.c: a misbehaving ttcp-sf receiver for the tests (ttcp-bounds.sh):
 * listens on 127.0.0.1 (port 0, TCP and UDP on the same number), writes
 * the port to PORTFILE, plays MODE, and exits when its peer is gone or
 * after LIFE seconds (it never outlives a test). Not installed.
 *
 *   ttcp-fake MODE PORTFILE [A [D]]
 *   udp-drop A D   UDP_RR: echo the setup, answer A requests, drop the
 *                  next D (0: every one after), then exit
 *   flood          -R: take the setup frame, then send for ever
 *   trickle        -R: take the setup frame, then a byte every 500 ms
 *   rr-trickle     --rr: answer each request a byte every 200 ms
 *   report-stall   take the data and the hello, answer 10 bytes of a
 *                  report frame, then nothing
 */
#include "config.h"
#include "sock.h"

#include <arpa/inet.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define LIFE 60 /* seconds, at most */
#define RR_SETUP 20

static time_t start;

static void alive(void)
{
	if (time(NULL) - start > LIFE)
		exit(3);
}

static int accept_one(int lfd)
{
	int fd;

	while (sock_wait(lfd, POLLIN, 1000) != 1)
		alive();
	fd = accept(lfd, NULL, NULL);
	if (fd < 0)
		exit(1);
	return fd;
}

/* n bytes, or exit: the peer is gone */
static void take(int fd, void *b, size_t n)
{
	if (sock_read_full(fd, b, n, LIFE * 1000) != (ssize_t)n)
		exit(0);
}

static void put(int fd, const void *b, size_t n)
{
	if (sock_write_full(fd, b, n, LIFE * 1000) != (ssize_t)n)
		exit(0);
	alive();
}

/* A peerrep frame (a -R setup, a hello), its bytes dropped. */
static void take_frame(int fd)
{
	unsigned char h[8], *b;
	uint32_t be;

	take(fd, h, sizeof(h));
	memcpy(&be, h + 4, 4);
	b = malloc(ntohl(be));
	if (!b)
		exit(1);
	take(fd, b, ntohl(be));
	free(b);
}

/* Until the peer closes (or LIFE). */
static void hold(int fd)
{
	static char b[4096];

	for (;;) {
		if (sock_wait(fd, POLLIN, 1000) == 1 && read(fd, b, sizeof(b)) <= 0)
			exit(0);
		alive();
	}
}

static void nap(long ms)
{
	struct timespec ts = {ms / 1000, ms % 1000 * 1000000};

	nanosleep(&ts, NULL);
}

static void udp_drop(int ufd, long answer, long drop)
{
	unsigned char b[65536], resp[65536] = {0};
	struct sockaddr_storage from;
	socklen_t alen;
	uint32_t be;
	size_t rsz = 1;
	long reqs = 0;
	ssize_t n;

	for (;;) {
		while (sock_wait(ufd, POLLIN, 1000) != 1)
			alive();
		alen = sizeof(from);
		n = recvfrom(ufd, b, sizeof(b), 0, (struct sockaddr *)&from,
			     &alen);
		if (n == RR_SETUP && !memcmp(b, "ZCBRR1", 6)) {
			memcpy(&be, b + 12, 4);
			rsz = ntohl(be) < sizeof(resp) ? ntohl(be) : 1;
			if (b[6] == 4) /* the setup, echoed; not the end */
				sendto(ufd, b, RR_SETUP, 0,
				       (struct sockaddr *)&from, alen);
			continue;
		}
		alive();
		if (n <= 0)
			continue;
		reqs++;
		if (reqs <= answer) {
			memcpy(resp, b, n < 4 ? (size_t)n : 4); /* the stamp */
			sendto(ufd, resp, rsz, 0, (struct sockaddr *)&from,
			       alen);
		} else if (drop && reqs >= answer + drop) {
			exit(0);
		}
	}
}

static void rr_trickle(int fd)
{
	unsigned char su[RR_SETUP], *req, c = 0;
	uint32_t be, rq, rs, i;

	take(fd, su, sizeof(su));
	memcpy(&be, su + 8, 4);
	rq = ntohl(be);
	memcpy(&be, su + 12, 4);
	rs = ntohl(be);
	req = malloc(rq ? rq : 1);
	if (!req)
		exit(1);
	for (;;) {
		take(fd, req, rq);
		for (i = 0; i < rs; i++) {
			put(fd, &c, 1);
			nap(200);
		}
	}
}

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	char err[256];
	int lfd, ufd, fd, port;
	FILE *f;

	start = time(NULL);
	if (argc < 3) {
		fprintf(stderr, "usage: ttcp-fake MODE PORTFILE [A [D]]\n");
		return 2;
	}
	lfd = sock_listen("127.0.0.1", 0, SOCK_STREAM, 8, &port, err,
			  sizeof(err));
	ufd = lfd < 0 ? -1 :
			sock_listen("127.0.0.1", port, SOCK_DGRAM, 0, NULL, err,
				    sizeof(err));
	if (lfd < 0 || ufd < 0) {
		fprintf(stderr, "ttcp-fake: %s\n", err);
		return 1;
	}
	f = fopen(argv[2], "w");
	if (!f || fprintf(f, "%d\n", port) < 0 || fclose(f))
		return 1;
	if (!strcmp(argv[1], "udp-drop")) {
		udp_drop(ufd, argc > 3 ? atol(argv[3]) : 0,
			 argc > 4 ? atol(argv[4]) : 0);
		return 0;
	}
	fd = accept_one(lfd);
	if (!strcmp(argv[1], "rr-trickle"))
		rr_trickle(fd);
	if (!strcmp(argv[1], "report-stall")) {
		while (sock_wait(fd, POLLIN, 1000) != 1 ||
		       read(fd, buf, sizeof(buf)) > 0) /* the data */
			alive();
		close(fd);
		fd = accept_one(lfd);
		take_frame(fd); /* the hello */
		put(fd, "ZCBR\0\0\3\350{\"", 10);
		hold(fd);
	}
	take_frame(fd); /* the -R setup */
	for (;;) {
		if (!strcmp(argv[1], "flood")) {
			put(fd, buf, sizeof(buf));
			continue;
		}
		put(fd, buf, 1);
		nap(500);
	}
}
