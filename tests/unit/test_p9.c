/*
 * test_p9.c: p9bench/p9: encoder golden bytes, the reply decoder on good and
 * bad replies, and the client against a small scripted 9P server in a
 * thread (socketpair): msize negotiation, copy and direct paths, replies
 * out of order, split I/O, Rlerror, lying and dying servers, timeouts.
 */
#include "config.h"
#include "p9.h"
#include "t.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>

/* ---- byte builder for replies ---- */

struct bb {
	uint8_t b[70000];
	size_t n;
};

static void b8(struct bb *x, uint8_t v)
{
	x->b[x->n++] = v;
}
static void b16(struct bb *x, uint16_t v)
{
	b8(x, (uint8_t)v);
	b8(x, (uint8_t)(v >> 8));
}
static void b32(struct bb *x, uint32_t v)
{
	b16(x, (uint16_t)v);
	b16(x, (uint16_t)(v >> 16));
}
static void b64(struct bb *x, uint64_t v)
{
	b32(x, (uint32_t)v);
	b32(x, (uint32_t)(v >> 32));
}
static void bstr(struct bb *x, const char *s)
{
	b16(x, (uint16_t)strlen(s));
	memcpy(x->b + x->n, s, strlen(s));
	x->n += strlen(s);
}
static void bqid(struct bb *x, uint8_t type, uint64_t path)
{
	b8(x, type);
	b32(x, 7);
	b64(x, path);
}
static void bbegin(struct bb *x, uint8_t type, uint16_t tag)
{
	x->n = 0;
	b32(x, 0);
	b8(x, type);
	b16(x, tag);
}
static size_t bend(struct bb *x)
{
	x->b[0] = (uint8_t)x->n;
	x->b[1] = (uint8_t)(x->n >> 8);
	x->b[2] = (uint8_t)(x->n >> 16);
	x->b[3] = (uint8_t)(x->n >> 24);
	return x->n;
}

#define HEX_EQ(buf, len, lit)                                                  \
	(len == sizeof(lit) - 1 && !memcmp(buf, lit, sizeof(lit) - 1))

static void test_encoder(void)
{
	uint8_t b[256];
	size_t n;
	const char *names[2] = {"a", "bc"};

	n = p9_enc_version(b, sizeof(b), P9_NOTAG, 8192, "9P2000.L");
	T_CHECK(HEX_EQ(b, n, "\x15\0\0\0\x64\xff\xff\0\x20\0\0\x08\09P2000.L"));
	n = p9_enc_attach(b, sizeof(b), 1, 2, P9_NOFID, "u", "/x", 1000);
	T_CHECK(HEX_EQ(b, n,
		       "\x1a\0\0\0\x68\x01\0\x02\0\0\0\xff\xff\xff\xff"
		       "\x01\0u\x02\0/x\xe8\x03\0\0"));
	n = p9_enc_walk(b, sizeof(b), 3, 1, 2, 2, names);
	T_CHECK(HEX_EQ(b, n,
		       "\x18\0\0\0\x6e\x03\0\x01\0\0\0\x02\0\0\0\x02\0"
		       "\x01\0a\x02\0bc"));
	n = p9_enc_walk(b, sizeof(b), 3, 1, 2, 0, NULL);
	T_CHECK(HEX_EQ(b, n, "\x11\0\0\0\x6e\x03\0\x01\0\0\0\x02\0\0\0\0\0"));
	T_CHECK(p9_enc_walk(b, sizeof(b), 3, 1, 2, 17, names) == 0);
	n = p9_enc_lopen(b, sizeof(b), 4, 9, P9_DOTL_RDWR);
	T_CHECK(HEX_EQ(b, n, "\x0f\0\0\0\x0c\x04\0\x09\0\0\0\x02\0\0\0"));
	n = p9_enc_lcreate(b, sizeof(b), 5, 9, "f", 0xc2, 0644, 7);
	T_CHECK(HEX_EQ(b, n,
		       "\x1a\0\0\0\x0e\x05\0\x09\0\0\0\x01\0f\xc2\0\0\0"
		       "\xa4\x01\0\0\x07\0\0\0"));
	n = p9_enc_getattr(b, sizeof(b), 6, 9, P9_GETATTR_BASIC);
	T_CHECK(HEX_EQ(b, n,
		       "\x13\0\0\0\x18\x06\0\x09\0\0\0\xff\x07\0\0\0\0"
		       "\0\0"));
	n = p9_enc_read(b, sizeof(b), 7, 9, 0x0102030405060708ull, 4096);
	T_CHECK(HEX_EQ(b, n,
		       "\x17\0\0\0\x74\x07\0\x09\0\0\0\x08\x07\x06\x05"
		       "\x04\x03\x02\x01\0\x10\0\0"));
	/* Twrite: header only, size counts the payload sent after it */
	n = p9_enc_write_hdr(b, sizeof(b), 8, 9, 16, 100);
	T_CHECK(HEX_EQ(b, n,
		       "\x7b\0\0\0\x76\x08\0\x09\0\0\0\x10\0\0\0\0\0\0"
		       "\0\x64\0\0\0"));
	n = p9_enc_clunk(b, sizeof(b), 9, 9);
	T_CHECK(HEX_EQ(b, n, "\x0b\0\0\0\x78\x09\0\x09\0\0\0"));
	n = p9_enc_remove(b, sizeof(b), 9, 9);
	T_CHECK(HEX_EQ(b, n, "\x0b\0\0\0\x7a\x09\0\x09\0\0\0"));
	n = p9_enc_unlinkat(b, sizeof(b), 2, 1, "f", 0);
	T_CHECK(HEX_EQ(b, n, "\x12\0\0\0\x4c\x02\0\x01\0\0\0\x01\0f\0\0\0\0"));
	n = p9_enc_flush(b, sizeof(b), 2, 1);
	T_CHECK(HEX_EQ(b, n, "\x09\0\0\0\x6c\x02\0\x01\0"));
	/* does not fit: 0, never past cap */
	b[10] = 0xee;
	T_CHECK(p9_enc_version(b, 10, 0, 8192, "9P2000.L") == 0);
	T_CHECK(b[10] == 0xee);
	T_STREQ(p9_type_name(P9_TWRITE), "Twrite");
	T_STREQ(p9_type_name(200), "T?");
}

static int dec(struct bb *x, uint32_t msize, struct p9_msg *m)
{
	char err[256];

	return p9_decode(x->b, x->n, msize, m, err, sizeof(err));
}

static void test_decoder(void)
{
	struct bb x;
	struct p9_msg m;
	char err[256];
	uint8_t type;
	uint16_t tag;
	uint32_t count;
	int i;

	bbegin(&x, P9_RVERSION, P9_NOTAG);
	b32(&x, 8192);
	bstr(&x, "9P2000.L");
	bend(&x);
	T_CHECK(dec(&x, 65536, &m) == 0);
	T_CHECK(m.msize == 8192 && m.tag == P9_NOTAG);
	T_STREQ(m.version, "9P2000.L");
	T_CHECK(dec(&x, 10, &m) == -EBADMSG); /* larger than msize */
	x.n--;				      /* size field says more */
	T_CHECK(dec(&x, 65536, &m) == -EBADMSG);
	bbegin(&x, P9_RVERSION, P9_NOTAG); /* version string too long */
	b32(&x, 8192);
	bstr(&x, "0123456789012345678901234567890123456789");
	bend(&x);
	T_CHECK(dec(&x, 65536, &m) == -EBADMSG);

	bbegin(&x, P9_RATTACH, 0);
	bqid(&x, 0x80, 42);
	bend(&x);
	T_CHECK(dec(&x, 8192, &m) == 0 && m.qid.type == 0x80 &&
		m.qid.path == 42 && m.qid.version == 7);
	b8(&x, 0); /* one byte left over */
	bend(&x);
	T_CHECK(dec(&x, 8192, &m) == -EBADMSG);

	bbegin(&x, P9_RWALK, 3);
	b16(&x, 2);
	bqid(&x, 0x80, 1);
	bqid(&x, 0, 2);
	bend(&x);
	T_CHECK(dec(&x, 8192, &m) == 0 && m.nwqid == 2 && m.wqid[1].path == 2);
	bbegin(&x, P9_RWALK, 3); /* 17 qids: more than allowed */
	b16(&x, 17);
	for (i = 0; i < 17; i++)
		bqid(&x, 0, (uint64_t)i);
	bend(&x);
	T_CHECK(dec(&x, 8192, &m) == -EBADMSG);
	bbegin(&x, P9_RWALK, 3); /* says 2, has 1 */
	b16(&x, 2);
	bqid(&x, 0, 1);
	bend(&x);
	T_CHECK(dec(&x, 8192, &m) == -EBADMSG);

	bbegin(&x, P9_RLOPEN, 1);
	bqid(&x, 0, 5);
	b32(&x, 0);
	bend(&x);
	T_CHECK(dec(&x, 8192, &m) == 0 && m.iounit == 0 && m.qid.path == 5);
	x.b[4] = P9_RLCREATE;
	T_CHECK(dec(&x, 8192, &m) == 0 && m.type == P9_RLCREATE);

	bbegin(&x, P9_RGETATTR, 1);
	b64(&x, 0x7ff);
	bqid(&x, 0, 9);
	b32(&x, 0100644);
	b32(&x, 1000);
	b32(&x, 100);
	for (i = 0; i < 15; i++)
		b64(&x, i == 2 ? 123456789 : (uint64_t)i);
	bend(&x);
	T_CHECK(x.n == 160);
	T_CHECK(dec(&x, 8192, &m) == 0 && m.attr.size == 123456789 &&
		m.attr.mode == 0100644 && m.attr.uid == 1000 &&
		m.attr.data_version == 14);
	x.n -= 8; /* one field short */
	bend(&x);
	T_CHECK(dec(&x, 8192, &m) == -EBADMSG);

	bbegin(&x, P9_RREAD, 2);
	b32(&x, 3);
	b8(&x, 'a');
	b8(&x, 'b');
	b8(&x, 'c');
	bend(&x);
	T_CHECK(dec(&x, 8192, &m) == 0 && m.count == 3 &&
		!memcmp(m.data, "abc", 3));
	x.b[7] = 4; /* count past the end */
	T_CHECK(dec(&x, 8192, &m) == -EBADMSG);
	x.b[7] = 0xff;
	x.b[10] = 0xff; /* count 0xff0000ff */
	T_CHECK(dec(&x, 8192, &m) == -EBADMSG);

	bbegin(&x, P9_RLERROR, 2);
	b32(&x, ENOENT);
	bend(&x);
	T_CHECK(dec(&x, 8192, &m) == 0 && m.ecode == ENOENT);
	T_CHECK(p9_errno(m.ecode) == -ENOENT);
	T_CHECK(p9_errno(0) == -EIO && p9_errno(99999) == -EIO);

	/* a T message, an unknown type, a size below 7: refused */
	bbegin(&x, P9_TREAD, 2);
	bend(&x);
	T_CHECK(dec(&x, 8192, &m) == -EBADMSG);
	bbegin(&x, 201, 2);
	bend(&x);
	T_CHECK(dec(&x, 8192, &m) == -EBADMSG);
	bbegin(&x, P9_RCLUNK, 2);
	bend(&x);
	T_CHECK(dec(&x, 8192, &m) == 0);
	x.b[0] = 6;
	T_CHECK(dec(&x, 8192, &m) == -EBADMSG);
	T_CHECK(p9_decode(x.b, 3, 8192, &m, err, sizeof(err)) == -EBADMSG);

	/* I/O headers */
	bbegin(&x, P9_RREAD, 5);
	b32(&x, 100);
	x.n = 111;
	bend(&x);
	T_CHECK(p9_iohdr(x.b, 8192, P9_TREAD, 100, &type, &tag, &count, err,
			 sizeof(err)) == 0 &&
		count == 100 && tag == 5);
	T_CHECK(p9_iohdr(x.b, 8192, P9_TREAD, 99, &type, &tag, &count, err,
			 sizeof(err)) == -EBADMSG); /* more than asked */
	T_CHECK(p9_iohdr(x.b, 8192, P9_TWRITE, 100, &type, &tag, &count, err,
			 sizeof(err)) == -EBADMSG); /* Rread for a Twrite */
	x.n = 110;				    /* size != 11 + count */
	bend(&x);
	T_CHECK(p9_iohdr(x.b, 8192, P9_TREAD, 100, &type, &tag, &count, err,
			 sizeof(err)) == -EBADMSG);
	bbegin(&x, P9_RWRITE, 5);
	b32(&x, 100);
	bend(&x);
	T_CHECK(p9_iohdr(x.b, 8192, P9_TWRITE, 100, &type, &tag, &count, err,
			 sizeof(err)) == 0 &&
		count == 100);
	bbegin(&x, P9_RLERROR, 5);
	b32(&x, EIO);
	bend(&x);
	T_CHECK(p9_iohdr(x.b, 8192, P9_TWRITE, 100, &type, &tag, &count, err,
			 sizeof(err)) == 0 &&
		type == P9_RLERROR && count == EIO);
	x.b[0] = 9; /* a 9-byte I/O reply */
	T_CHECK(p9_iohdr(x.b, 8192, P9_TREAD, 100, &type, &tag, &count, err,
			 sizeof(err)) == -EBADMSG);
}

/* ---- a scripted server on the other end of a socketpair ---- */

enum srv_mode {
	SRV_GOOD,     /* behaves */
	SRV_REVERSE,  /* answers queued I/O in reverse order */
	SRV_BADCOUNT, /* Rread count one more than asked */
	SRV_BADTAG,   /* I/O replies on a tag not in flight */
	SRV_CLOSE_IO, /* closes at the first I/O */
	SRV_STALL_IO, /* never answers I/O */
	SRV_NOT_L,    /* answers Tversion with "unknown" */
};

#define FILE_LEN (1 << 20)

struct srv {
	int fd;
	enum srv_mode mode;
	uint32_t msize;		  /* server's limit */
	uint8_t file[FILE_LEN];	  /* the one file "f" */
	uint64_t nwrites, nreads; /* I/O messages seen */
	uint32_t max_count;	  /* largest I/O count seen */
	struct bb q[64];	  /* queued replies (REVERSE) */
	int nq;
};

static int srv_read(int fd, uint8_t *b, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, b + got, n - got);

		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

static void srv_send(struct srv *s, struct bb *x)
{
	size_t n = bend(x), put = 0;

	while (put < n) {
		ssize_t r = write(s->fd, x->b + put, n - put);

		if (r <= 0)
			return;
		put += (size_t)r;
	}
}

static void srv_flush(struct srv *s)
{
	while (s->nq)
		srv_send(s, &s->q[--s->nq]);
}

static uint32_t rd32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
	return rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static void srv_io(struct srv *s, uint8_t type, uint16_t tag, const uint8_t *m,
		   struct bb *x)
{
	uint64_t off = rd64(m + 11);
	uint32_t count = rd32(m + 19);

	if (count > s->max_count)
		s->max_count = count;
	if (count + P9_IOHDRSZ > s->msize || off + count > FILE_LEN) {
		bbegin(x, P9_RLERROR, tag); /* what diod does */
		b32(x, EIO);
		return;
	}
	if (s->mode == SRV_BADTAG)
		tag = 60;
	if (type == P9_TWRITE) {
		s->nwrites++;
		memcpy(s->file + off, m + 23, count);
		bbegin(x, P9_RWRITE, tag);
		b32(x, count);
		return;
	}
	s->nreads++;
	bbegin(x, P9_RREAD, tag);
	b32(x, s->mode == SRV_BADCOUNT ? count + 1 : count);
	memcpy(x->b + x->n, s->file + off, count);
	x->n += count;
	if (s->mode == SRV_BADCOUNT)
		b8(x, 0);
}

static void *srv_main(void *arg)
{
	struct srv *s = arg;
	static uint8_t m[1 << 20];
	struct bb *x, one;
	uint32_t size;
	uint16_t tag;
	uint8_t type;

	for (;;) {
		struct pollfd p = {.fd = s->fd, .events = POLLIN};

		if (s->nq && poll(&p, 1, 20) == 0) /* quiet: answer all */
			srv_flush(s);
		if (srv_read(s->fd, m, 7))
			break;
		size = rd32(m);
		type = m[4];
		tag = (uint16_t)(m[5] | m[6] << 8);
		if (size < 7 || size > sizeof(m) ||
		    srv_read(s->fd, m + 7, size - 7))
			break;
		x = &one;
		switch (type) {
		case P9_TVERSION:
			bbegin(x, P9_RVERSION, tag);
			b32(x, rd32(m + 7) < s->msize ? rd32(m + 7) : s->msize);
			bstr(x, s->mode == SRV_NOT_L ? "unknown" : "9P2000.L");
			break;
		case P9_TATTACH:
			bbegin(x, P9_RATTACH, tag);
			bqid(x, 0x80, 1);
			break;
		case P9_TWALK:
			if (m[15] == 0 || (m[17] == 1 && m[19] == 'f')) {
				bbegin(x, P9_RWALK, tag);
				b16(x, m[15]);
				if (m[15])
					bqid(x, 0, 2);
			} else {
				bbegin(x, P9_RLERROR, tag);
				b32(x, ENOENT);
			}
			break;
		case P9_TLOPEN:
		case P9_TLCREATE:
			bbegin(x, (uint8_t)(type + 1), tag);
			bqid(x, 0, 2);
			b32(x, 0);
			break;
		case P9_TCLUNK:
			bbegin(x, P9_RCLUNK, tag);
			break;
		case P9_TREAD:
		case P9_TWRITE:
			if (s->mode == SRV_CLOSE_IO)
				goto out;
			if (s->mode == SRV_STALL_IO)
				continue;
			if (s->mode == SRV_REVERSE && s->nq < 64)
				x = &s->q[s->nq++];
			srv_io(s, type, tag, m, x);
			if (x != &one)
				continue;
			break;
		default:
			bbegin(x, P9_RLERROR, tag);
			b32(x, EOPNOTSUPP);
			break;
		}
		srv_send(s, x);
	}
out:
	close(s->fd);
	return NULL;
}

static struct srv srv;
static pthread_t srv_thread;

static int client_start(struct p9_client *c, enum srv_mode mode,
			uint32_t srv_msize, uint32_t msize, int timeout_ms)
{
	struct p9_opts o = {.msize = msize, .timeout_ms = timeout_ms};
	int sv[2];

	T_ASSERT(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	memset(&srv, 0, sizeof(srv));
	srv.fd = sv[1];
	srv.mode = mode;
	srv.msize = srv_msize;
	T_ASSERT(pthread_create(&srv_thread, NULL, srv_main, &srv) == 0);
	T_ASSERT(p9_client_init(c, sv[0], "test", &o) == 0);
	return p9_version(c);
}

static void client_stop(struct p9_client *c)
{
	p9_close(c);
	pthread_join(srv_thread, NULL);
}

static uint8_t wbuf[300000], rbuf[300000];

static void test_client_good(void)
{
	struct p9_client c;
	const char *f = "f", *nope = "nope";
	struct p9_qid q;
	struct p9_attr a;
	struct p9_done d;
	size_t i;
	int path;

	for (i = 0; i < sizeof(wbuf); i++)
		wbuf[i] = (uint8_t)(i * 7 + i / 251);
	T_CHECK(client_start(&c, SRV_GOOD, 8192, 65536, 2000) == 0);
	T_CHECK(c.msize == 8192 && c.iomax == 8192 - 24);
	T_CHECK(p9_attach(&c, 1, "u", "/", 0, &q) == 0 && q.type == 0x80);
	T_CHECK(p9_walk(&c, 1, 2, 1, &f, NULL) == 0);
	T_CHECK(p9_walk(&c, 1, 3, 1, &nope, NULL) == -ENOENT);
	T_CHECK(strstr(c.err, "No such file") && strstr(c.err, "nope") &&
		strstr(c.err, "9P server test"));
	T_CHECK(p9_getattr(&c, 2, P9_GETATTR_BASIC, &a) == -EOPNOTSUPP);
	T_CHECK(p9_lopen(&c, 2, P9_DOTL_RDWR, NULL, NULL) == 0);
	for (path = 0; path < 2; path++) {
		/* larger than msize - 24: split, not refused; qd 1 and 4 */
		c.splits = 0;
		T_CHECK(p9_pwrite(&c, 2, wbuf, sizeof(wbuf), 1000, path, 1) ==
			(int64_t)sizeof(wbuf));
		T_CHECK(c.splits == 1);
		T_CHECK(!memcmp(srv.file + 1000, wbuf, sizeof(wbuf)));
		memset(rbuf, 0, sizeof(rbuf));
		T_CHECK(p9_pread(&c, 2, rbuf, sizeof(rbuf), 1000, path, 4) ==
			(int64_t)sizeof(rbuf));
		T_CHECK(!memcmp(rbuf, wbuf, sizeof(rbuf)));
		T_CHECK(srv.max_count == 8192 - 24);
		/* small reads, one message each */
		T_CHECK(p9_pread(&c, 2, rbuf, 1, 1000 + 5, path, 1) == 1 &&
			rbuf[0] == wbuf[5]);
	}
	T_CHECK(c.copied > 0);
	/* past the end of the server's file: Rlerror(EIO) */
	T_CHECK(p9_pread(&c, 2, rbuf, 100, FILE_LEN, P9_DIRECT, 1) == -EIO);
	T_CHECK(strstr(c.err, "Rlerror") != NULL);
	/* the connection still works after an Rlerror */
	T_CHECK(p9_io_submit(&c, 0, 2, rbuf, 10, 0, P9_DIRECT, 77) == 0);
	T_CHECK(p9_io_reap(&c, &d) == 0 && d.result == 10 && d.cookie == 77);
	T_CHECK(p9_io_submit(&c, 0, 2, rbuf, 8192, 0, P9_COPY, 1) == -EMSGSIZE);
	T_CHECK(p9_clunk(&c, 2) == 0);
	client_stop(&c);
}

static void test_client_reorder(void)
{
	struct p9_client c;
	struct p9_done d;
	int i, path, seen[8];

	for (path = 0; path < 2; path++) {
		T_CHECK(client_start(&c, SRV_REVERSE, 65536, 65536, 2000) == 0);
		memcpy(srv.file, wbuf, 8 * 1000);
		memset(rbuf, 0, sizeof(rbuf));
		memset(seen, 0, sizeof(seen));
		for (i = 0; i < 8; i++)
			T_CHECK(p9_io_submit(&c, 0, 2, rbuf + i * 1000, 1000,
					     (uint64_t)i * 1000, path,
					     (uint64_t)i) == 0);
		T_CHECK(c.inflight == 8);
		for (i = 0; i < 8; i++) {
			T_CHECK(p9_io_reap(&c, &d) == 0 && d.result == 1000);
			if (i == 0)
				T_CHECK(d.cookie ==
					7); /* last sent, first back */
			seen[d.cookie & 7]++;
		}
		for (i = 0; i < 8; i++)
			T_CHECK(seen[i] == 1);
		T_CHECK(!memcmp(rbuf, wbuf, 8000));
		T_CHECK(c.inflight == 0);
		client_stop(&c);
	}
}

static void test_client_bad(void)
{
	struct p9_client c;
	int path;

	T_CHECK(client_start(&c, SRV_NOT_L, 8192, 8192, 2000) ==
		-EPROTONOSUPPORT);
	T_CHECK(strstr(c.err, "unknown") != NULL);
	client_stop(&c);

	for (path = 0; path < 2; path++) {
		T_CHECK(client_start(&c, SRV_BADCOUNT, 8192, 8192, 2000) == 0);
		T_CHECK(p9_pread(&c, 2, rbuf, 100, 0, path, 1) == -EBADMSG);
		T_CHECK(strstr(c.err, "asked") != NULL);
		client_stop(&c);

		T_CHECK(client_start(&c, SRV_BADTAG, 8192, 8192, 2000) == 0);
		T_CHECK(p9_pread(&c, 2, rbuf, 100, 0, path, 1) == -EBADMSG);
		T_CHECK(strstr(c.err, "not in flight") != NULL);
		client_stop(&c);

		T_CHECK(client_start(&c, SRV_CLOSE_IO, 8192, 8192, 2000) == 0);
		T_CHECK(p9_pwrite(&c, 2, wbuf, 100, 0, path, 1) == -ECONNRESET);
		T_CHECK(strstr(c.err, "closed the connection") != NULL);
		client_stop(&c);

		T_CHECK(client_start(&c, SRV_STALL_IO, 8192, 8192, 200) == 0);
		T_CHECK(p9_pread(&c, 2, rbuf, 100, 0, path, 1) == -ETIMEDOUT);
		T_CHECK(strstr(c.err, "no progress") != NULL);
		shutdown(c.fd, SHUT_RDWR); /* let the server thread go */
		client_stop(&c);
	}
}

int main(void)
{
	test_encoder();
	test_decoder();
	test_client_good();
	test_client_reorder();
	test_client_bad();
	return t_done();
}
