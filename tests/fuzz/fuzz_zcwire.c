/*
 * fuzz_zcwire.c: the zcs stream (lib/wire/zcwire) and zcs's connection state
 * machine around it (zcs/conn.c). Input: [mode][split][o1][o2][stream].
 * Limits: o1 & 0x80 the defaults, else tight ones (loops 1 + (o1 & 7),
 * files 1 + (o1 >> 3 & 7), file length 1 << (o2 & 15)); o2 & 0x80 lets
 * our hello in.
 *   mode 0: the decoder as zcs reads: header words never past what it
 *           needs, payload in chunks (fz_split), every count checked; and
 *           the same bytes through zcw_dec_push, which must agree.
 *   mode 1: zcs's conn_service on a socketpair, receive method read,
 *           trunc or splice (o1 % 3), o2 >> 4 & 7 choosing the bytes per
 *           receive call: the stream arrives in chunks, the hello's
 *           run kind is taken as zcs's loops take it (server_run_kind,
 *           o1 & 0x20: this box soaks) and the hello answered
 *           (conn_answer), and at the end (or when the client hangs up) the
 *           slot's figures and result must add up; a granted CPU report
 *           is sent and must decode.
 */
#include "config.h"
#include "fz.h"
#include "peerrep.h"
#include "conn.h"
#include "server.h"
#include "zcwire.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static void limits(struct zcw_limits *l, uint8_t o1, uint8_t o2)
{
	if (o1 & 0x80) {
		zcw_limits_default(l);
		return;
	}
	l->max_loops = 1 + (o1 & 7);
	l->max_files = 1 + (o1 >> 3 & 7);
	l->max_file_len = 1u << (o2 & 15);
}

static void check(const struct zcw_dec *d, uint64_t used)
{
	if (d->header_bytes + d->payload_bytes != used)
		__builtin_trap();
	if (d->state == ZCW_S_PAYLOAD && d->left > d->lim.max_file_len)
		__builtin_trap();
	if (d->nloops > d->lim.max_loops || d->nfiles > d->lim.max_files ||
	    d->flen > d->lim.max_file_len)
		__builtin_trap();
	if (d->state == ZCW_S_ERROR && (!d->err[0] || !d->field))
		__builtin_trap();
}

static void decoder(const uint8_t *data, size_t size, uint8_t split, uint8_t o1,
		    uint8_t o2)
{
	struct zcw_limits lim;
	struct zcw_dec d, p;
	struct fz_split sp;
	uint32_t ver, flags;
	char err[256];
	size_t off = 0, k, need;
	ssize_t r;

	limits(&lim, o1, o2);
	zcw_dec_init(&d, &lim, o2 >> 7);
	fz_split_init(&sp, split);
	while (off < size && !zcw_dec_done(&d) && d.state != ZCW_S_ERROR) {
		uint32_t want = zcw_dec_want(&d);

		k = fz_split_next(&sp, size - off);
		if (want) {
			if (k > want)
				k = want;
			zcw_dec_payload(&d, (uint32_t)k);
		} else {
			need = zcw_dec_need(&d);
			if (k > need)
				k = need; /* as zcs: never read past a word */
			r = zcw_dec_header(&d, data + off, k);
			if (r < 0)
				break;
			if ((size_t)r != k)
				__builtin_trap(); /* a word was left half-read
						   */
		}
		off += k;
		check(&d, off);
	}
	if (!zcw_dec_phase(&d)[0])
		__builtin_trap();
	/* the same bytes in one push must agree */
	zcw_dec_init(&p, &lim, o2 >> 7);
	r = zcw_dec_push(&p, data, size);
	if (r >= 0)
		check(&p, (uint64_t)r);
	if (p.header_bytes != d.header_bytes ||
	    p.payload_bytes != d.payload_bytes)
		__builtin_trap(); /* the two ways of reading disagree */
	if (d.state == ZCW_S_ERROR
		    ? p.state != ZCW_S_ERROR || strcmp(p.field, d.field)
	    : d.state == ZCW_S_DONE && off < size
		    ? p.state != ZCW_S_ERROR || strcmp(p.field, "trailing data")
		    : p.state != d.state)
		__builtin_trap();
	if (size >= ZCW_HELLO_LEN &&
	    !zcw_hello_decode(data, size, &ver, &flags, err, sizeof(err)) &&
	    (!ver || zcw_get_u32(data) != ZCW_MAGIC))
		__builtin_trap();
}

/* Read what zcs sent us; a granted CPU report must decode. */
static void answers(int fd, int want_report)
{
	static uint8_t b[PEERREP_MAX + 64];
	char err[256];
	size_t n = 0, used;
	json_t *j;
	ssize_t r;

	while (n < sizeof(b) &&
	       (r = recv(fd, b + n, sizeof(b) - n, MSG_DONTWAIT)) > 0)
		n += (size_t)r;
	if (!want_report)
		return;
	if (peerrep_decode(b, n, &used, &j, err, sizeof(err)) != 1 ||
	    !json_is_object(json_object_get(j, "zcs")))
		__builtin_trap();
	json_decref(j);
}

/* zcs's side of a hello (epoll.c, fork.c): the run's kind into the
 * slot, which must agree with the hello, then the answer. */
static enum conn_step hello(struct conn *c, struct slot *slot,
			    const struct cfg *cfg, int soak)
{
	const struct zcw_run *run = conn_run(c);
	int park = server_run_kind(slot, run, soak);

	if (run->pair > ZCW_PAIR_MASK || (slot->paired && !run->said) ||
	    (park && (!slot->paired || slot->metered)) ||
	    (slot->paired && !run->soak && !soak))
		__builtin_trap();
	return conn_answer(c, cfg->com.cpu, soak);
}

static void server(const uint8_t *data, size_t size, uint8_t split, uint8_t o1,
		   uint8_t o2)
{
	static const char *const methods[] = {"read", "trunc", "splice"};
	struct cfg cfg = {.ops = xfer_find(methods[o1 % 3], XFER_RECV),
			  .unit = (size_t)1 << (3 * (o2 >> 4 & 7)),
			  .com.cpu = o1 >> 6 & 1};
	enum conn_step st = CS_MORE;
	struct fz_split sp;
	struct slot slot;
	struct conn *c;
	char err[256];
	size_t off = 0, k;
	int sv[2], inq, spins, hung_up = 0;

	limits(&cfg.lim, o1, o2);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return;
	memset(&slot, 0, sizeof(slot));
	c = conn_new(&cfg, sv[0], &slot, err, sizeof(err));
	if (!c) {
		close(sv[0]);
		close(sv[1]);
		return;
	}
	fz_split_init(&sp, split);
	while (st == CS_MORE || st == CS_HELLO) {
		if (off < size) {
			k = fz_split_next(&sp, size - off);
			if (write(sv[1], data + off, k) != (ssize_t)k)
				break;
			off += k;
		} else if (hung_up++) {
			__builtin_trap(); /* the hang-up went unnoticed */
		} else {
			shutdown(sv[1], SHUT_WR); /* the client is done */
		}
		/* serve until it read everything (or ended) */
		for (spins = 0; spins < 10000; spins++) {
			st = conn_service(c);
			if (st == CS_HELLO)
				st = hello(c, &slot, &cfg, o1 >> 5 & 1);
			answers(sv[1], 0);
			if ((st != CS_MORE && st != CS_HELLO) ||
			    ioctl(sv[0], FIONREAD, &inq) || !inq)
				break;
		}
	}
	if (slot.payload + slot.header > off ||
	    (st == CS_DONE && slot.result != CR_OK) ||
	    (st == CS_FAIL && (slot.result == CR_OK || !slot.err[0])) ||
	    strnlen(slot.err, sizeof(slot.err)) == sizeof(slot.err))
		__builtin_trap();
	if (st == CS_DONE && conn_asks_cpu(c)) {
		struct cpu_sample s = {.meter = "rusage", .ok = 1, .ncpu = 1};

		if (!conn_send_report(c, &s, 1, 1.0, 1, 0.5))
			answers(sv[1], 1);
	}
	conn_free(c);
	close(sv[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 4 || size > 1 << 20)
		return 0;
	if (data[0] & 1)
		server(data + 4, size - 4, data[1], data[2], data[3]);
	else
		decoder(data + 4, size - 4, data[1], data[2], data[3]);
	return 0;
}
