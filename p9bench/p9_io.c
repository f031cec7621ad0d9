/*
 * p9_io.c: Tread and Twrite with a tag each, so several are in flight,
 * on the copy path or the direct path (see p9.h), and the split I/O of
 * p9_pread/p9_pwrite. While a direct Tread is in flight only the 11-byte
 * header of each reply is read into the client's buffer; with exactly one
 * request in flight header and payload come in one readv.
 */
#include "config.h"
#include "p9.h"
#include "p9_int.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>

int p9_io_submit(struct p9_client *c, int write, uint32_t fid, void *buf,
		 uint32_t count, uint64_t offset, int path, uint64_t cookie)
{
	struct iovec iov[2];
	uint8_t hdr[P9_TIOHDR];
	struct p9_req *q = NULL;
	int i, n = 1, r;

	if (count > c->iomax)
		return p9c_fail(c, -EMSGSIZE,
				"I/O of %u bytes > msize - 24 = %u", count,
				c->iomax);
	for (i = 0; i < P9_MAXTAGS && !q; i++)
		if (!c->req[i].busy)
			q = &c->req[i];
	if (!q)
		return p9c_fail(c, -EBUSY, "%d requests already in flight",
				P9_MAXTAGS);
	if (write) {
		p9_enc_write_hdr(hdr, sizeof(hdr), (uint16_t)(q - c->req), fid,
				 offset, count);
		if (path == P9_COPY) {
			memcpy(c->tbuf, hdr, sizeof(hdr));
			memcpy(c->tbuf + sizeof(hdr), buf, count);
			c->copied += count;
			iov[0].iov_base = c->tbuf;
			iov[0].iov_len = sizeof(hdr) + count;
		} else {
			iov[0].iov_base = hdr;
			iov[0].iov_len = sizeof(hdr);
			iov[1].iov_base = buf;
			iov[1].iov_len = count;
			n = count ? 2 : 1;
		}
	} else {
		p9_enc_read(hdr, sizeof(hdr), (uint16_t)(q - c->req), fid,
			    offset, count);
		iov[0].iov_base = hdr;
		iov[0].iov_len = sizeof(hdr);
	}
	r = p9c_send_iov(c, iov, n, write ? "sending Twrite" : "sending Tread");
	if (r)
		return r;
	q->busy = 1;
	q->type = write ? P9_TWRITE : P9_TREAD;
	q->path = path;
	q->buf = buf;
	q->asked = count;
	q->cookie = cookie;
	c->inflight++;
	if (!write && path == P9_DIRECT)
		c->ndirect_reads++;
	return 0;
}

/* The only request in flight, when it is a direct Tread. */
static struct p9_req *lone_direct_read(struct p9_client *c)
{
	int i;

	if (c->inflight != 1 || c->ndirect_reads != 1)
		return NULL;
	for (i = 0; i < P9_MAXTAGS; i++)
		if (c->req[i].busy)
			return &c->req[i];
	return NULL;
}

/*
 * Header of the next I/O reply into rbuf. For a lone direct Tread, one
 * readv takes the header and as much payload as came; *early says how
 * much payload landed in q->buf that way.
 */
static int io_header(struct p9_client *c, size_t *early)
{
	struct p9_req *q = lone_direct_read(c);
	struct iovec iov[2];
	ssize_t r;

	*early = 0;
	if (!q || p9c_avail(c) >= P9_RIOHDR)
		return p9c_fill(c, P9_RIOHDR, c->ndirect_reads > 0, 1,
				"waiting for an I/O reply");
	if (c->roff + P9_RIOHDR > c->rcap) {
		memmove(c->rbuf, c->rbuf + c->roff, p9c_avail(c));
		c->rlen -= c->roff;
		c->roff = 0;
	}
	while (p9c_avail(c) < P9_RIOHDR) {
		size_t need = P9_RIOHDR - p9c_avail(c);

		iov[0].iov_base = c->rbuf + c->rlen;
		iov[0].iov_len = need;
		iov[1].iov_base = q->buf;
		iov[1].iov_len = q->asked;
		r = p9c_rd(c, iov, q->asked ? 2 : 1, !p9c_avail(c),
			   "waiting for Rread");
		if (r < 0)
			return (int)r;
		if ((size_t)r > need) {
			c->rlen += need;
			*early = (size_t)r - need;
		} else {
			c->rlen += (size_t)r;
		}
	}
	return 0;
}

int p9_io_reap(struct p9_client *c, struct p9_done *d)
{
	const uint8_t *h;
	struct p9_req *q;
	char err[256];
	uint32_t size, count;
	uint8_t type;
	uint16_t tag;
	size_t early, part;
	int r;

	if (!c->inflight)
		return p9c_fail(c, -EINVAL, "reap with no I/O in flight");
	r = io_header(c, &early);
	if (r)
		return r;
	h = c->rbuf + c->roff;
	r = p9_hdr(h, P9_RIOHDR, c->msize, &size, &type, &tag, err,
		   sizeof(err));
	if (r)
		return p9c_fail(c, r, "I/O reply: %s", err);
	if (tag >= P9_MAXTAGS || !c->req[tag].busy)
		return p9c_fail(c, -EBADMSG, "%s with tag %u, not in flight",
				p9_type_name(type), tag);
	q = &c->req[tag];
	r = p9_iohdr(h, c->msize, q->type, q->asked, &type, &tag, &count, err,
		     sizeof(err));
	if (r)
		return p9c_fail(c, r, "I/O reply: %s", err);
	if (early && (type != P9_RREAD || early > count))
		return p9c_fail(c, -EBADMSG,
				"%zu bytes beyond the only reply in flight",
				early);
	memset(d, 0, sizeof(*d));
	d->tag = tag;
	d->type = q->type;
	d->asked = q->asked;
	d->cookie = q->cookie;
	d->result = type == P9_RLERROR ? p9_errno(count) : (int64_t)count;
	c->roff += P9_RIOHDR;
	if (type == P9_RREAD && count) {
		part = p9c_avail(c) < count - early ? p9c_avail(c)
						    : count - early;
		if (q->path == P9_DIRECT) {
			/* bytes already buffered (a mixed stream) are copied */
			memcpy(q->buf + early, c->rbuf + c->roff, part);
			c->roff += part;
			r = p9c_read_into(c, q->buf + early + part,
					  count - early - part,
					  "reading Rread data");
		} else {
			r = p9c_fill(c, count, c->ndirect_reads > 0, 0,
				     "reading Rread data");
			if (!r) {
				memcpy(q->buf, c->rbuf + c->roff, count);
				c->roff += count;
				c->copied += count;
			}
		}
		if (r)
			return r;
	}
	c->rx_msgs++;
	if (q->type == P9_TREAD && q->path == P9_DIRECT)
		c->ndirect_reads--;
	q->busy = 0;
	c->inflight--;
	return 0;
}

/* Split len bytes into I/Os of at most iomax, qd in flight. */
static int64_t rw(struct p9_client *c, int write, uint32_t fid, uint8_t *buf,
		  size_t len, uint64_t offset, int path, int qd)
{
	size_t next = 0, end = len;
	struct p9_done d;
	int err = 0, r;

	if (c->inflight)
		return p9c_fail(c, -EBUSY,
				"split I/O with other I/O in flight");
	if (qd < 1 || qd > P9_MAXTAGS)
		qd = 1;
	if (len > c->iomax)
		c->splits++;
	while (c->inflight || (next < end && !err)) {
		while (next < end && !err && c->inflight < qd) {
			size_t n =
				end - next < c->iomax ? end - next : c->iomax;

			r = p9_io_submit(c, write, fid, buf + next, (uint32_t)n,
					 offset + next, path, next);
			if (r)
				return r;
			next += n;
		}
		r = p9_io_reap(c, &d);
		if (r == -EINTR) { /* stopped: send no more, drain */
			err = err ? err : r;
			continue;
		}
		if (r)
			return r;
		if (d.result < 0) {
			if (!err)
				err = p9c_fail(
					c, (int)d.result,
					"%s of %u bytes at offset %llu: %s (Rlerror)",
					write ? "Twrite" : "Tread", d.asked,
					(unsigned long long)(offset + d.cookie),
					strerror((int)-d.result));
			continue;
		}
		if ((uint32_t)d.result == d.asked)
			continue;
		if (!write) { /* end of file: nothing past it counts */
			if (d.cookie + (uint64_t)d.result < end)
				end = d.cookie + (size_t)d.result;
		} else if (d.result == 0) {
			err = p9c_fail(c, -EIO, "Twrite of %u bytes wrote none",
				       d.asked);
		} else { /* a short write: send the rest again */
			size_t at = d.cookie + (size_t)d.result;

			r = p9_io_submit(c, 1, fid, buf + at,
					 d.asked - (uint32_t)d.result,
					 offset + at, path, at);
			if (r)
				return r;
		}
	}
	return err ? err : (int64_t)end;
}

int64_t p9_pread(struct p9_client *c, uint32_t fid, void *buf, size_t len,
		 uint64_t offset, int path, int qd)
{
	return rw(c, 0, fid, buf, len, offset, path, qd);
}

int64_t p9_pwrite(struct p9_client *c, uint32_t fid, const void *buf,
		  size_t len, uint64_t offset, int path, int qd)
{
	return rw(c, 1, fid, (uint8_t *)buf, len, offset, path, qd);
}
