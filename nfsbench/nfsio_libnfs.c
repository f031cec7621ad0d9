/*
 * nfsio_libnfs.c: the libnfs engine of nfsio.h. One context, one TCP
 * connection, one file per client. Reads and writes go out as requests
 * of exactly the asked count (the rsize/wsize analogue: libnfs 4.0 has no
 * rsize option, the count of each READ is what goes on the wire, up to
 * the server's rtmax); a reply may carry fewer bytes (NFSv4 does that),
 * and the transfer then asks again for the rest.
 *
 * Both read APIs are supported: before LIBNFS_API_V2 (libnfs <= 5) a
 * read's data belongs to libnfs and is only valid in the callback; from
 * LIBNFS_API_V2 on (libnfs >= 6) the caller passes its own buffer and the
 * argument order changed (buf, count, offset).
 *
 * Every RPC has a timeout (nfs_set_timeout) and auto-reconnect is off, so
 * a dead or frozen server ends the run with an error instead of a hang.
 */
#include "config.h"

#ifdef HAVE_LIBNFS

#include "nfsio_int.h"
#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <nfsc/libnfs.h>

#define NFSIO_LIBNFS_MAX (1u << 20) /* largest request libnfs 4.0 takes */

struct lnfs_slot {
	struct nfsio *io;   /* back pointer for callbacks */
	unsigned char *buf; /* write data, or the read target (API v2) */
	uint64_t off;	    /* where this request reads or writes */
	size_t count;	    /* bytes asked */
	int busy;	    /* in flight */
	int done;	    /* completed, to be reaped by the loop */
	int status;	    /* bytes or -errno from the callback */
};

struct lnfs_priv {
	struct nfs_context *nfs;	     /* one context = one connection */
	struct nfsfh *fh;		     /* the open file */
	struct nfs_url *url;		     /* parsed target */
	unsigned char *buf;		     /* sync requests' buffer */
	struct lnfs_slot slot[NFSIO_MAX_QD]; /* async requests */
	int inflight;			     /* slots busy */
	int failed;			     /* a callback saw an error */
	char cberr[512];		     /* its message */
	double last_progress; /* clock_now() of the last completion */
	int broken;	      /* the run failed: do not talk to it again */
};

int nfsio_have_libnfs(void)
{
	return 1;
}

const char *nfsio_libnfs_api(void)
{
#ifdef LIBNFS_API_V2
	return "v2 (caller buffers)";
#else
	return "v1 (library buffers)";
#endif
}

static const char *nerr(struct lnfs_priv *p)
{
	const char *e = p->nfs ? nfs_get_error(p->nfs) : NULL;

	return e && *e ? e : "unknown error";
}

/* The context (timeouts, no reconnect, the version) and the mount. */
static int lnfs_mount(struct nfsio *io, struct lnfs_priv *p, char *err,
		      size_t len)
{
	int r, ms = io->o.timeout_ms;

	p->nfs = nfs_init_context();
	if (!p->nfs) {
		snprintf(err, len, "libnfs: cannot create a context");
		return -ENOMEM;
	}
	/* timeouts count in whole seconds; never none */
	if (ms <= 0)
		ms = 10000;
	nfs_set_timeout(p->nfs, (ms + 999) / 1000 * 1000);
	nfs_set_autoreconnect(p->nfs, 0);
	p->url = nfs_parse_url_full(p->nfs, io->o.target);
	if (!p->url) {
		snprintf(err, len, "bad URL %s: %s", io->o.target, nerr(p));
		return -EINVAL;
	}
	/* NFS_V3 and NFS_V4 (3, 4) live in the raw protocol headers */
	if (io->o.vers && nfs_set_version(p->nfs, io->o.vers)) {
		snprintf(err, len, "libnfs: cannot set NFS version %d",
			 io->o.vers);
		return -EINVAL;
	}
	io->st.vers = io->o.vers ? io->o.vers : nfsio_url_version(io->o.target);
	r = nfs_mount(p->nfs, p->url->server, p->url->path);
	if (r) {
		snprintf(err, len, "mount %s:%s (NFSv%d): %s", p->url->server,
			 p->url->path, io->st.vers, nerr(p));
		return r < 0 ? r : -EIO;
	}
	return 0;
}

/* The request size against what this client and the server allow. */
static int lnfs_limits(struct nfsio *io, struct lnfs_priv *p, char *err,
		       size_t len)
{
	uint64_t max;

	io->st.readmax = nfs_get_readmax(p->nfs);
	io->st.writemax = nfs_get_writemax(p->nfs);
	max = io->o.op == NFSIO_WRITE ? io->st.writemax : io->st.readmax;
#ifndef LIBNFS_API_V2
	/* libnfs 4.0 drops replies over 1 MiB + 4 KiB (NFSv4 has no
	 * readmax there): refuse what would fail mid-run */
	if (!max || max > NFSIO_LIBNFS_MAX)
		max = NFSIO_LIBNFS_MAX;
#endif
	if (max && io->o.reqsize > max) {
		/* libnfs refuses replies larger than the negotiated size
		 * (NFSv3's FSINFO; libnfs 4.0 leaves it 0 for NFSv4) */
		snprintf(
			err, len,
			"request size %zu exceeds the largest %s this client and server allow (%llu bytes)",
			io->o.reqsize,
			io->o.op == NFSIO_WRITE ? "WRITE" : "READ",
			(unsigned long long)max);
		return -EMSGSIZE;
	}
	return 0;
}

static int lnfs_open(struct nfsio *io, char *err, size_t len)
{
	struct lnfs_priv *p = calloc(1, sizeof(*p));
	struct nfs_stat_64 st;
	int r;

	if (!p)
		return -ENOMEM;
	io->priv = p;
	r = lnfs_mount(io, p, err, len);
	if (!r)
		r = lnfs_limits(io, p, err, len);
	if (r)
		return r;
	if (io->o.op == NFSIO_WRITE) {
		/* NFSv4 creates exclusively in libnfs 4.0: truncate an
		 * existing file, create a missing one */
		r = nfs_open(p->nfs, p->url->file, O_WRONLY | O_TRUNC, &p->fh);
		if (r == -ENOENT)
			r = nfs_open2(p->nfs, p->url->file,
				      O_WRONLY | O_CREAT | O_TRUNC, 0644,
				      &p->fh);
	} else
		r = nfs_open(p->nfs, p->url->file, O_RDONLY, &p->fh);
	if (r) {
		snprintf(err, len, "open %s on %s:%s: %s", p->url->file,
			 p->url->server, p->url->path, nerr(p));
		return r < 0 ? r : -EIO;
	}
	r = nfs_fstat64(p->nfs, p->fh, &st);
	if (r) {
		snprintf(err, len, "stat %s: %s", p->url->file, nerr(p));
		return r < 0 ? r : -EIO;
	}
	nfsio_set_end(io, st.nfs_size);
	p->buf = malloc(io->o.reqsize);
	if (!p->buf)
		return -ENOMEM;
	return 0;
}

/*
 * libnfs 4.0 encodes an NFSv4 WRITE, data included, in a fixed buffer of
 * about 4 KiB: larger writes fail to encode. Say so next to its error.
 */
static const char *hint(struct nfsio *io, const char *e)
{
	if (io->o.op == NFSIO_WRITE && io->st.vers == 4 && strstr(e, "encode"))
		return " (this libnfs cannot send an NFSv4 WRITE over about 4 KiB: use NFSv3 for larger wsize)";
	return "";
}

/* ---- synchronous: one request at a time ---- */

static int sync_call(struct nfsio *io, uint64_t off, size_t n)
{
	struct lnfs_priv *p = io->priv;

	if (io->o.op == NFSIO_WRITE) {
		nfsio_fill(io, p->buf, off, n);
#ifdef LIBNFS_API_V2
		return nfs_pwrite(p->nfs, p->fh, p->buf, n, off);
#else
		return nfs_pwrite(p->nfs, p->fh, off, n, p->buf);
#endif
	}
#ifdef LIBNFS_API_V2
	return nfs_pread(p->nfs, p->fh, p->buf, n, off);
#else
	return nfs_pread(p->nfs, p->fh, off, n, p->buf);
#endif
}

/* One request, its reply checked (nfsio_serial runs them). */
static ssize_t sync_one(struct nfsio *io, uint64_t off, size_t n,
			const unsigned char **data, char *err, size_t len)
{
	struct lnfs_priv *p = io->priv;
	int r = sync_call(io, off, n);

	*data = p->buf;
	if (r < 0) {
		snprintf(err, len, "%s %s at offset %llu (%zu bytes): %s%s",
			 io->o.op == NFSIO_WRITE ? "write" : "read",
			 p->url->file, (unsigned long long)off, n, nerr(p),
			 hint(io, nerr(p)));
		return r;
	}
	if (r == 0 && io->o.op == NFSIO_WRITE) {
		snprintf(err, len,
			 "write %s at offset %llu: server wrote nothing",
			 p->url->file, (unsigned long long)off);
		return -EIO;
	}
	if ((size_t)r > n) {
		snprintf(err, len, "%s: reply of %d bytes for %zu asked",
			 p->url->file, r, n);
		return -EPROTO;
	}
	return r; /* 0: EOF before the size seen at open */
}

/* ---- asynchronous: qd requests in flight, our own poll loop ---- */

static void slot_cb(int status, struct nfs_context *nfs, void *data,
		    void *private_data)
{
	struct lnfs_slot *s = private_data;
	struct nfsio *io = s->io;
	struct lnfs_priv *p = io->priv;

	(void)nfs;
	s->busy = 0;
	s->done = 1;
	s->status = status;
	p->inflight--;
	p->last_progress = clock_now();
	if (status < 0) {
		if (!p->failed)
			snprintf(p->cberr, sizeof(p->cberr),
				 "%s %s at offset %llu (%zu bytes): %s",
				 io->o.op == NFSIO_WRITE ? "write" : "read",
				 p->url->file, (unsigned long long)s->off,
				 s->count, data ? (const char *)data : "error");
		p->failed = 1;
		return;
	}
	if ((size_t)status > s->count) {
		if (!p->failed)
			snprintf(p->cberr, sizeof(p->cberr),
				 "%s: reply of %d bytes for %zu asked",
				 p->url->file, status, s->count);
		p->failed = 1;
		return;
	}
	if (io->o.op == NFSIO_READ && status > 0) {
#ifdef LIBNFS_API_V2
		const void *got = s->buf;
#else
		const void *got = data; /* libnfs's, valid only here */
#endif
		if (!p->failed && nfsio_verify(io, got, s->off, (size_t)status,
					       p->cberr, sizeof(p->cberr)))
			p->failed = 1;
	}
}

static int slot_issue(struct nfsio *io, struct lnfs_slot *s)
{
	struct lnfs_priv *p = io->priv;
	int r;

	if (io->o.op == NFSIO_WRITE) {
		nfsio_fill(io, s->buf, s->off, s->count);
#ifdef LIBNFS_API_V2
		r = nfs_pwrite_async(p->nfs, p->fh, s->buf, s->count, s->off,
				     slot_cb, s);
#else
		r = nfs_pwrite_async(p->nfs, p->fh, s->off, s->count, s->buf,
				     slot_cb, s);
#endif
	} else {
#ifdef LIBNFS_API_V2
		r = nfs_pread_async(p->nfs, p->fh, s->buf, s->count, s->off,
				    slot_cb, s);
#else
		r = nfs_pread_async(p->nfs, p->fh, s->off, s->count, slot_cb,
				    s);
#endif
	}
	if (r == 0) {
		s->busy = 1;
		p->inflight++;
	}
	return r;
}

/* A completed slot: account it; ask again for the rest of a short reply.
 * Returns 1 when the slot is free for new work, 0 if reissued, <0 error. */
static int slot_reap(struct nfsio *io, struct lnfs_slot *s, int *eof)
{
	size_t got = (size_t)s->status;

	s->done = 0;
	if (got == 0) {
		if (io->o.op == NFSIO_WRITE)
			return -EIO;
		*eof = 1; /* the file got shorter than at open */
		return 1;
	}
	io->st.ops++;
	nfsio_count(io, got);
	if (got < s->count) {
		io->st.short_ops++;
		s->off += got;
		s->count -= got;
		if (io->o.op == NFSIO_WRITE) /* the rest of our data */
			memmove(s->buf, s->buf + got, s->count);
		return 0;
	}
	return 1;
}

static int run_async(struct nfsio *io, char *err, size_t len)
{
	struct lnfs_priv *p = io->priv;
	int qd = io->o.qd, i, r, eof = 0, limit_ms;
	uint64_t next = 0;
	struct pollfd pfd;

	limit_ms = (io->o.timeout_ms > 0 ? io->o.timeout_ms : 10000) + 2000;
	for (i = 0; i < qd; i++) {
		p->slot[i].io = io;
		p->slot[i].buf = malloc(io->o.reqsize);
		if (!p->slot[i].buf)
			return -ENOMEM;
	}
	p->last_progress = clock_now();
	for (;;) {
		for (i = 0; i < qd && !p->failed; i++) {
			struct lnfs_slot *s = &p->slot[i];

			if (s->done) {
				r = slot_reap(io, s, &eof);
				if (r < 0) {
					snprintf(
						err, len,
						"write %s at offset %llu: server wrote nothing",
						p->url->file,
						(unsigned long long)s->off);
					return r;
				}
				if (r == 0 && slot_issue(io, s))
					goto queue_fail;
			}
			if (!s->busy && !s->done && !eof && next < io->end) {
				s->off = next;
				s->count = io->end - next < io->o.reqsize
						   ? (size_t)(io->end - next)
						   : io->o.reqsize;
				next += s->count;
				if (slot_issue(io, s))
					goto queue_fail;
			}
		}
		if (p->failed) {
			snprintf(err, len, "%s", p->cberr);
			return -EIO;
		}
		if (!p->inflight)
			break;
		pfd.fd = nfs_get_fd(p->nfs);
		pfd.events = (short)nfs_which_events(p->nfs);
		pfd.revents = 0;
		r = poll(&pfd, 1, 100);
		if (r < 0 && errno != EINTR) {
			snprintf(err, len, "poll: %s", strerror(errno));
			return -errno;
		}
		/* revents 0 still runs libnfs's timeout handling */
		if (nfs_service(p->nfs, r > 0 ? pfd.revents : 0) < 0) {
			snprintf(err, len, "%s: connection to %s failed: %s",
				 p->url->file, p->url->server, nerr(p));
			return -ECONNRESET;
		}
		if (clock_now() - p->last_progress > limit_ms / 1000.0) {
			snprintf(
				err, len,
				"%s: no reply from %s for %d ms (%d requests in flight)",
				p->url->file, p->url->server, limit_ms,
				p->inflight);
			return -ETIMEDOUT;
		}
	}
	return 0;
queue_fail:
	snprintf(err, len, "cannot queue a request for %s: %s%s", p->url->file,
		 nerr(p), hint(io, nerr(p)));
	return -EIO;
}

static int lnfs_run(struct nfsio *io, char *err, size_t len)
{
	struct lnfs_priv *p = io->priv;
	int r;

	if (io->o.qd > 1 || io->o.async)
		r = run_async(io, err, len);
	else
		r = nfsio_serial(io, sync_one, err, len);
	if (r == 0 && io->o.op == NFSIO_WRITE) {
		r = nfs_fsync(p->nfs, p->fh);
		if (r)
			snprintf(err, len, "fsync %s: %s", p->url->file,
				 nerr(p));
	}
	if (r)
		p->broken = 1;
	return r;
}

static void lnfs_close(struct nfsio *io)
{
	struct lnfs_priv *p = io->priv;
	int i;

	if (p->nfs) {
		/* a failed run may leave requests in flight: the context
		 * owns them, and destroying it cancels them */
		if (p->fh && !p->inflight && !p->broken)
			nfs_close(p->nfs, p->fh);
		nfs_destroy_context(p->nfs);
	}
	if (p->url)
		nfs_destroy_url(p->url);
	for (i = 0; i < NFSIO_MAX_QD; i++)
		free(p->slot[i].buf);
	free(p->buf);
	free(p);
	io->priv = NULL;
}

const struct nfsio_engine nfsio_libnfs_engine = {
	.name = "libnfs",
	.open = lnfs_open,
	.run = lnfs_run,
	.close = lnfs_close,
};

#else /* built without libnfs: say so */

#include "nfsio.h"

int nfsio_have_libnfs(void)
{
	return 0;
}

const char *nfsio_libnfs_api(void)
{
	return "";
}
#endif
