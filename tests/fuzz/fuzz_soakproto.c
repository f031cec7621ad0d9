/*
 * fuzz_soakproto.c: the cyclesoak --serve line protocol (lib/wire/soakproto)
 * on both sides. Input: [mode][split][bytes].
 *   mode 0: the server's reading: the bytes are what clients send, fed to
 *           soakproto_feed in chunks (fz_split); every line is parsed as
 *           a command and as a reply. Cutting the stream, or feeding it
 *           one line at a time (soakproto_feed_one), must not change
 *           the lines.
 *   mode 1: the client (lib/cpu/remotecpu): the bytes are what a server
 *           answers, sent in chunks over loopback TCP, while the client
 *           runs HELLO, START, REPORT, STOP, START soak,procstat, HOST,
 *           CALIB, STOP: reply lines, their JSON and the CPU samples in
 *           it (peerrep_cpu, cpu_sample_from_json).
 */
#include "config.h"
#include "cpujson.h"
#include "fz.h"
#include "remotecpu.h"
#include "soakproto.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct lines {
	int n;	       /* lines seen (too long ones included) */
	uint32_t hash; /* of their text, in order */
};

static void on_line(void *arg, const char *line, int too_long)
{
	struct lines *l = arg;
	struct soakproto_req r;
	const char *p;
	size_t i, len;

	l->n++;
	l->hash = l->hash * 31 + (uint32_t)too_long;
	if (too_long)
		return;
	len = strlen(line);
	if (len >= SOAKPROTO_LINE_MAX)
		__builtin_trap();
	for (i = 0; i < len; i++)
		l->hash = l->hash * 31 + (uint8_t)line[i];
	soakproto_parse(line, &r);
	if (r.cmd > SP_BAD || strnlen(r.arg, sizeof(r.arg)) == sizeof(r.arg) ||
	    strnlen(r.why, sizeof(r.why)) == sizeof(r.why))
		__builtin_trap();
	if (r.cmd == SP_START &&
	    strspn(r.arg, "abcdefghijklmnopqrstuvwxyz,") != strlen(r.arg))
		__builtin_trap(); /* only a meter list reaches meterset_open */
	if (r.cmd == SP_SOAK && strcmp(r.arg, "on") && strcmp(r.arg, "off"))
		__builtin_trap(); /* SOAK's word, whatever its case */
	if (soakproto_reply(line, &p) >= 0 && (p < line || p > line + len))
		__builtin_trap();
}

static void server_side(const uint8_t *data, size_t size, uint8_t split)
{
	static struct soakproto_in in;
	struct lines whole = {0}, cut = {0};
	struct fz_split sp;
	size_t off = 0, k;

	memset(&in, 0, sizeof(in));
	soakproto_feed(&in, (const char *)data, size, on_line, &whole);
	memset(&in, 0, sizeof(in));
	fz_split_init(&sp, split);
	while (off < size) {
		k = fz_split_next(&sp, size - off);
		soakproto_feed(&in, (const char *)data + off, k, on_line, &cut);
		off += k;
	}
	if (whole.n != cut.n || whole.hash != cut.hash)
		__builtin_trap(); /* cutting the stream changed the lines */
	/* one line at a time, as the server runs them */
	memset(&in, 0, sizeof(in));
	memset(&cut, 0, sizeof(cut));
	for (off = 0; off < size; off += k) {
		k = soakproto_feed_one(&in, (const char *)data + off,
				       size - off, on_line, &cut);
		if (!k || k > size - off)
			__builtin_trap();
	}
	if (whole.n != cut.n || whole.hash != cut.hash)
		__builtin_trap(); /* line by line changed the lines */
}

static void check_samples(const struct cpu_sample *s, int n)
{
	int i;

	if (n > METER_MAX)
		__builtin_trap();
	for (i = 0; i < n; i++)
		if (strnlen(s[i].meter, sizeof(s[i].meter)) ==
			    sizeof(s[i].meter) ||
		    (s[i].ok &&
		     !(s[i].busy_pct >= 0 && s[i].busy_pct <= 100.5)))
			__builtin_trap();
}

static void client_side(const uint8_t *data, size_t size, uint8_t split)
{
	struct cpu_sample s[METER_MAX];
	struct remotecpu *r;
	struct fz_peer p;
	char err[512], addr[64];
	json_t *j;
	int port, n;

	if (fz_peer_tcp(&p, 1, &data, &size, split, &port))
		return;
	snprintf(addr, sizeof(addr), "127.0.0.1:%d", port);
	r = remotecpu_open(addr, 2000, err, sizeof(err));
	if (r) {
		remotecpu_start(r, NULL, err, sizeof(err));
		n = remotecpu_report(r, s, METER_MAX, err, sizeof(err));
		if (n > 0)
			check_samples(s, n);
		n = remotecpu_stop(r, s, METER_MAX, err, sizeof(err));
		if (n > 0)
			check_samples(s, n);
		remotecpu_start(r, "soak,procstat", err, sizeof(err));
		j = remotecpu_host(r);
		if (j && !json_is_object(j))
			__builtin_trap();
		json_decref(j);
		j = remotecpu_calib(r, err, sizeof(err));
		if (j && !json_is_object(j))
			__builtin_trap();
		json_decref(j);
		n = remotecpu_stop(r, s, 1, err, sizeof(err));
		if (n > 0)
			check_samples(s, n);
		remotecpu_close(r);
	}
	fz_peer_end(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t mode, split;

	if (size < 2)
		return 0;
	mode = data[0];
	split = data[1];
	if (mode & 1)
		client_side(data + 2, size - 2, split);
	else
		server_side(data + 2, size - 2, split);
	return 0;
}
