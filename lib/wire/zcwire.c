/*
 * zcwire.c: the zcs/zcc stream (see zcwire.h): a push decoder that checks
 * every count and length against limits, and the few encoders zcc needs.
 */
#include "config.h"
#include "zcwire.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

size_t zcw_put_u32(uint8_t *b, uint32_t v)
{
	uint32_t be = htonl(v);

	memcpy(b, &be, 4);
	return 4;
}

uint32_t zcw_get_u32(const uint8_t *b)
{
	uint32_t be;

	memcpy(&be, b, 4);
	return ntohl(be);
}

void zcw_limits_default(struct zcw_limits *lim)
{
	lim->max_loops = ZCW_DEF_MAX_LOOPS;
	lim->max_files = ZCW_DEF_MAX_FILES;
	lim->max_file_len = ZCW_DEF_MAX_FILE_LEN;
}

void zcw_dec_init(struct zcw_dec *d, const struct zcw_limits *lim,
		  int allow_hello)
{
	memset(d, 0, sizeof(*d));
	if (lim)
		d->lim = *lim;
	else
		zcw_limits_default(&d->lim);
	d->allow_hello = allow_hello;
	d->state = ZCW_S_NLOOPS;
}

size_t zcw_dec_need(const struct zcw_dec *d)
{
	switch (d->state) {
	case ZCW_S_NLOOPS:
	case ZCW_S_NFILES:
	case ZCW_S_FLEN:
		return 4 - d->accn;
	case ZCW_S_HELLO:
		return 8 - d->accn;
	default:
		return 0;
	}
}

uint32_t zcw_dec_want(const struct zcw_dec *d)
{
	return d->state == ZCW_S_PAYLOAD ? d->left : 0;
}

const char *zcw_dec_phase(const struct zcw_dec *d)
{
	switch (d->state) {
	case ZCW_S_NLOOPS:
		return "loop count";
	case ZCW_S_HELLO:
		return "hello";
	case ZCW_S_NFILES:
		return "file count";
	case ZCW_S_FLEN:
		return "file length";
	case ZCW_S_PAYLOAD:
		return "file data";
	case ZCW_S_DONE:
		return "end of stream";
	default:
		return "refused stream";
	}
}

static int refuse(struct zcw_dec *d, const char *field, const char *fmt,
		  uint32_t v, uint32_t max, const char *opt)
{
	d->state = ZCW_S_ERROR;
	d->field = field;
	snprintf(d->err, sizeof(d->err), fmt, field, v, max, opt);
	return -EINVAL;
}

/* A count or length v beyond max, the limit the option opt sets. */
static int over_limit(struct zcw_dec *d, const char *field, uint32_t v,
		      uint32_t max, const char *opt)
{
	return refuse(d, field, "%s %u exceeds the limit %u (%s)", v, max, opt);
}

/* The loop just finished, or a new one starts: where do we go next? */
static void next_loop(struct zcw_dec *d)
{
	d->loop++;
	d->file = 0;
	d->state = d->loop < d->nloops ? ZCW_S_NFILES : ZCW_S_DONE;
}

static void next_file(struct zcw_dec *d)
{
	d->files_done++;
	d->file++;
	if (d->file < d->nfiles)
		d->state = ZCW_S_FLEN;
	else
		next_loop(d);
}

/* A whole word (or the hello's two) is in acc: act on it. */
static int word(struct zcw_dec *d)
{
	uint32_t v = zcw_get_u32(d->acc);

	d->accn = 0;
	switch (d->state) {
	case ZCW_S_NLOOPS:
		if (d->allow_hello && !d->hello && v == ZCW_MAGIC) {
			d->state = ZCW_S_HELLO;
			return 0;
		}
		if (v > d->lim.max_loops)
			return over_limit(d, "loop count", v, d->lim.max_loops,
					  "--max-loops");
		d->nloops = v;
		d->loop = 0;
		d->state = v ? ZCW_S_NFILES : ZCW_S_DONE;
		return 0;
	case ZCW_S_HELLO:
		d->version = v;
		d->flags = zcw_get_u32(d->acc + 4);
		d->hello = 1;
		if (!v)
			return refuse(d, "hello version",
				      "%s %u is not a version (%u, %s)", v,
				      ZCW_VERSION, "zcc -C");
		d->state = ZCW_S_NLOOPS;
		return 0;
	case ZCW_S_NFILES:
		if (v > d->lim.max_files)
			return over_limit(d, "file count", v, d->lim.max_files,
					  "--max-files");
		d->nfiles = v;
		d->file = 0;
		if (!v)
			next_loop(d);
		else
			d->state = ZCW_S_FLEN;
		return 0;
	case ZCW_S_FLEN:
		if (v > d->lim.max_file_len)
			return over_limit(d, "file length", v,
					  d->lim.max_file_len,
					  "--max-file-len");
		d->flen = v;
		d->left = v;
		if (v)
			d->state = ZCW_S_PAYLOAD;
		else
			next_file(d);
		return 0;
	default:
		return -EINVAL;
	}
}

ssize_t zcw_dec_header(struct zcw_dec *d, const uint8_t *buf, size_t len)
{
	size_t used = 0;

	if (d->state == ZCW_S_ERROR)
		return -EINVAL;
	if (d->state == ZCW_S_DONE) {
		if (!len)
			return 0;
		d->state = ZCW_S_ERROR;
		d->field = "trailing data";
		snprintf(d->err, sizeof(d->err),
			 "bytes after the end of the stream (%u loops done)",
			 d->nloops);
		return -EINVAL;
	}
	while (used < len) {
		size_t need = zcw_dec_need(d), take;

		if (!need)
			break;
		take = len - used < need ? len - used : need;
		memcpy(d->acc + d->accn, buf + used, take);
		d->accn += (unsigned)take;
		used += take;
		d->header_bytes += take;
		if (take == need && word(d))
			return -EINVAL;
	}
	return (ssize_t)used;
}

void zcw_dec_payload(struct zcw_dec *d, uint32_t n)
{
	if (d->state != ZCW_S_PAYLOAD || n > d->left)
		return; /* caller bug: never more than zcw_dec_want() */
	d->left -= n;
	d->payload_bytes += n;
	if (!d->left)
		next_file(d);
}

ssize_t zcw_dec_push(struct zcw_dec *d, const uint8_t *buf, size_t len)
{
	size_t used = 0;

	while (used < len) {
		if (d->state == ZCW_S_PAYLOAD) {
			uint32_t n = d->left;

			if ((size_t)n > len - used)
				n = (uint32_t)(len - used);
			zcw_dec_payload(d, n);
			used += n;
			continue;
		}
		ssize_t r = zcw_dec_header(d, buf + used, len - used);

		if (r < 0)
			return r;
		if (r == 0)
			break;
		used += (size_t)r;
	}
	return (ssize_t)used;
}

size_t zcw_hello_encode(uint8_t *b, uint32_t flags)
{
	zcw_put_u32(b, ZCW_MAGIC);
	zcw_put_u32(b + 4, ZCW_VERSION);
	zcw_put_u32(b + 8, flags);
	return ZCW_HELLO_LEN;
}

int zcw_hello_decode(const uint8_t *b, size_t len, uint32_t *version,
		     uint32_t *flags, char *err, size_t elen)
{
	if (len < ZCW_HELLO_LEN) {
		snprintf(err, elen, "hello: %zu bytes, expected %d", len,
			 ZCW_HELLO_LEN);
		return -EINVAL;
	}
	if (zcw_get_u32(b) != ZCW_MAGIC) {
		snprintf(err, elen, "hello: bad magic 0x%08x", zcw_get_u32(b));
		return -EINVAL;
	}
	*version = zcw_get_u32(b + 4);
	*flags = zcw_get_u32(b + 8);
	if (!*version) {
		snprintf(err, elen, "hello: version 0");
		return -EINVAL;
	}
	return 0;
}

uint32_t zcw_run_flags(const struct zcw_run *r)
{
	if (!r->said)
		return 0;
	return ZCW_F_RUN | (r->soak ? ZCW_F_SOAK : 0) |
	       (r->metered ? ZCW_F_METERED : 0) |
	       (r->pair & ZCW_PAIR_MASK) << ZCW_PAIR_SHIFT;
}

void zcw_run_parse(uint32_t flags, struct zcw_run *r)
{
	memset(r, 0, sizeof(*r));
	if (!(flags & ZCW_F_RUN))
		return;
	r->said = 1;
	r->soak = !!(flags & ZCW_F_SOAK);
	r->metered = !!(flags & ZCW_F_METERED);
	r->pair = flags >> ZCW_PAIR_SHIFT & ZCW_PAIR_MASK;
}

uint64_t zcw_header_bytes(uint32_t nloops, uint32_t nfiles)
{
	return 4 + (uint64_t)nloops * (4 + 4 * (uint64_t)nfiles);
}

uint64_t zcw_stream_bytes(uint32_t nloops, uint32_t nfiles,
			  const uint64_t *lens)
{
	uint64_t per = 0;
	uint32_t i;

	for (i = 0; i < nfiles; i++)
		per += lens[i];
	return zcw_header_bytes(nloops, nfiles) + (uint64_t)nloops * per;
}
