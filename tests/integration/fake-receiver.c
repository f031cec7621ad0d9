/*
 * fake-receiver.c: a ttcp-sf receiver that lies, for peer-strings.sh.
 * Listens on 127.0.0.1 (port 0) and writes the port to PORTFILE; takes
 * one data connection and reads it to its end; takes the report
 * connection, reads the transmitter's hello frame and answers with the
 * JSON object in REPORT as its report (lib/wire/peerrep frame), "bytes"
 * set to what the data connection carried. Ends after 60 s whatever
 * happens.
 *   fake-receiver PORTFILE REPORT
 */
#include "config.h"
#include "peerrep.h"
#include "sock.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

static int say_port(const char *path, int port)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", port) < 0 || fclose(f))
		return -1;
	return rename(tmp, path);
}

int main(int argc, char **argv)
{
	char err[256] = "", buf[65536];
	json_t *hello, *rep;
	json_error_t je;
	long long bytes = 0;
	int lfd, fd, port;
	ssize_t n;

	if (argc != 3) {
		fprintf(stderr, "usage: fake-receiver PORTFILE REPORT\n");
		return 2;
	}
	alarm(60);
	rep = json_load_file(argv[2], 0, &je);
	if (!json_is_object(rep)) {
		fprintf(stderr, "fake-receiver: %s: %s\n", argv[2], je.text);
		return 2;
	}
	lfd = sock_listen("127.0.0.1", 0, SOCK_STREAM, 8, &port, err,
			  sizeof(err));
	if (lfd < 0 || say_port(argv[1], port)) {
		fprintf(stderr, "fake-receiver: %s\n", lfd < 0 ? err : argv[1]);
		return 1;
	}
	fd = accept(lfd, NULL, NULL);
	while (fd >= 0 && (n = read(fd, buf, sizeof(buf))) > 0)
		bytes += n;
	if (fd >= 0)
		close(fd);
	fd = accept(lfd, NULL, NULL);
	if (fd < 0 || peerrep_recv(fd, &hello, 10000, err, sizeof(err))) {
		fprintf(stderr, "fake-receiver: no hello: %s\n", err);
		return 1;
	}
	json_decref(hello);
	json_object_set_new(rep, "bytes", json_integer(bytes));
	if (peerrep_send(fd, rep, 10000)) {
		fprintf(stderr, "fake-receiver: report not sent\n");
		return 1;
	}
	json_decref(rep);
	close(fd);
	close(lfd);
	return 0;
}
