/*
 * p9.c: 9P2000.L messages: the encoder of the T messages this client
 * sends and the decoder of the replies it accepts. The decoder trusts no
 * byte: every length is checked against what was read and against msize
 * before a field is used, and a reply with bytes left over is refused.
 */
#include "config.h"
#include "p9.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- little-endian put/get ---- */

static void put8(struct p9_buf *p, uint8_t v)
{
	if (p->len + 1 > p->cap) {
		p->overflow = 1;
		return;
	}
	p->b[p->len++] = v;
}

static void put16(struct p9_buf *p, uint16_t v)
{
	put8(p, (uint8_t)v);
	put8(p, (uint8_t)(v >> 8));
}

static void put32(struct p9_buf *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p, (uint16_t)(v >> 16));
}

static void put64(struct p9_buf *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p, (uint32_t)(v >> 32));
}

static void putstr(struct p9_buf *p, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n > 0xffff || p->len + 2 + n > p->cap) {
		p->overflow = 1;
		return;
	}
	put16(p, (uint16_t)n);
	if (n)
		memcpy(p->b + p->len, s, n);
	p->len += n;
}

static void begin(struct p9_buf *p, uint8_t *b, size_t cap, uint8_t type,
		  uint16_t tag)
{
	p->b = b;
	p->cap = cap;
	p->len = 0;
	p->overflow = 0;
	put32(p, 0); /* size, filled by finish */
	put8(p, type);
	put16(p, tag);
}

/* Write the size field (plus extra payload bytes sent separately). */
static size_t finish(struct p9_buf *p, uint32_t extra)
{
	uint64_t size = (uint64_t)p->len + extra;

	if (p->overflow || size > 0xffffffffu)
		return 0;
	p->b[0] = (uint8_t)size;
	p->b[1] = (uint8_t)(size >> 8);
	p->b[2] = (uint8_t)(size >> 16);
	p->b[3] = (uint8_t)(size >> 24);
	return p->len;
}

/*
 * One T message: type and tag, then the fields fmt names, in order: '2',
 * '4', '8' a little-endian integer of that many bytes (pass uint16_t,
 * uint32_t or uint64_t), 's' a string (const char *, NULL = empty).
 * extra: payload bytes sent after it (Twrite's data). The message's
 * length, or 0 when it does not fit in cap.
 */
static size_t enc(uint8_t *b, size_t cap, uint8_t type, uint16_t tag,
		  uint32_t extra, const char *fmt, ...)
{
	struct p9_buf p;
	va_list ap;

	begin(&p, b, cap, type, tag);
	va_start(ap, fmt);
	for (; *fmt; fmt++) {
		switch (*fmt) {
		case '2':
			put16(&p, (uint16_t)va_arg(ap, unsigned));
			break;
		case '4':
			put32(&p, va_arg(ap, uint32_t));
			break;
		case '8':
			put64(&p, va_arg(ap, uint64_t));
			break;
		case 's':
			putstr(&p, va_arg(ap, const char *));
			break;
		}
	}
	va_end(ap);
	return finish(&p, extra);
}

size_t p9_enc_version(uint8_t *b, size_t cap, uint16_t tag, uint32_t msize,
		      const char *version)
{
	return enc(b, cap, P9_TVERSION, tag, 0, "4s", msize, version);
}

size_t p9_enc_attach(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid,
		     uint32_t afid, const char *uname, const char *aname,
		     uint32_t n_uname)
{
	return enc(b, cap, P9_TATTACH, tag, 0, "44ss4", fid, afid, uname, aname,
		   n_uname);
}

size_t p9_enc_walk(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid,
		   uint32_t newfid, int nwname, const char *const *wname)
{
	struct p9_buf p;
	int i;

	if (nwname < 0 || nwname > P9_MAXWELEM)
		return 0;
	begin(&p, b, cap, P9_TWALK, tag);
	put32(&p, fid);
	put32(&p, newfid);
	put16(&p, (uint16_t)nwname);
	for (i = 0; i < nwname; i++)
		putstr(&p, wname[i]);
	return finish(&p, 0);
}

size_t p9_enc_lopen(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid,
		    uint32_t flags)
{
	return enc(b, cap, P9_TLOPEN, tag, 0, "44", fid, flags);
}

size_t p9_enc_lcreate(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid,
		      const char *name, uint32_t flags, uint32_t mode,
		      uint32_t gid)
{
	return enc(b, cap, P9_TLCREATE, tag, 0, "4s444", fid, name, flags, mode,
		   gid);
}

size_t p9_enc_getattr(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid,
		      uint64_t mask)
{
	return enc(b, cap, P9_TGETATTR, tag, 0, "48", fid, mask);
}

size_t p9_enc_read(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid,
		   uint64_t offset, uint32_t count)
{
	return enc(b, cap, P9_TREAD, tag, 0, "484", fid, offset, count);
}

size_t p9_enc_write_hdr(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid,
			uint64_t offset, uint32_t count)
{
	return enc(b, cap, P9_TWRITE, tag, count, "484", fid, offset, count);
}

size_t p9_enc_clunk(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid)
{
	return enc(b, cap, P9_TCLUNK, tag, 0, "4", fid);
}

size_t p9_enc_remove(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid)
{
	return enc(b, cap, P9_TREMOVE, tag, 0, "4", fid);
}

size_t p9_enc_unlinkat(uint8_t *b, size_t cap, uint16_t tag, uint32_t dirfid,
		       const char *name, uint32_t flags)
{
	return enc(b, cap, P9_TUNLINKAT, tag, 0, "4s4", dirfid, name, flags);
}

size_t p9_enc_flush(uint8_t *b, size_t cap, uint16_t tag, uint16_t oldtag)
{
	return enc(b, cap, P9_TFLUSH, tag, 0, "2", oldtag);
}

/* ---- decoder ---- */

/* A cursor over received bytes; any read past the end sets bad. */
struct p9_cur {
	const uint8_t *b;
	size_t len, pos;
	int bad;
};

static int have(struct p9_cur *c, size_t n)
{
	if (c->bad || c->len - c->pos < n) {
		c->bad = 1;
		return 0;
	}
	return 1;
}

static uint8_t get8(struct p9_cur *c)
{
	return have(c, 1) ? c->b[c->pos++] : 0;
}

static uint16_t get16(struct p9_cur *c)
{
	uint16_t v;

	if (!have(c, 2))
		return 0;
	v = (uint16_t)(c->b[c->pos] | c->b[c->pos + 1] << 8);
	c->pos += 2;
	return v;
}

static uint32_t get32(struct p9_cur *c)
{
	uint32_t lo = get16(c);

	return lo | (uint32_t)get16(c) << 16;
}

static uint64_t get64(struct p9_cur *c)
{
	uint64_t lo = get32(c);

	return lo | (uint64_t)get32(c) << 32;
}

static void getqid(struct p9_cur *c, struct p9_qid *q)
{
	q->type = get8(c);
	q->version = get32(c);
	q->path = get64(c);
}

/* A string into out (NUL-terminated); too long for out is bad. */
static void getstr(struct p9_cur *c, char *out, size_t olen)
{
	uint16_t n = get16(c);

	if (!have(c, n) || n >= olen) {
		c->bad = 1;
		out[0] = '\0';
		return;
	}
	memcpy(out, c->b + c->pos, n);
	out[n] = '\0';
	c->pos += n;
}

static const struct {
	uint8_t type;
	const char *name;
} names[] = {
	{P9_RLERROR, "Rlerror"},     {P9_TLOPEN, "Tlopen"},
	{P9_RLOPEN, "Rlopen"},	     {P9_TLCREATE, "Tlcreate"},
	{P9_RLCREATE, "Rlcreate"},   {P9_TGETATTR, "Tgetattr"},
	{P9_RGETATTR, "Rgetattr"},   {P9_TUNLINKAT, "Tunlinkat"},
	{P9_RUNLINKAT, "Runlinkat"}, {P9_TVERSION, "Tversion"},
	{P9_RVERSION, "Rversion"},   {P9_TATTACH, "Tattach"},
	{P9_RATTACH, "Rattach"},     {P9_TFLUSH, "Tflush"},
	{P9_RFLUSH, "Rflush"},	     {P9_TWALK, "Twalk"},
	{P9_RWALK, "Rwalk"},	     {P9_TREAD, "Tread"},
	{P9_RREAD, "Rread"},	     {P9_TWRITE, "Twrite"},
	{P9_RWRITE, "Rwrite"},	     {P9_TCLUNK, "Tclunk"},
	{P9_RCLUNK, "Rclunk"},	     {P9_TREMOVE, "Tremove"},
	{P9_RREMOVE, "Rremove"},
};

const char *p9_type_name(uint8_t type)
{
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].type == type)
			return names[i].name;
	return type & 1 ? "R?" : "T?";
}

int p9_errno(uint32_t ecode)
{
	return ecode >= 1 && ecode <= 4095 ? -(int)ecode : -EIO;
}

int p9_hdr(const uint8_t *b, size_t len, uint32_t msize, uint32_t *size,
	   uint8_t *type, uint16_t *tag, char *err, size_t elen)
{
	struct p9_cur c = {.b = b, .len = len};

	*size = get32(&c);
	*type = get8(&c);
	*tag = get16(&c);
	if (c.bad) {
		snprintf(err, elen, "message header cut short (%zu bytes)",
			 len);
		return -EBADMSG;
	}
	if (*size < P9_HDRSZ || *size > msize) {
		snprintf(err, elen,
			 "message size %u out of range (7..msize %u), type %u",
			 *size, msize, *type);
		return -EBADMSG;
	}
	return 0;
}

static void decode_body(struct p9_cur *c, struct p9_msg *m)
{
	struct p9_attr *a = &m->attr;
	int i;

	switch (m->type) {
	case P9_RLERROR:
		m->ecode = get32(c);
		break;
	case P9_RVERSION:
		m->msize = get32(c);
		getstr(c, m->version, sizeof(m->version));
		break;
	case P9_RATTACH:
		getqid(c, &m->qid);
		break;
	case P9_RWALK:
		m->nwqid = get16(c);
		if (m->nwqid > P9_MAXWELEM) {
			c->bad = 1;
			break;
		}
		for (i = 0; i < m->nwqid; i++)
			getqid(c, &m->wqid[i]);
		break;
	case P9_RLOPEN:
	case P9_RLCREATE:
		getqid(c, &m->qid);
		m->iounit = get32(c);
		break;
	case P9_RGETATTR:
		a->valid = get64(c);
		getqid(c, &a->qid);
		a->mode = get32(c);
		a->uid = get32(c);
		a->gid = get32(c);
		a->nlink = get64(c);
		a->rdev = get64(c);
		a->size = get64(c);
		a->blksize = get64(c);
		a->blocks = get64(c);
		a->atime_sec = get64(c);
		a->atime_nsec = get64(c);
		a->mtime_sec = get64(c);
		a->mtime_nsec = get64(c);
		a->ctime_sec = get64(c);
		a->ctime_nsec = get64(c);
		a->btime_sec = get64(c);
		a->btime_nsec = get64(c);
		a->gen = get64(c);
		a->data_version = get64(c);
		break;
	case P9_RREAD:
		m->count = get32(c);
		if (have(c, m->count)) {
			m->data = c->b + c->pos;
			c->pos += m->count;
		}
		break;
	case P9_RWRITE:
		m->count = get32(c);
		break;
	case P9_RCLUNK:
	case P9_RREMOVE:
	case P9_RUNLINKAT:
	case P9_RFLUSH:
		break;
	default:
		c->bad = 1;
		break;
	}
}

int p9_decode(const uint8_t *b, size_t len, uint32_t msize, struct p9_msg *m,
	      char *err, size_t elen)
{
	struct p9_cur c = {.b = b, .len = len};
	int r;

	memset(m, 0, sizeof(*m));
	r = p9_hdr(b, len, msize, &m->size, &m->type, &m->tag, err, elen);
	if (r)
		return r;
	if (m->size != len) {
		snprintf(err, elen, "%s: size field %u but %zu bytes",
			 p9_type_name(m->type), m->size, len);
		return -EBADMSG;
	}
	if (!(m->type & 1) || !strcmp(p9_type_name(m->type), "R?")) {
		snprintf(err, elen, "unexpected message type %u", m->type);
		return -EBADMSG;
	}
	c.pos = P9_HDRSZ;
	decode_body(&c, m);
	if (c.bad) {
		snprintf(err, elen, "%s of %u bytes: fields overrun it",
			 p9_type_name(m->type), m->size);
		return -EBADMSG;
	}
	if (c.pos != len) {
		snprintf(err, elen, "%s: %zu bytes left over after its fields",
			 p9_type_name(m->type), len - c.pos);
		return -EBADMSG;
	}
	return 0;
}

int p9_iohdr(const uint8_t *h, uint32_t msize, uint8_t treq, uint32_t asked,
	     uint8_t *type, uint16_t *tag, uint32_t *count, char *err,
	     size_t elen)
{
	struct p9_cur c = {.b = h, .len = P9_RIOHDR, .pos = P9_HDRSZ};
	uint32_t size;
	int r;

	r = p9_hdr(h, P9_RIOHDR, msize, &size, type, tag, err, elen);
	if (r)
		return r;
	*count = get32(&c);
	if (size < P9_RIOHDR) {
		snprintf(err, elen, "%s of %u bytes: shorter than 11",
			 p9_type_name(*type), size);
		return -EBADMSG;
	}
	if (*type == P9_RLERROR) {
		if (size == P9_RIOHDR)
			return 0;
	} else if (*type != treq + 1) {
		snprintf(err, elen, "%s answers %s (tag %u)",
			 p9_type_name(*type), p9_type_name(treq), *tag);
		return -EBADMSG;
	} else if (*count > asked) {
		snprintf(err, elen, "%s count %u > %u asked (tag %u)",
			 p9_type_name(*type), *count, asked, *tag);
		return -EBADMSG;
	} else if (*type == P9_RREAD ? size - P9_RIOHDR == *count
				     : size == P9_RIOHDR) {
		return 0;
	}
	snprintf(err, elen, "%s size %u does not match count %u (tag %u)",
		 p9_type_name(*type), size, *count, *tag);
	return -EBADMSG;
}
