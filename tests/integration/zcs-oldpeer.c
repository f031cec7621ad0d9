/*
 * zcs-oldpeer.c: the zcs and zcc of before paired runs, for the tests of
 * the ZCB1 hello's run kinds (zcs-pairs.sh). Each speaks the extension as
 * it was: hello flags ZCW_F_CPU alone, nothing about runs.
 *
 *   zcs-oldpeer server PORTFILE N
 *      an older zcs on 127.0.0.1 (port 0, written to PORTFILE): for N
 *      connections, answer a hello granting ZCW_F_CPU alone (what it
 *      knew), read the stream, then report a soak sample that ran (its
 *      soakers never park) with the exact byte counts, and close
 *   zcs-oldpeer client PORT FLAGS BYTES
 *      an older zcc (FLAGS 1) or any hello: one loop of one file of
 *      BYTES; prints "answer FLAGS" and the server's report (one JSON
 *      line) on stdout
 */
#include "config.h"
#include "cpujson.h"
#include "meter.h"
#include "peerrep.h"
#include "sock.h"
#include "zcwire.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WAIT_MS 30000

static int fail(const char *what)
{
	fprintf(stderr, "zcs-oldpeer: %s\n", what);
	return 1;
}

/* An older zcs's answer: it granted what it knew, ZCW_F_CPU. */
static int answer(int fd, uint32_t flags)
{
	uint8_t b[ZCW_HELLO_LEN];
	json_t *j = json_pack("{s:s, s:s, s:b}", "tool", "zcs", "recv_method",
			      "read", "measures_cpu", 1);
	int r;

	zcw_hello_encode(b, flags & 0x1u);
	r = sock_write_full(fd, b, sizeof(b), WAIT_MS) != (ssize_t)sizeof(b) ||
	    peerrep_send(fd, j, WAIT_MS);
	json_decref(j);
	return r ? fail("cannot answer the hello") : 0;
}

/* One connection as an older zcs served it. */
static int serve_one(int fd)
{
	struct cpu_sample cs[2];
	uint8_t b[65536];
	struct zcw_dec d;
	size_t want;
	int answered = 0;
	json_t *j;
	ssize_t n;

	zcw_dec_init(&d, NULL, 1);
	while (!zcw_dec_done(&d)) {
		/* header words exactly, so the hello is answered at once */
		want = zcw_dec_want(&d) ? zcw_dec_want(&d) : zcw_dec_need(&d);
		n = read(fd, b, want < sizeof(b) ? want : sizeof(b));
		if (n <= 0)
			return fail("stream ended early");
		if (zcw_dec_push(&d, b, (size_t)n) < 0)
			return fail(d.err);
		if (d.hello && !answered++ && answer(fd, d.flags))
			return 1;
	}
	if (!d.hello || !(d.flags & ZCW_F_CPU))
		return 0;
	memset(cs, 0, sizeof(cs));
	snprintf(cs[0].meter, sizeof(cs[0].meter), "soak");
	snprintf(cs[1].meter, sizeof(cs[1].meter), "procstat");
	for (n = 0; n < 2; n++) { /* its soakers ran: the soak figure is ok */
		cs[n].ok = 1;
		cs[n].ncpu = 2;
		cs[n].busy_pct = 50;
		cs[n].elapsed_s = 0.1;
		snprintf(cs[n].scope, sizeof(cs[n].scope), "box");
	}
	j = cpujson_report(cs, 2);
	json_object_set_new(
		j, "zcs",
		json_pack("{s:I, s:I, s:I, s:f, s:i, s:s}", "payload_bytes",
			  (json_int_t)d.payload_bytes, "header_bytes",
			  (json_int_t)d.header_bytes, "files",
			  (json_int_t)d.files_done, "window_s", 0.1,
			  "connections", 1, "recv_method", "read"));
	if (peerrep_send(fd, j, WAIT_MS))
		return fail("cannot send the report");
	json_decref(j);
	sock_wait(fd, 1 /* POLLIN: the client's FIN */, WAIT_MS);
	return 0;
}

static int server(const char *portfile, int n)
{
	char err[256];
	int lfd, fd, port, i;
	FILE *f;

	lfd = sock_listen("127.0.0.1", 0, SOCK_STREAM, 8, &port, err,
			  sizeof(err));
	if (lfd < 0)
		return fail(err);
	f = fopen(portfile, "w");
	if (!f || fprintf(f, "%d\n", port) < 0 || fclose(f))
		return fail("cannot write the port file");
	for (i = 0; i < n; i++) {
		if (sock_wait(lfd, 1, WAIT_MS) != 1)
			return fail("no client");
		fd = accept(lfd, NULL, NULL);
		if (fd < 0 || serve_one(fd))
			return 1;
		close(fd);
	}
	close(lfd);
	return 0;
}

static int client(int port, uint32_t flags, uint32_t bytes)
{
	uint8_t b[ZCW_HELLO_LEN], *data = calloc(1, bytes + 1);
	uint32_t v, granted;
	char err[256], *txt;
	json_t *j;
	int fd;

	fd = sock_connect("127.0.0.1", port, SOCK_STREAM, WAIT_MS, err,
			  sizeof(err));
	if (fd < 0 || !data)
		return fail(err);
	zcw_hello_encode(b, flags);
	if (sock_write_full(fd, b, sizeof(b), WAIT_MS) != (ssize_t)sizeof(b) ||
	    sock_read_full(fd, b, sizeof(b), WAIT_MS) != (ssize_t)sizeof(b) ||
	    zcw_hello_decode(b, sizeof(b), &v, &granted, err, sizeof(err)) ||
	    peerrep_recv(fd, &j, WAIT_MS, err, sizeof(err)))
		return fail("hello");
	json_decref(j);
	printf("answer %u\n", granted);
	zcw_put_u32(b, 1);
	zcw_put_u32(b + 4, 1);
	zcw_put_u32(b + 8, bytes);
	if (sock_write_full(fd, b, 12, WAIT_MS) != 12 ||
	    sock_write_full(fd, data, bytes, WAIT_MS) != (ssize_t)bytes)
		return fail("stream");
	if (granted & ZCW_F_CPU) {
		if (peerrep_recv(fd, &j, WAIT_MS, err, sizeof(err)))
			return fail(err);
		txt = json_dumps(j, JSON_COMPACT);
		printf("%s\n", txt);
		free(txt);
		json_decref(j);
	}
	shutdown(fd, SHUT_WR);
	sock_read_full(fd, b, 1, WAIT_MS); /* the server's close */
	close(fd);
	free(data);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "server"))
		return server(argv[2], atoi(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "client"))
		return client(atoi(argv[2]),
			      (uint32_t)strtoul(argv[3], NULL, 0),
			      (uint32_t)strtoul(argv[4], NULL, 0));
	fprintf(stderr,
		"usage: zcs-oldpeer server PORTFILE N | client PORT FLAGS BYTES\n");
	return 2;
}
