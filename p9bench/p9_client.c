/*
 * p9_client.c: one 9P2000.L connection: the transport (timed reads and
 * writes, the receive buffer), Tversion and the metadata calls, one at a
 * time. Tread/Twrite with tags are in p9_io.c.
 *
 * Receiving: replies are read into rbuf and decoded from there (copy),
 * except while a direct Tread is in flight: then only the 11-byte I/O
 * header is read into rbuf and the payload goes straight to the caller's
 * buffer; with exactly one request in flight header and payload come in
 * one readv. Every wait is bounded by SO_RCVTIMEO/SO_SNDTIMEO.
 */
#include "config.h"
#include "p9.h"
#include "p9_int.h"
#include "sock.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#define P9_DEFAULT_PORT 564

/* Fill c->err with "PEER: what" and return e (negative). */
int p9c_fail(struct p9_client *c, int e, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(c->err, sizeof(c->err), "%.150s: %.350s", c->peer, msg);
	return e;
}

/* Why a read or write stopped, as an errno and a phrase. */
static int io_error(struct p9_client *c, ssize_t n, int e, const char *what)
{
	if (n == 0)
		return p9c_fail(c, -ECONNRESET,
				"closed the connection while %s", what);
	if (e == EAGAIN || e == EWOULDBLOCK)
		return p9c_fail(c, -ETIMEDOUT, "no progress for %d ms while %s",
				c->o.timeout_ms, what);
	if (e == EINTR)
		return p9c_fail(c, -EINTR, "interrupted while %s", what);
	return p9c_fail(c, -e, "%s while %s", strerror(e), what);
}

static int stopped(struct p9_client *c)
{
	return c->o.stop && *c->o.stop;
}

/*
 * One readv: bytes (> 0) or a filled error. A signal with *o.stop set
 * ends the wait only between messages (intr), so the stream stays whole.
 */
ssize_t p9c_rd(struct p9_client *c, struct iovec *iov, int n, int intr,
	       const char *what)
{
	ssize_t r;

	for (;;) {
		r = readv(c->fd, iov, n);
		if (r > 0) {
			c->rx_bytes += (uint64_t)r;
			return r;
		}
		if (r < 0 && errno == EINTR && !(intr && stopped(c)))
			continue;
		return io_error(c, r, r < 0 ? errno : 0, what);
	}
}

/* Send all of iov[0..n) (modified as it goes). */
int p9c_send_iov(struct p9_client *c, struct iovec *iov, int n,
		 const char *what)
{
	struct msghdr mh = {.msg_iov = iov, .msg_iovlen = (size_t)n};
	const size_t first = iov->iov_len;
	ssize_t r;

	while (mh.msg_iovlen) {
		r = sendmsg(c->fd, &mh, MSG_NOSIGNAL);
		if (r < 0 && errno == ENOTSOCK)
			r = writev(c->fd, mh.msg_iov, (int)mh.msg_iovlen);
		if (r < 0) {
			/* interruptible only before the first byte */
			if (errno == EINTR &&
			    !(iov == mh.msg_iov && iov->iov_len == first &&
			      stopped(c)))
				continue;
			return io_error(c, -1, errno, what);
		}
		c->tx_bytes += (uint64_t)r;
		while (mh.msg_iovlen && (size_t)r >= mh.msg_iov->iov_len) {
			r -= (ssize_t)mh.msg_iov->iov_len;
			mh.msg_iov++;
			mh.msg_iovlen--;
		}
		if (mh.msg_iovlen) {
			mh.msg_iov->iov_base = (char *)mh.msg_iov->iov_base + r;
			mh.msg_iov->iov_len -= (size_t)r;
		}
	}
	c->tx_msgs++;
	return 0;
}

size_t p9c_avail(const struct p9_client *c)
{
	return c->rlen - c->roff;
}

/*
 * Have at least need bytes buffered. exact: read no more than that (a
 * direct payload may follow); else read whatever is there.
 */
int p9c_fill(struct p9_client *c, size_t need, int exact, int intr,
	     const char *what)
{
	struct iovec iov;
	ssize_t r;

	if (need > c->rcap)
		return p9c_fail(c, -EMSGSIZE, "message of %zu bytes > buffer",
				need);
	if (c->roff + need > c->rcap || c->roff == c->rlen) {
		memmove(c->rbuf, c->rbuf + c->roff, p9c_avail(c));
		c->rlen -= c->roff;
		c->roff = 0;
	}
	while (p9c_avail(c) < need) {
		iov.iov_base = c->rbuf + c->rlen;
		iov.iov_len = exact ? need - p9c_avail(c) : c->rcap - c->rlen;
		r = p9c_rd(c, &iov, 1, intr && !p9c_avail(c), what);
		if (r < 0)
			return (int)r;
		c->rlen += (size_t)r;
	}
	return 0;
}

/* Read exactly len bytes into buf (no buffering). */
int p9c_read_into(struct p9_client *c, uint8_t *buf, size_t len,
		  const char *what)
{
	struct iovec iov;
	ssize_t r;

	while (len) {
		iov.iov_base = buf;
		iov.iov_len = len;
		r = p9c_rd(c, &iov, 1, 0, what);
		if (r < 0)
			return (int)r;
		buf += r;
		len -= (size_t)r;
	}
	return 0;
}

int p9_client_init(struct p9_client *c, int fd, const char *peer,
		   const struct p9_opts *o)
{
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	snprintf(c->peer, sizeof(c->peer), "9P server %.140s", peer);
	if (o)
		c->o = *o;
	if (!c->o.msize)
		c->o.msize = 65536;
	if (c->o.msize < P9_MIN_MSIZE || c->o.msize > P9_MAX_MSIZE)
		return p9c_fail(c, -EINVAL, "msize %u out of range %u..%u",
				c->o.msize, P9_MIN_MSIZE, P9_MAX_MSIZE);
	c->msize = c->o.msize;
	c->iomax = c->msize - P9_IOHDRSZ;
	c->rcap = 2 * (size_t)c->o.msize;
	c->tbuf = malloc(c->o.msize);
	c->rbuf = malloc(c->rcap);
	c->next_fid = 1;
	if (!c->tbuf || !c->rbuf)
		return p9c_fail(c, -ENOMEM, "no memory for buffers");
	if (c->o.timeout_ms > 0)
		sock_set_timeout(fd, c->o.timeout_ms);
	if (c->o.nodelay)
		sock_set_nodelay(fd, 1); /* fails harmlessly on unix */
	return 0;
}

int p9_connect(struct p9_client *c, const char *addr, const struct p9_opts *o)
{
	char host[256], err[256], peer[300];
	int fd, port, r;

	if (!strncmp(addr, "unix:", 5) || addr[0] == '/') {
		const char *path = addr[0] == '/' ? addr : addr + 5;

		snprintf(peer, sizeof(peer), "unix:%s", path);
		fd = sock_connect_unix(path, err, sizeof(err));
	} else {
		if (sock_split_hostport(addr, host, sizeof(host), &port,
					P9_DEFAULT_PORT)) {
			memset(c, 0, sizeof(*c));
			snprintf(
				c->err, sizeof(c->err),
				"bad 9P server address '%s' (HOST[:PORT] or unix:PATH)",
				addr);
			c->fd = -1;
			return -EINVAL;
		}
		snprintf(peer, sizeof(peer), "%s:%d", host, port);
		fd = sock_connect(host, port, SOCK_STREAM,
				  o && o->timeout_ms ? o->timeout_ms : 10000,
				  err, sizeof(err));
	}
	if (fd < 0) {
		memset(c, 0, sizeof(*c));
		c->fd = -1;
		snprintf(c->err, sizeof(c->err), "9P server %.200s: %.250s",
			 peer, err);
		return fd;
	}
	r = p9_client_init(c, fd, peer, o);
	if (!r)
		r = p9_version(c);
	return r;
}

void p9_close(struct p9_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	free(c->tbuf);
	free(c->rbuf);
	c->tbuf = c->rbuf = NULL;
}

uint32_t p9_fid_new(struct p9_client *c)
{
	return c->next_fid++;
}

/*
 * One metadata call: send tbuf[0..len), wait for its reply, decode it.
 * Rlerror becomes -errno. Only with nothing else in flight.
 */
static int rpc(struct p9_client *c, size_t len, uint8_t rtype, struct p9_msg *m,
	       const char *what)
{
	struct iovec iov = {.iov_base = c->tbuf, .iov_len = len};
	uint16_t tag = (uint16_t)(c->tbuf[5] | c->tbuf[6] << 8);
	char err[256], phase[160];
	uint32_t size;
	uint8_t type;
	uint16_t rtag;
	int r;

	if (!len)
		return p9c_fail(c, -EMSGSIZE, "%s does not fit msize %u", what,
				c->msize);
	if (c->inflight)
		return p9c_fail(c, -EBUSY, "%s with I/O in flight", what);
	r = p9c_send_iov(c, &iov, 1, what);
	if (r)
		return r;
	snprintf(phase, sizeof(phase), "waiting for the reply to %s", what);
	r = p9c_fill(c, P9_HDRSZ, 0, 0, phase);
	if (!r)
		r = p9_hdr(c->rbuf + c->roff, p9c_avail(c), c->msize, &size,
			   &type, &rtag, err, sizeof(err));
	if (r)
		return r == -EBADMSG ? p9c_fail(c, r, "%s: %s", what, err) : r;
	r = p9c_fill(c, size, 0, 0, phase);
	if (r)
		return r;
	r = p9_decode(c->rbuf + c->roff, size, c->msize, m, err, sizeof(err));
	c->roff += size;
	c->rx_msgs++;
	if (r)
		return p9c_fail(c, r, "%s: bad reply: %s", what, err);
	if (m->tag != tag)
		return p9c_fail(c, -EBADMSG, "%s: reply has tag %u, sent %u",
				what, m->tag, tag);
	if (m->type == P9_RLERROR)
		return p9c_fail(c, p9_errno(m->ecode), "%s: %s (Rlerror %u)",
				what, strerror(-p9_errno(m->ecode)), m->ecode);
	if (m->type != rtype)
		return p9c_fail(c, -EBADMSG, "%s answered by %s", what,
				p9_type_name(m->type));
	return 0;
}

int p9_version(struct p9_client *c)
{
	struct p9_msg m;
	size_t len;
	int r;

	len = p9_enc_version(c->tbuf, c->o.msize, P9_NOTAG, c->o.msize,
			     P9_VERSION);
	c->msize = c->o.msize; /* replies may be this large meanwhile */
	r = rpc(c, len, P9_RVERSION, &m, "Tversion");
	if (r)
		return r;
	if (strcmp(m.version, P9_VERSION))
		return p9c_fail(c, -EPROTONOSUPPORT,
				"does not speak %s (answered '%s')", P9_VERSION,
				m.version);
	if (m.msize > c->o.msize || m.msize < P9_MIN_MSIZE)
		return p9c_fail(c, -EBADMSG,
				"Rversion msize %u: proposed %u, minimum %u",
				m.msize, c->o.msize, P9_MIN_MSIZE);
	c->msize = m.msize;
	c->iomax = m.msize - P9_IOHDRSZ;
	return 0;
}

int p9_attach(struct p9_client *c, uint32_t fid, const char *uname,
	      const char *aname, uint32_t n_uname, struct p9_qid *qid)
{
	struct p9_msg m;
	char what[320];
	int r;

	snprintf(what, sizeof(what), "Tattach '%s' as uid %u", aname, n_uname);
	r = rpc(c,
		p9_enc_attach(c->tbuf, c->msize, 0, fid, P9_NOFID, uname, aname,
			      n_uname),
		P9_RATTACH, &m, what);
	if (!r && qid)
		*qid = m.qid;
	return r;
}

int p9_walk(struct p9_client *c, uint32_t fid, uint32_t newfid, int nwname,
	    const char *const *wname, struct p9_qid *qids)
{
	struct p9_msg m;
	char what[320];
	int r;

	snprintf(what, sizeof(what), "Twalk '%s'%s", nwname > 0 ? wname[0] : "",
		 nwname > 1 ? "/..." : "");
	r = rpc(c,
		p9_enc_walk(c->tbuf, c->msize, 0, fid, newfid, nwname, wname),
		P9_RWALK, &m, what);
	if (r)
		return r;
	if (m.nwqid != nwname) /* a partial walk: the name is missing */
		return p9c_fail(c, -ENOENT, "%s: %s (walked %u of %d)", what,
				strerror(ENOENT), m.nwqid, nwname);
	if (qids)
		memcpy(qids, m.wqid, sizeof(m.wqid[0]) * (size_t)nwname);
	return 0;
}

int p9_lopen(struct p9_client *c, uint32_t fid, uint32_t flags,
	     struct p9_qid *qid, uint32_t *iounit)
{
	struct p9_msg m;
	int r;

	r = rpc(c, p9_enc_lopen(c->tbuf, c->msize, 0, fid, flags), P9_RLOPEN,
		&m, "Tlopen");
	if (!r && qid)
		*qid = m.qid;
	if (!r && iounit)
		*iounit = m.iounit;
	return r;
}

int p9_lcreate(struct p9_client *c, uint32_t fid, const char *name,
	       uint32_t flags, uint32_t mode, uint32_t gid, struct p9_qid *qid,
	       uint32_t *iounit)
{
	struct p9_msg m;
	char what[320];
	int r;

	snprintf(what, sizeof(what), "Tlcreate '%s'", name);
	r = rpc(c,
		p9_enc_lcreate(c->tbuf, c->msize, 0, fid, name, flags, mode,
			       gid),
		P9_RLCREATE, &m, what);
	if (!r && qid)
		*qid = m.qid;
	if (!r && iounit)
		*iounit = m.iounit;
	return r;
}

int p9_getattr(struct p9_client *c, uint32_t fid, uint64_t mask,
	       struct p9_attr *a)
{
	struct p9_msg m;
	int r;

	r = rpc(c, p9_enc_getattr(c->tbuf, c->msize, 0, fid, mask), P9_RGETATTR,
		&m, "Tgetattr");
	if (!r && a)
		*a = m.attr;
	return r;
}

int p9_clunk(struct p9_client *c, uint32_t fid)
{
	struct p9_msg m;

	return rpc(c, p9_enc_clunk(c->tbuf, c->msize, 0, fid), P9_RCLUNK, &m,
		   "Tclunk");
}

int p9_remove(struct p9_client *c, uint32_t fid)
{
	struct p9_msg m;

	return rpc(c, p9_enc_remove(c->tbuf, c->msize, 0, fid), P9_RREMOVE, &m,
		   "Tremove");
}

int p9_unlinkat(struct p9_client *c, uint32_t dirfid, const char *name,
		uint32_t flags)
{
	struct p9_msg m;
	char what[320];

	snprintf(what, sizeof(what), "Tunlinkat '%s'", name);
	return rpc(c,
		   p9_enc_unlinkat(c->tbuf, c->msize, 0, dirfid, name, flags),
		   P9_RUNLINKAT, &m, what);
}
