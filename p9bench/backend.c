/*
 * backend.c: how p9bench moves bytes. "9p": its own 9P2000.L client over
 * TCP or a unix socket, Tread/Twrite on the copy or the direct path with
 * up to --qd requests in flight. "mounted": pread/pwrite on a file in a
 * mounted directory (v9fs in a guest, or anything), buffered or O_DIRECT.
 *
 * Every file p9bench writes holds bench_pattern, so reads can be checked
 * (--verify) and the file on the server can be inspected.
 */
#include "config.h"
#include "p9bench.h"
#include "clock.h"
#include "ctr.h"
#include "log.h"
#include "mfile.h"
#include "sig.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILL_CHUNK  (1u << 20) /* prefill writes this much per call */
#define CHECK_EVERY 64	       /* ops between deadline/signal checks */

uint64_t bench_region(const struct cfg *cfg, size_t size)
{
	uint64_t want = cfg->file_size;

	if (!cfg->duration) {
		uint64_t ops = cfg->total ? cfg->total / size : cfg->ops;

		if (ops && ops <= cfg->file_size / size)
			want = ops * size;
	}
	want = want / size * size;
	return want ? want : size;
}

void bench_omit_check(struct bench *b, double *t0, double *deadline)
{
	double now;

	if (!b->omit_until || (now = clock_now()) < b->omit_until)
		return;
	b->omit_until = 0;
	b->s.omit_s = now - *t0;
	b->s.omit_bytes = ctr_read(&b->s.bytes);
	b->s.omit_msgs = b->s.msgs;
	if (b->omit_begin)
		b->omit_begin(b);
	*t0 = clock_now();
	if (*deadline > 0)
		*deadline = *t0 + b->cfg->duration;
}

void bench_omit_end(struct bench *b, size_t size)
{
	if (!b->s.omit_s)
		return;
	/* the ops whose bytes came after T: every op is size bytes */
	b->s.omit_ops = b->s.omit_bytes / size;
	b->s.bytes -= b->s.omit_bytes;
	b->s.msgs -= b->s.omit_msgs;
	b->s.ops -= b->s.omit_ops;
}

const struct pattern bench_pattern = {.kind = PATTERN_COUNT, .period = 251};

void bench_buffers(struct bench *b, size_t align)
{
	size_t n = b->size_max > FILL_CHUNK ? b->size_max : FILL_CHUNK;
	int qd = b->cfg->qd;

	b->src_len = n + bench_pattern.period;
	if (posix_memalign((void **)&b->src, align, b->src_len) ||
	    posix_memalign((void **)&b->dst, align, b->slot_len * (size_t)qd))
		die("no memory for %zu-byte buffers", b->src_len);
	pattern_fill(&bench_pattern, b->src, 0, b->src_len);
	memset(b->dst, 0, b->slot_len * (size_t)qd);
}

/* Count bytes of a read that are not the pattern. */
static void verify(struct bench *b, const uint8_t *buf, size_t n, uint64_t off)
{
	b->verify_bad += pattern_count_bad(&bench_pattern, buf, off, n);
}

/* ---- 9P ---- */

/* A process's uid from /proc/PID/status, or -1. */
static long pid_uid(pid_t pid)
{
	char path[64], line[256];
	FILE *f;
	long uid = -1;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %*d %ld", &uid) == 1)
			break;
	fclose(f);
	return uid;
}

/* Has the process exited (gone, or a zombie nobody reaped yet)? */
static int pid_gone(pid_t pid)
{
	char path[64], buf[512], *rp;
	FILE *f;
	size_t n;

	if (kill(pid, 0) && errno == ESRCH)
		return 1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	rp = strrchr(buf, ')');
	return rp && rp[1] == ' ' && (rp[2] == 'Z' || rp[2] == 'X');
}

static void p9_die(struct bench *b, const char *what)
{
	const pid_t pid = b->cfg->server_pid;
	int i;

	/* a killed server closes its sockets while it is still exiting:
	 * give it half a second to become a zombie before judging */
	for (i = 0; pid > 0 && i < 20 && !pid_gone(pid); i++)
		clock_sleep(0.025);
	if (pid > 0 && pid_gone(pid))
		die("%s: %s (server process %d is gone)", what, b->c.err,
		    (int)pid);
	die("%s: %s", what, b->c.err);
}

static void p9_attach_root(struct bench *b)
{
	struct cfg *cfg = b->cfg;
	long uid;
	int r;

	b->rootfid = p9_fid_new(&b->c);
	r = p9_attach(&b->c, b->rootfid, cfg->uname, cfg->aname, cfg->uid,
		      NULL);
	if (r == -EPERM && !cfg->uid_set && cfg->server_pid > 0 &&
	    (uid = pid_uid(cfg->server_pid)) >= 0 && uid != cfg->uid) {
		log_info(
			"attach as uid %u refused; retrying as the server's uid %ld",
			cfg->uid, uid);
		cfg->uid = (uint32_t)uid;
		r = p9_attach(&b->c, b->rootfid, cfg->uname, cfg->aname,
			      cfg->uid, NULL);
	}
	if (r == -EPERM && !cfg->uid_set)
		die("attach: %s (a diod not running as root, or started with -u, accepts only its own uid: give it with --uid, or --server-pid)",
		    b->c.err);
	if (r == -EPERM)
		die("attach: %s (diod also says this for an export it does not serve: is -a %s right?)",
		    b->c.err, cfg->aname);
	if (r)
		p9_die(b, "attach");
}

/* Open (or create) the test file; returns its size. */
static uint64_t p9_open_file(struct bench *b)
{
	struct cfg *cfg = b->cfg;
	const char *name = cfg->file;
	struct p9_attr a;
	int r;

	b->fid = p9_fid_new(&b->c);
	r = p9_walk(&b->c, b->rootfid, b->fid, 1, &name, NULL);
	if (r == -ENOENT && !cfg->no_create) {
		if (p9_walk(&b->c, b->rootfid, b->fid, 0, NULL, NULL))
			p9_die(b, "walk to the export root");
		if (p9_lcreate(&b->c, b->fid, name,
			       P9_DOTL_RDWR | P9_DOTL_CREATE | P9_DOTL_EXCL,
			       0644, (uint32_t)getegid(), NULL, NULL))
			p9_die(b, "create the test file");
		b->created = 1;
		return 0;
	}
	if (r)
		p9_die(b, "walk to the test file");
	if (p9_getattr(&b->c, b->fid, P9_GETATTR_BASIC, &a))
		p9_die(b, "getattr of the test file");
	if ((a.mode & S_IFMT) != S_IFREG)
		die("%s: %s is not a regular file", b->where, name);
	r = p9_lopen(&b->c, b->fid,
		     cfg->ops_mask & OP_WRITE || a.size < b->region_max
			     ? P9_DOTL_RDWR
			     : P9_DOTL_RDONLY,
		     NULL, NULL);
	if (r)
		p9_die(b, "open the test file");
	return a.size;
}

/* Doubling from min to max; max itself ends the list. */
static void doubling(struct cfg *cfg, size_t min, size_t max)
{
	size_t s;

	cfg->nsizes = 0;
	for (s = min; s < max && cfg->nsizes < MAX_SIZES - 1; s *= 2)
		cfg->sizes[cfg->nsizes++] = s;
	cfg->sizes[cfg->nsizes++] = max;
}

/* "max" is msize - 24 (iomax); check sizes against the file. */
static void resolve_sizes(struct bench *b, size_t iomax)
{
	struct cfg *cfg = b->cfg;
	int i;

	if (!cfg->nsizes)
		doubling(cfg, cfg->min_size,
			 cfg->max_size == SIZE_MAX_IO ? iomax : cfg->max_size);
	b->size_max = 0;
	for (i = 0; i < cfg->nsizes; i++) {
		if (cfg->sizes[i] == SIZE_MAX_IO)
			cfg->sizes[i] = iomax;
		if (cfg->sizes[i] > iomax)
			log_info(
				"IO size %zu > msize - 24 = %zu: each operation is split into %zu messages",
				cfg->sizes[i], iomax,
				(cfg->sizes[i] + iomax - 1) / iomax);
		if (cfg->sizes[i] > b->size_max)
			b->size_max = cfg->sizes[i];
		if (cfg->sizes[i] > cfg->file_size)
			die_usage(
				"--file-size %llu is smaller than IO size %zu",
				(unsigned long long)cfg->file_size,
				cfg->sizes[i]);
	}
	b->region_max = 0;
	for (i = 0; i < cfg->nsizes; i++)
		if (bench_region(cfg, cfg->sizes[i]) > b->region_max)
			b->region_max = bench_region(cfg, cfg->sizes[i]);
}

static void p9_open(struct bench *b)
{
	struct cfg *cfg = b->cfg;
	struct p9_opts o = {.msize = cfg->msize,
			    .timeout_ms = (int)(cfg->timeout * 1000),
			    .stop = &sig_stop,
			    .nodelay = 1};
	uint64_t size, off;
	int64_t n;

	b->phase = "connect";
	if (p9_connect(&b->c, cfg->server, &o))
		die("connect: %s", b->c.err);
	snprintf(b->where, sizeof(b->where), "%s", b->c.peer);
	log_verbose("%s: msize %u (proposed %u), largest I/O %u", b->where,
		    b->c.msize, cfg->msize, b->c.iomax);
	resolve_sizes(b, b->c.iomax);
	p9_attach_root(b);
	size = p9_open_file(b);
	if (cfg->no_create && (cfg->ops_mask & OP_READ) && size < b->region_max)
		die("%s: %s has %llu bytes, the sweep reads %llu (lower --file-size or --ops)",
		    b->where, cfg->file, (unsigned long long)size,
		    (unsigned long long)b->region_max);
	b->slot_len = b->size_max < b->c.iomax ? b->size_max : b->c.iomax;
	bench_buffers(b, 64);
	b->verify_ok = 1;
	if (!(cfg->ops_mask & OP_READ) || size >= b->region_max)
		return;
	log_verbose("filling %llu bytes of %s",
		    (unsigned long long)b->region_max, cfg->file);
	for (off = 0; off < b->region_max; off += FILL_CHUNK) {
		size_t len = b->region_max - off < FILL_CHUNK
				     ? b->region_max - off
				     : FILL_CHUNK;

		n = p9_pwrite(&b->c, b->fid, bench_src(b, off), len, off,
			      P9_DIRECT, 4);
		if (n == -EINTR)
			return; /* the sweep sees sig_stop */
		if (n != (int64_t)len)
			p9_die(b, "fill the test file");
	}
}

static void p9_complete(struct bench *b, const struct p9_done *d, uint64_t off)
{
	if (d->result < 0)
		die("%s: %s: %s at offset %llu: %s (Rlerror)", b->phase,
		    b->where, d->type == P9_TWRITE ? "Twrite" : "Tread",
		    (unsigned long long)off, strerror((int)-d->result));
	if ((uint64_t)d->result != d->asked)
		die("%s: %s: %s of %u bytes at offset %llu moved %lld",
		    b->phase, b->where,
		    d->type == P9_TWRITE ? "Twrite" : "Tread", d->asked,
		    (unsigned long long)off, (long long)d->result);
	if (b->cfg->verify && b->verify_ok && d->type == P9_TREAD)
		verify(b, b->dst + d->cookie * b->slot_len, d->asked, off);
	ctr_add(&b->s.bytes, d->asked);
	b->s.msgs++;
}

static int p9_run(struct bench *b, int write, size_t size, int path,
		  uint64_t ops, double deadline)
{
	const uint64_t region = bench_region(b->cfg, size);
	const size_t iomax = b->c.iomax;
	uint64_t slot_off[P9_MAXTAGS], op_off = 0, nop = 0;
	int free_slot[P9_MAXTAGS], nfree = b->cfg->qd, i, r, more = ops > 0;
	size_t k = 0; /* bytes of the current op submitted */
	struct p9_done d;
	double t0;

	for (i = 0; i < nfree; i++)
		free_slot[i] = i;
	t0 = clock_now();
	for (;;) {
		while (more && nfree) {
			uint64_t off = op_off + k;
			size_t n = size - k < iomax ? size - k : iomax;
			int slot = free_slot[--nfree];
			uint8_t *buf =
				write ? bench_src(b, off)
				      : b->dst + (size_t)slot * b->slot_len;

			slot_off[slot] = off;
			r = p9_io_submit(&b->c, write, b->fid, buf, (uint32_t)n,
					 off, path, (uint64_t)slot);
			if (r == -EINTR) {
				free_slot[nfree++] = slot;
				more = 0;
				break;
			}
			if (r)
				p9_die(b, b->phase);
			k += n;
			if (k < size)
				continue;
			k = 0;
			op_off = op_off + size >= region ? 0 : op_off + size;
			nop++;
			more = nop < ops && !sig_stop;
			if (nop % CHECK_EVERY == 0)
				bench_omit_check(b, &t0, &deadline);
			if (more && deadline > 0 && nop % CHECK_EVERY == 0)
				more = clock_now() < deadline;
		}
		if (!b->c.inflight)
			break;
		r = p9_io_reap(&b->c, &d);
		if (r == -EINTR) { /* signalled: stop, then drain */
			more = 0;
			continue;
		}
		if (r)
			p9_die(b, b->phase);
		p9_complete(b, &d, slot_off[d.cookie]);
		free_slot[nfree++] = (int)d.cookie;
	}
	b->s.elapsed = clock_now() - t0;
	b->s.ops = nop;
	return sig_stop ? -EINTR : 0;
}

static void p9_bk_close(struct bench *b)
{
	const char *name = b->cfg->file;

	if (b->c.fd < 0)
		return;
	if (b->created && !b->cfg->keep) {
		/* Tremove clunks the fid even when it fails */
		if (p9_remove(&b->c, b->fid) &&
		    p9_unlinkat(&b->c, b->rootfid, name, 0))
			log_warn("could not remove the test file: %s",
				 b->c.err);
	} else if (b->fid) {
		p9_clunk(&b->c, b->fid);
	}
	if (b->rootfid)
		p9_clunk(&b->c, b->rootfid);
	p9_close(&b->c);
}

const struct bk_ops bk_9p = {
	.mode = "9p",
	.path_name = {"copy", "direct"},
	.col_name = {"No ZC", "ZC"},
	.open = p9_open,
	.run = p9_run,
	.close = p9_bk_close,
};

/* ---- mounted (lib/core/mfile) ---- */

static void m_open(struct bench *b)
{
	struct cfg *cfg = b->cfg;
	char path[4096], err[4300];
	unsigned flags = MFILE_READ | MFILE_WRITE | MFILE_BUFFERED;

	snprintf(b->where, sizeof(b->where), "%s", cfg->mount);
	snprintf(path, sizeof(path), "%s/%s", cfg->mount, cfg->file);
	resolve_sizes(b, (size_t)1 << 30);
	flags |= cfg->no_create ? 0 : MFILE_CREATE;
	flags |= cfg->paths & 2 ? MFILE_DIRECT : 0;
	if (mfile_open(&b->mf, path, flags, err, sizeof(err)))
		die("%s: %s", b->where, err);
	if (cfg->no_create && (cfg->ops_mask & OP_READ) &&
	    b->mf.size < b->region_max)
		die("%s: %s has %llu bytes, the sweep reads %llu (lower --file-size or --ops)",
		    b->where, path, (unsigned long long)b->mf.size,
		    (unsigned long long)b->region_max);
	b->slot_len =
		(b->size_max + MFILE_ALIGN - 1) / MFILE_ALIGN * MFILE_ALIGN;
	bench_buffers(b, MFILE_ALIGN);
	b->verify_ok = 1;
	if (!(cfg->ops_mask & OP_READ) || b->mf.size >= b->region_max)
		return;
	if (mfile_fill(&b->mf, &bench_pattern, b->region_max, err, sizeof(err)))
		die("%s: fill: %s", b->where, err);
}

static int m_run(struct bench *b, int write, size_t size, int path,
		 uint64_t ops, double deadline)
{
	const uint64_t region = bench_region(b->cfg, size);
	uint64_t off = 0, nop = 0;
	uint8_t *wbuf = b->dst; /* O_DIRECT needs an aligned buffer */
	char err[4300];
	double t0;
	ssize_t n;

	if (path && write) {
		memcpy(wbuf, b->src, size);
		b->verify_ok = 0; /* aligned buffer: not the pattern */
	}
	t0 = clock_now();
	while (nop < ops && !sig_stop) {
		n = mfile_io(&b->mf, write, path,
			     !write ? b->dst
			     : path ? wbuf
				    : bench_src(b, off),
			     size, off, err, sizeof(err));
		if (n < 0)
			die("%s: %s", b->phase, err);
		if (n != (ssize_t)size)
			die("%s: %s %zu bytes at offset %llu of %s moved %zd",
			    b->phase, write ? "pwrite" : "pread", size,
			    (unsigned long long)off, b->mf.path, n);
		if (!write && b->cfg->verify && b->verify_ok)
			verify(b, b->dst, size, off);
		ctr_add(&b->s.bytes, size);
		b->s.msgs++;
		off = off + size >= region ? 0 : off + size;
		nop++;
		if (nop % CHECK_EVERY == 0)
			bench_omit_check(b, &t0, &deadline);
		if (deadline > 0 && nop % CHECK_EVERY == 0 &&
		    clock_now() >= deadline)
			break;
	}
	b->s.elapsed = clock_now() - t0;
	b->s.ops = nop;
	return sig_stop ? -EINTR : 0;
}

static void m_close(struct bench *b)
{
	char err[4300];

	if (mfile_close(&b->mf, !b->cfg->keep, err, sizeof(err)))
		log_warn("%s", err);
}

const struct bk_ops bk_mounted = {
	.mode = "mounted",
	.path_name = {"buffered", "odirect"},
	.col_name = {"buffered", "O_DIRECT"},
	.open = m_open,
	.run = m_run,
	.close = m_close,
};
