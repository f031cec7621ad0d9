/* peerrep.c: framing and checking of the end-of-run peer report. */
#include "config.h"
#include "esc.h"
#include "peerrep.h"
#include "sock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

size_t peerrep_encode(json_t *obj, uint8_t **out)
{
	char *txt = json_dumps(obj, JSON_COMPACT);
	size_t n = txt ? strlen(txt) : 0;
	uint32_t be = htonl((uint32_t)n);
	uint8_t *b = malloc(PEERREP_HDR + n);

	if (!b || !txt)
		abort();
	memcpy(b, PEERREP_MAGIC, 4);
	memcpy(b + 4, &be, 4);
	memcpy(b + PEERREP_HDR, txt, n);
	free(txt);
	*out = b;
	return PEERREP_HDR + n;
}

int peerrep_decode(const uint8_t *buf, size_t len, size_t *consumed,
		   json_t **out, char *err, size_t elen)
{
	json_error_t je;
	char shown[sizeof(je.text) * 4];
	uint32_t be, n;
	json_t *j;

	*out = NULL;
	if (len < 4) {
		if (memcmp(buf, PEERREP_MAGIC, len)) {
			snprintf(err, elen, "peer report: bad magic");
			return -EINVAL;
		}
		return 0;
	}
	if (memcmp(buf, PEERREP_MAGIC, 4)) {
		snprintf(err, elen, "peer report: bad magic");
		return -EINVAL;
	}
	if (len < PEERREP_HDR)
		return 0;
	memcpy(&be, buf + 4, 4);
	n = ntohl(be);
	if (n == 0 || n > PEERREP_MAX) {
		snprintf(err, elen, "peer report: length %u out of range (1..%d)",
			 n, PEERREP_MAX);
		return -EINVAL;
	}
	if (len - PEERREP_HDR < n)
		return 0;
	j = json_loadb((const char *)buf + PEERREP_HDR, n, JSON_REJECT_DUPLICATES,
		       &je);
	if (!j) {
		/* jansson quotes the peer's bad token */
		snprintf(err, elen, "peer report: not JSON: %s",
			 esc_text(shown, sizeof(shown), je.text));
		return -EINVAL;
	}
	if (!json_is_object(j)) {
		json_decref(j);
		snprintf(err, elen, "peer report: not a JSON object");
		return -EINVAL;
	}
	*out = j;
	*consumed = PEERREP_HDR + n;
	return 1;
}

int peerrep_send(int fd, json_t *obj, int timeout_ms)
{
	uint8_t *b;
	size_t n = peerrep_encode(obj, &b);
	ssize_t w = sock_write_full(fd, b, n, timeout_ms);

	free(b);
	if (w < 0)
		return (int)w;
	return (size_t)w == n ? 0 : -EPIPE;
}

int peerrep_recv(int fd, json_t **out, int timeout_ms, char *err,
		 size_t elen)
{
	uint8_t hdr[PEERREP_HDR], *b;
	size_t used;
	ssize_t r;
	uint32_t be;
	int d;

	r = sock_read_full(fd, hdr, sizeof(hdr), timeout_ms);
	if (r < 0 || r < (ssize_t)sizeof(hdr)) {
		snprintf(err, elen, "peer report: %s",
			 r == -ETIMEDOUT ? "timed out" :
			 r < 0		 ? strerror((int)-r) :
					   "connection closed before the report");
		return r < 0 ? (int)r : -EPIPE;
	}
	d = peerrep_decode(hdr, sizeof(hdr), &used, out, err, elen);
	if (d < 0)
		return d;
	memcpy(&be, hdr + 4, 4);
	b = malloc(PEERREP_HDR + ntohl(be));
	if (!b)
		abort();
	memcpy(b, hdr, PEERREP_HDR);
	r = sock_read_full(fd, b + PEERREP_HDR, ntohl(be), timeout_ms);
	if (r != (ssize_t)ntohl(be)) {
		free(b);
		snprintf(err, elen, "peer report: %s",
			 r == -ETIMEDOUT ? "timed out" : "truncated");
		return r < 0 ? (int)r : -EPIPE;
	}
	d = peerrep_decode(b, PEERREP_HDR + ntohl(be), &used, out, err, elen);
	free(b);
	return d == 1 ? 0 : -EINVAL;
}
