/*
 * zcs-sink.c: an "original zcs" for the tests: listens on 127.0.0.1 (port
 * 0), writes the port to PORTFILE, accepts one connection, stores every
 * byte it receives in OUTFILE until the client closes, never writes a
 * byte, then closes. zcs-original.sh compares OUTFILE with golden bytes.
 *   zcs-sink PORTFILE OUTFILE
 */
#include "config.h"
#include "sock.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char err[256], buf[65536];
	int lfd, fd, port;
	ssize_t n;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: zcs-sink PORTFILE OUTFILE\n");
		return 2;
	}
	lfd = sock_listen("127.0.0.1", 0, SOCK_STREAM, 8, &port, err,
			  sizeof(err));
	if (lfd < 0) {
		fprintf(stderr, "zcs-sink: %s\n", err);
		return 1;
	}
	f = fopen(argv[1], "w");
	if (!f || fprintf(f, "%d\n", port) < 0 || fclose(f))
		return 1;
	if (sock_wait(lfd, 1 /* POLLIN */, 30000) != 1)
		return 1;
	fd = accept(lfd, NULL, NULL);
	f = fopen(argv[2], "w");
	if (fd < 0 || !f)
		return 1;
	while ((n = sock_read_full(fd, buf, sizeof(buf), 30000)) > 0)
		if (fwrite(buf, 1, (size_t)n, f) != (size_t)n)
			return 1;
	fclose(f);
	close(fd);
	return n < 0 ? 1 : 0;
}
