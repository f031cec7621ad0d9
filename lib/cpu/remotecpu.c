/*
 * remotecpu.c: the client of `cyclesoak --serve` (protocol in
 * lib/wire/soakproto.h and man cyclesoak): a benchmark opens a CPU window on a
 * host whose server is not ours and gets its figures at the end. Every
 * read and write has a timeout; every error names the server and the
 * phase, and shows what the server said escaped (lib/core/esc).
 */
#include "config.h"
#include "cpujson.h"
#include "esc.h"
#include "remotecpu.h"
#include "peerrep.h"
#include "sock.h"
#include "soakproto.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct remotecpu {
	int fd;		/* the control connection */
	int timeout_ms; /* per step of every exchange */
	char peer[300]; /* "host:port" for messages */
	char *buf;	/* bytes received, not yet used */
	size_t len, cap;
	json_t *host; /* the server's host facts */
	int open;     /* a window is open */
	int soak_default; /* the server's default meters include soak */
};

/* One reply line (without newline) into *line, valid until the next
 * call. 0 or -errno with err filled. */
static int rc_line(struct remotecpu *r, const char *phase, char **line,
		   char *err, size_t len)
{
	char *nl;
	ssize_t n;
	int w;

	for (;;) {
		nl = r->len ? memchr(r->buf, '\n', r->len) : NULL;
		if (nl)
			break;
		if (r->len >= SOAKPROTO_REPLY_MAX) {
			snprintf(
				err, len,
				"cyclesoak server %s: %s: reply longer than %d bytes",
				r->peer, phase, SOAKPROTO_REPLY_MAX);
			return -EPROTO;
		}
		if (r->cap - r->len < 4096) {
			r->cap = r->cap ? r->cap * 2 : 8192;
			r->buf = realloc(r->buf, r->cap);
			if (!r->buf)
				abort();
		}
		w = sock_wait(r->fd, POLLIN, r->timeout_ms);
		if (w == 0) {
			snprintf(
				err, len,
				"cyclesoak server %s: %s: no reply within %d ms",
				r->peer, phase, r->timeout_ms);
			return -ETIMEDOUT;
		}
		n = w < 0 ? w : read(r->fd, r->buf + r->len, r->cap - r->len);
		if (n <= 0) {
			snprintf(err, len, "cyclesoak server %s: %s: %s",
				 r->peer, phase,
				 n == 0 ? "connection closed"
					: strerror(errno));
			return n == 0 ? -EPIPE : -errno;
		}
		r->len += (size_t)n;
	}
	*nl = 0;
	*line = r->buf;
	return 0;
}

static void rc_consume(struct remotecpu *r, const char *line)
{
	size_t used = strlen(line) + 1;

	memmove(r->buf, r->buf + used, r->len - used);
	r->len -= used;
}

/* Send cmd, read the reply; 0 with *payload (malloc'd) or -errno. */
static int rc_cmd(struct remotecpu *r, const char *cmd, char **payload,
		  char *err, size_t len)
{
	char out[SOAKPROTO_LINE_MAX], *line = NULL, shown[256];
	const char *p;
	int n, k;

	*payload = NULL;
	n = snprintf(out, sizeof(out), "%s\n", cmd);
	if (n < 0 || (size_t)n >= sizeof(out)) {
		snprintf(err, len, "command too long");
		return -EINVAL;
	}
	if (sock_write_full(r->fd, out, (size_t)n, r->timeout_ms) != n) {
		snprintf(err, len, "cyclesoak server %s: %s: cannot send",
			 r->peer, cmd);
		return -EPIPE;
	}
	k = rc_line(r, cmd, &line, err, len);
	if (k)
		return k;
	k = soakproto_reply(line, &p);
	if (k == 1)
		*payload = strdup(p);
	else if (k == 0)
		snprintf(err, len, "cyclesoak server %s: %s: %s", r->peer, cmd,
			 esc_text(shown, sizeof(shown), p));
	else
		snprintf(err, len,
			 "cyclesoak server %s: %s: not a protocol reply: %s",
			 r->peer, cmd, esc_text(shown, 64, p));
	rc_consume(r, line);
	return k == 1 ? 0 : k == 0 ? -EREMOTEIO : -EPROTO;
}

struct remotecpu *remotecpu_open(const char *hostport, int timeout_ms,
				 char *err, size_t len)
{
	struct remotecpu *r;
	char host[256], *p, *d, shown[48];
	int port, fd;

	if (sock_split_hostport(hostport, host, sizeof(host), &port,
				REMOTECPU_PORT)) {
		snprintf(err, len, "bad cyclesoak server address \"%s\"",
			 hostport ? hostport : "");
		return NULL;
	}
	fd = sock_connect(host, port, SOCK_STREAM, timeout_ms, err, len);
	if (fd < 0)
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		abort();
	r->fd = fd;
	r->timeout_ms = timeout_ms > 0 ? timeout_ms : 10000;
	snprintf(r->peer, sizeof(r->peer), "%s:%d", host, port);
	if (rc_cmd(r, "HELLO", &p, err, len)) {
		remotecpu_close(r);
		return NULL;
	}
	if (strncmp(p, SOAKPROTO_VERSION, strlen(SOAKPROTO_VERSION))) {
		snprintf(err, len,
			 "cyclesoak server %s: HELLO: speaks \"%s\", not %s",
			 r->peer, esc_text(shown, sizeof(shown), p),
			 SOAKPROTO_VERSION);
		free(p);
		remotecpu_close(r);
		return NULL;
	}
	d = strstr(p, " default=");
	r->soak_default = d && (!strncmp(d + 9, "soak", 4) &&
				(d[13] == ',' || d[13] == ' ' || !d[13]));
	if (d && !r->soak_default)
		r->soak_default = !!strstr(d, ",soak");
	free(p);
	return r;
}

int remotecpu_paired(const struct remotecpu *r, const char *meters)
{
	if (!meters)
		return r->soak_default;
	return !strncmp(meters, "soak", 4) || strstr(meters, ",soak") != NULL;
}

int remotecpu_soak(struct remotecpu *r, int metered, char *err, size_t len)
{
	char *p;
	int k = rc_cmd(r, metered ? "SOAK on" : "SOAK off", &p, err, len);

	free(p);
	return k;
}

int remotecpu_start(struct remotecpu *r, const char *meters, char *err,
		    size_t len)
{
	char cmd[300], *p;
	int k;

	snprintf(cmd, sizeof(cmd), "START%s%s", meters ? " " : "",
		 meters ? meters : "");
	k = rc_cmd(r, cmd, &p, err, len);
	free(p);
	if (!k)
		r->open = 1;
	return k;
}

/* STOP or REPORT: parse the JSON report into out. */
static int rc_figures(struct remotecpu *r, const char *cmd,
		      struct cpu_sample *out, int max, char *err, size_t len)
{
	json_error_t je;
	char *p, e2[256];
	json_t *j;
	int k;

	k = rc_cmd(r, cmd, &p, err, len);
	if (k)
		return k;
	j = json_loads(p, JSON_REJECT_DUPLICATES, &je);
	free(p);
	if (!json_is_object(j)) {
		snprintf(err, len,
			 "cyclesoak server %s: %s: report is not a JSON object",
			 r->peer, cmd);
		json_decref(j);
		return -EPROTO;
	}
	k = cpujson_from_report(j, out, max, e2, sizeof(e2));
	if (k < 0)
		snprintf(err, len, "cyclesoak server %s: %s: %s", r->peer, cmd,
			 e2);
	if (json_is_object(json_object_get(j, "host"))) {
		json_decref(r->host);
		r->host = json_incref(json_object_get(j, "host"));
	}
	json_decref(j);
	return k;
}

int remotecpu_stop(struct remotecpu *r, struct cpu_sample *out, int max,
		   char *err, size_t len)
{
	int k = rc_figures(r, "STOP", out, max, err, len);

	r->open = 0;
	return k;
}

int remotecpu_report(struct remotecpu *r, struct cpu_sample *out, int max,
		     char *err, size_t len)
{
	return rc_figures(r, "REPORT", out, max, err, len);
}

json_t *remotecpu_host(struct remotecpu *r)
{
	char err[256], *p;
	json_t *j;

	if (!r->host && !rc_cmd(r, "HOST", &p, err, sizeof(err))) {
		j = json_loads(p, JSON_REJECT_DUPLICATES, NULL);
		free(p);
		if (json_is_object(j))
			r->host = j;
		else
			json_decref(j);
	}
	return r->host ? json_incref(r->host) : NULL;
}

json_t *remotecpu_calib(struct remotecpu *r, char *err, size_t len)
{
	char *p;
	json_t *j;

	if (rc_cmd(r, "CALIB", &p, err, len))
		return NULL;
	j = json_loads(p, JSON_REJECT_DUPLICATES, NULL);
	free(p);
	if (!json_is_object(j)) {
		snprintf(err, len,
			 "cyclesoak server %s: CALIB: not a JSON object",
			 r->peer);
		json_decref(j);
		return NULL;
	}
	return j;
}

void remotecpu_close(struct remotecpu *r)
{
	if (!r)
		return;
	if (r->fd >= 0) {
		/* best effort; the server also ends a window on hang-up */
		if (write(r->fd, "QUIT\n", 5) < 0)
			r->open = 0;
		close(r->fd);
	}
	json_decref(r->host);
	free(r->buf);
	free(r);
}
