/*
 * fuzz_peerrep.c: the end-of-run peer report (lib/wire/peerrep) as its readers
 * receive it, and everything they do with what it holds.
 *
 * Input: [mode][split][bytes from the peer].
 *   mode 0: a buffering reader: the bytes arrive in chunks (fz_split) and
 *           peerrep_decode runs on what has come so far, frame after
 *           frame; cutting the stream must not change the frames decoded.
 *   mode 1: the socket reader: a peer sends the bytes in chunks and
 *           peerrep_recv (ttcp-sf, zcc, chatbench) takes frame after frame.
 * Every frame goes to its consumers: peerrep_cpu (lib/cpu/meter.c
 * cpu_sample_from_json), meter_print, meter_add_metrics and meter_add_raw
 * into a result document, cpu_sample_to_json and back; and ttcp-sf's
 * ctl_hello_parse and ctl_report_parse.
 */
#include "config.h"
#include "cpujson.h"
#include "fz.h"
#include "peerrep.h"
#include "result.h"
#include "ttcp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_FRAMES 64

/* A string field that lost its terminator. */
#define UNTERMINATED(a) (strnlen((a), sizeof(a)) == sizeof(a))

static struct res_doc *doc; /* reused: res_new reads the host facts */
static int doc_uses;

static void check_sample(const struct cpu_sample *s)
{
	struct cpu_sample back;
	char err[256];
	json_t *j;
	int k;

	if (UNTERMINATED(s->meter) || UNTERMINATED(s->why) ||
	    UNTERMINATED(s->scope) || UNTERMINATED(s->note) ||
	    s->ncounters < 0 || s->ncounters > METER_MAX_COUNTERS)
		__builtin_trap();
	for (k = 0; k < s->ncounters; k++)
		if (UNTERMINATED(s->ctr[k].name) || UNTERMINATED(s->ctr[k].why))
			__builtin_trap();
	if (s->ok && (!(s->busy_pct >= 0 && s->busy_pct <= 100.5) ||
		      s->ncpu < 1 || !(s->elapsed_s >= 0)))
		__builtin_trap(); /* a usable figure out of range */
	/* what came from a peer goes into our own document as JSON again */
	j = cpu_sample_to_json(s);
	if (!j)
		__builtin_trap();
	if (cpu_sample_from_json(j, &back, err, sizeof(err)) ||
	    strcmp(back.meter, s->meter) || back.ok != s->ok ||
	    back.ncounters != s->ncounters ||
	    (s->ok && back.busy_pct != s->busy_pct))
		__builtin_trap();
	json_decref(j);
}

static void use_samples(const struct cpu_sample *s, int n)
{
	json_t *sample = json_object();
	int i;

	for (i = 0; i < n; i++)
		check_sample(&s[i]);
	meter_print(fz_null(), "remote", s, n, 1e6);
	if (!doc || ++doc_uses > 1000) {
		res_free(doc);
		doc = res_new("fuzz_peerrep", 0, NULL);
		doc_uses = 0;
	}
	/* both kinds of run of a pair name the figures differently */
	meter_add_metrics(doc, sample, "remote", s, n, 1e6, doc_uses & 1);
	meter_add_raw(sample, "remote", s, n);
	json_decref(sample);
}

static void consume(json_t *j)
{
	struct cpu_sample s[METER_MAX];
	struct ctl_report rep;
	struct ctl_hello h;
	char err[512];
	int n;

	if (!json_is_object(j))
		__builtin_trap();
	n = cpujson_from_report(j, s, METER_MAX, err, sizeof(err));
	if (n > METER_MAX)
		__builtin_trap();
	if (n > 0)
		use_samples(s, n);
	err[0] = '\0';
	if (!ctl_hello_parse(j, &h, err, sizeof(err)) &&
	    (UNTERMINATED(h.method) || UNTERMINATED(h.hostname) ||
	     UNTERMINATED(h.boot_id) || h.sample < 0 ||
	     h.sample >= TTCP_MAX_SAMPLES))
		__builtin_trap();
	err[0] = '\0';
	if (!ctl_report_parse(j, &rep, err, sizeof(err))) {
		if (rep.ncpu < 0 || rep.ncpu > METER_MAX ||
		    !json_is_object(rep.host) || UNTERMINATED(rep.hostname) ||
		    !(rep.elapsed_s >= 0))
			__builtin_trap();
		use_samples(rep.cpu, rep.ncpu);
		ctl_report_free(&rep);
	}
}

/* Decode frame after frame from b[0..n): frames decoded, final verdict
 * (0: waiting for more, -EINVAL) in *last. */
static int decode_all(const uint8_t *b, size_t n, int *last, int use)
{
	char err[256];
	size_t off = 0, used;
	json_t *j;
	int frames = 0, r;

	while ((r = peerrep_decode(b + off, n - off, &used, &j, err,
				   sizeof(err))) == 1) {
		if (!used || used > n - off)
			__builtin_trap();
		if (use)
			consume(j);
		json_decref(j);
		off += used;
		if (++frames == MAX_FRAMES)
			break;
	}
	if (r == 1)
		r = 0;
	*last = r;
	return frames;
}

static void buffered(const uint8_t *data, size_t size, uint8_t split)
{
	uint8_t *buf = malloc(size + 1);
	size_t off = 0, have = 0, used, k;
	int frames = 0, last = 0, whole, wlast;
	struct fz_split sp;
	char err[256];
	json_t *j;

	fz_split_init(&sp, split);
	while (off < size && last >= 0 && frames < MAX_FRAMES) {
		k = fz_split_next(&sp, size - off);
		memcpy(buf + have, data + off, k);
		have += k;
		off += k;
		while (frames < MAX_FRAMES &&
		       (last = peerrep_decode(buf, have, &used, &j, err,
					      sizeof(err))) == 1) {
			consume(j);
			json_decref(j);
			memmove(buf, buf + used, have - used);
			have -= used;
			frames++;
		}
	}
	if (last == 1)
		last = 0;
	free(buf);
	whole = decode_all(data, size, &wlast, 0);
	if (frames < MAX_FRAMES && whole < MAX_FRAMES &&
	    (whole != frames || (wlast < 0) != (last < 0)))
		__builtin_trap(); /* cutting the stream changed what it says */
}

static void socket_reader(const uint8_t *data, size_t size, uint8_t split)
{
	struct fz_peer p;
	char err[256];
	json_t *j;
	int fd, i;

	if (fz_peer_pair(&p, data, size, split, &fd))
		return;
	for (i = 0; i < MAX_FRAMES; i++) {
		if (peerrep_recv(fd, &j, 2000, err, sizeof(err)))
			break;
		consume(j);
		json_decref(j);
	}
	close(fd);
	fz_peer_end(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t mode, split;

	if (size < 2 || size > 2 * PEERREP_MAX)
		return 0;
	mode = data[0];
	split = data[1];
	data += 2;
	size -= 2;
	if (mode & 1)
		socket_reader(data, size, split);
	else
		buffered(data, size, split);
	return 0;
}
