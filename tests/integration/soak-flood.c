/*
 * soak-flood.c: clients that never read, for cyclesoak-serve-limits.sh.
 * Opens N connections to 127.0.0.1:PORT, each with SO_RCVBUF 4096, and
 * writes LINES copies of "CMD\n" to each as fast as the server takes
 * them, without ever reading a reply. Prints "ready" once every
 * connection has sent at least 16 KiB (or all its lines), then goes on
 * sending; exits when SIGTERM comes, or after 600 s, whatever happens.
 *   soak-flood PORT N LINES CMD
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define FLOOD_MAX 256
#define FLOOD_READY (16 * 1024)

static int conn(int port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), rcv = 4096;
	struct pollfd p;

	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv)))
		return -1;
	sa.sin_port = htons((unsigned short)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) &&
	    errno != EINPROGRESS)
		return -1;
	p.fd = fd;
	p.events = POLLOUT;
	return poll(&p, 1, 10000) == 1 ? fd : -1;
}

int main(int argc, char **argv)
{
	static size_t sent[FLOOD_MAX];
	struct pollfd pf[FLOOD_MAX];
	char *all;
	size_t cl, total;
	int n, i, port, ready = 0, left;
	long lines;
	ssize_t w;

	if (argc != 5) {
		fprintf(stderr, "usage: soak-flood PORT N LINES CMD\n");
		return 2;
	}
	port = atoi(argv[1]);
	n = atoi(argv[2]);
	lines = atol(argv[3]);
	cl = strlen(argv[4]) + 1;
	if (n < 1 || n > FLOOD_MAX || lines < 1 || lines > 10000000)
		return 2;
	alarm(600);
	total = cl * (size_t)lines;
	all = malloc(total);
	if (!all)
		return 1;
	for (i = 0; i < lines; i++) {
		memcpy(all + (size_t)i * cl, argv[4], cl - 1);
		all[(size_t)i * cl + cl - 1] = '\n';
	}
	for (i = 0; i < n; i++) {
		pf[i].fd = conn(port);
		pf[i].events = POLLOUT;
		if (pf[i].fd < 0) {
			fprintf(stderr, "soak-flood: connection %d: %s\n", i,
				strerror(errno));
			return 1;
		}
	}
	for (;;) {
		left = 0;
		for (i = 0; i < n; i++) {
			if (pf[i].fd >= 0 && sent[i] < total)
				left++;
			else
				pf[i].fd = -1;
		}
		if (!ready) {
			for (i = 0; i < n; i++)
				if (sent[i] < FLOOD_READY && sent[i] < total &&
				    pf[i].fd >= 0)
					break;
			if (i == n) {
				printf("ready\n");
				fflush(stdout);
				ready = 1;
			}
		}
		if (!left) {
			pause(); /* everything sent: hold the connections */
			continue;
		}
		if (poll(pf, (nfds_t)n, 1000) < 0 && errno != EINTR)
			return 1;
		for (i = 0; i < n; i++) {
			if (pf[i].fd < 0 || !pf[i].revents)
				continue;
			w = send(pf[i].fd, all + sent[i], total - sent[i],
				 MSG_NOSIGNAL | MSG_DONTWAIT);
			if (w > 0)
				sent[i] += (size_t)w;
			else if (w < 0 && errno != EAGAIN && errno != EINTR)
				pf[i].fd = -1; /* hung up on: keep the rest */
		}
	}
}
