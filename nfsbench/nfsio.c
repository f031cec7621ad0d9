/*
 * nfsio.c: nfsbench's I/O engines behind one interface (the switch), the
 * posix engine (files under a mounted path, lib/core/mfile) and the
 * mountinfo helpers. The libnfs engine is in nfsio_libnfs.c; what both
 * engines share (the pattern and its check, the one-request loop, URLs)
 * in nfsio_common.c.
 */
#include "config.h"
#include "nfsio_int.h"
#include "clock.h"
#include "hostinfo.h"
#include "mfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- mountinfo ---- */

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = 0;
}

static int under(const char *path, const char *mnt)
{
	size_t n = strlen(mnt);

	if (!strcmp(mnt, "/"))
		return 1;
	return !strncmp(path, mnt, n) && (path[n] == '/' || !path[n]);
}

static void mount_opts(const char *opts, struct nfsio_mount *m)
{
	char buf[2048], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", opts);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strncmp(tok, "rsize=", 6))
			m->rsize = strtol(tok + 6, NULL, 10);
		else if (!strncmp(tok, "wsize=", 6))
			m->wsize = strtol(tok + 6, NULL, 10);
		else if (!strncmp(tok, "vers=", 5))
			snprintf(m->vers, sizeof(m->vers), "%s", tok + 5);
		else if (!strncmp(tok, "proto=", 6))
			snprintf(m->proto, sizeof(m->proto), "%s", tok + 6);
	}
}

int nfsio_mount_parse(const char *text, const char *path, struct nfsio_mount *m)
{
	const char *line = text, *nl;
	char buf[4096], *f[16], *save, *tok, *sep;
	size_t best = 0, n;
	int nf, i, found = 0;

	memset(m, 0, sizeof(*m));
	for (; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		n = nl ? (size_t)(nl - line) : strlen(line);
		if (n >= sizeof(buf))
			continue;
		memcpy(buf, line, n);
		buf[n] = 0;
		/* id parent maj:min root mnt opts [optional...] - type src
		 * sopts */
		nf = 0;
		save = NULL;
		for (tok = strtok_r(buf, " ", &save); tok && nf < 16;
		     tok = strtok_r(NULL, " ", &save))
			f[nf++] = tok;
		if (nf < 7)
			continue;
		for (i = 6; i < nf && strcmp(f[i], "-"); i++)
			;
		if (i + 2 >= nf)
			continue;
		unescape(f[4]);
		if (!under(path, f[4]) || strlen(f[4]) < best)
			continue;
		best = strlen(f[4]);
		found = 1;
		memset(m, 0, sizeof(*m));
		snprintf(m->mnt, sizeof(m->mnt), "%s", f[4]);
		snprintf(m->fstype, sizeof(m->fstype), "%s", f[i + 1]);
		unescape(f[i + 2]);
		snprintf(m->source, sizeof(m->source), "%s", f[i + 2]);
		if (i + 3 < nf)
			mount_opts(f[i + 3], m);
		sep = strchr(m->fstype, '4');
		if (!m->vers[0] && sep && !strncmp(m->fstype, "nfs", 3))
			snprintf(m->vers, sizeof(m->vers), "4");
	}
	return found ? 0 : -ENOENT;
}

int nfsio_mount_of(const char *root, const char *path, struct nfsio_mount *m)
{
	static char text[1 << 18];
	char real[4096];
	long r;

	if (!realpath(path, real))
		return -errno;
	r = host_read_file(root, "/proc/self/mountinfo", text, sizeof(text));
	if (r < 0)
		return (int)r;
	return nfsio_mount_parse(text, real, m);
}

/* ---- the engine switch ---- */

int nfsio_open(const struct nfsio_opts *o, struct nfsio **out, char *err,
	       size_t len)
{
	struct nfsio *io;
	int r;

	*out = NULL;
	if (!o->target || !o->reqsize || o->qd < 1 || o->qd > NFSIO_MAX_QD) {
		snprintf(err, len, "nfsio: bad options (target, size or qd)");
		return -EINVAL;
	}
	io = calloc(1, sizeof(*io));
	if (!io)
		return -ENOMEM;
	io->o = *o;
	io->vfd = -1;
	io->target = strdup(o->target);
	io->o.target = io->target;
	io->pat = nfsio_pattern(o->seed);
	if (nfsio_is_url(o->target)) {
#ifdef HAVE_LIBNFS
		io->eng = &nfsio_libnfs_engine;
#else
		snprintf(
			err, len,
			"%s: nfs:// URLs need libnfs, which this build lacks (configure --with-libnfs)",
			o->target);
		nfsio_close(io);
		return -ENOTSUP;
#endif
	} else {
		io->eng = &nfsio_posix_engine;
	}
	if (o->op == NFSIO_READ && o->verify == NFSIO_VERIFY_FILE) {
		io->verify_file = strdup(o->verify_file ? o->verify_file : "");
		io->vfd = open(io->verify_file, O_RDONLY | O_CLOEXEC);
		if (io->vfd < 0) {
			r = -errno;
			snprintf(err, len,
				 "verify: cannot open local copy %s: %s",
				 io->verify_file, strerror(-r));
			nfsio_close(io);
			return r;
		}
		io->vbuf = malloc(o->reqsize);
		if (!io->vbuf) {
			nfsio_close(io);
			return -ENOMEM;
		}
	}
	r = io->eng->open(io, err, len);
	if (r) {
		nfsio_close(io);
		return r;
	}
	*out = io;
	return 0;
}

int nfsio_run(struct nfsio *io, struct nfsio_stats *st, char *err, size_t len)
{
	double t0 = clock_now();
	int r;

	r = io->eng->run(io, err, len);
	io->st.elapsed_s = clock_now() - t0;
	*st = io->st;
	return r;
}

void nfsio_close(struct nfsio *io)
{
	if (!io)
		return;
	if (io->eng && io->priv)
		io->eng->close(io);
	if (io->vfd >= 0)
		close(io->vfd);
	free(io->vbuf);
	free(io->verify_file);
	free(io->target);
	free(io);
}

/* ---- posix: a file under a mounted path (lib/core/mfile) ---- */

struct posix_priv {
	struct mfile f;	    /* the file */
	unsigned char *buf; /* one request, MFILE_ALIGN aligned */
};

static int posix_open(struct nfsio *io, char *err, size_t len)
{
	struct posix_priv *p = calloc(1, sizeof(*p));
	unsigned flags;
	int r;

	if (!p)
		return -ENOMEM;
	io->priv = p;
	p->f.fd = p->f.dfd = -1;
	if (io->o.direct && (io->o.reqsize % 512)) {
		snprintf(
			err, len,
			"O_DIRECT needs an IO size that is a multiple of 512 (not %zu)",
			io->o.reqsize);
		return -EINVAL;
	}
	if (io->o.direct && io->o.op == NFSIO_WRITE && (io->o.size % 512)) {
		snprintf(
			err, len,
			"O_DIRECT writes need a byte count that is a multiple of 512 (not %llu)",
			(unsigned long long)io->o.size);
		return -EINVAL;
	}
	if (posix_memalign((void **)&p->buf, MFILE_ALIGN, io->o.reqsize))
		return -ENOMEM;
	flags = io->o.direct ? MFILE_DIRECT : MFILE_BUFFERED;
	flags |= io->o.op == NFSIO_WRITE
			 ? MFILE_WRITE | MFILE_CREATE | MFILE_TRUNC
			 : MFILE_READ;
	r = mfile_open(&p->f, io->o.target, flags, err, len);
	if (r)
		return r;
	nfsio_set_end(io, p->f.size);
	return 0;
}

/* One request at off: n bytes, or what is left of the file. */
static ssize_t posix_one(struct nfsio *io, uint64_t off, size_t n,
			 const unsigned char **data, char *err, size_t len)
{
	struct posix_priv *p = io->priv;
	ssize_t r;

	*data = p->buf;
	if (io->o.op == NFSIO_WRITE) {
		nfsio_fill(io, p->buf, off, n);
		r = mfile_io(&p->f, 1, io->o.direct, p->buf, n, off, err, len);
		if (r == 0) {
			snprintf(err, len,
				 "write %s at offset %llu: no progress",
				 io->o.target, (unsigned long long)off);
			return -EIO;
		}
		return r;
	}
	/* O_DIRECT wants whole sectors: ask for a full request at the
	 * tail too, EOF makes it short */
	r = mfile_io(&p->f, 0, io->o.direct, p->buf,
		     io->o.direct ? io->o.reqsize : n, off, err, len);
	return r > (ssize_t)n ? (ssize_t)n : r;
}

static int posix_run(struct nfsio *io, char *err, size_t len)
{
	struct posix_priv *p = io->priv;
	int r = nfsio_serial(io, posix_one, err, len);

	if (!r && io->o.op == NFSIO_WRITE)
		r = mfile_sync(&p->f, err, len);
	return r;
}

static void posix_close(struct nfsio *io)
{
	struct posix_priv *p = io->priv;

	mfile_close(&p->f, 0, NULL, 0);
	free(p->buf);
	free(p);
	io->priv = NULL;
}

const struct nfsio_engine nfsio_posix_engine = {
	.name = "posix",
	.open = posix_open,
	.run = posix_run,
	.close = posix_close,
};
