/*
 * nfsio.h: the I/O engines of nfsbench, one client's transfer of one file.
 *
 *   libnfs   an nfs:// URL read or written through libnfs (NFSv3 or v4):
 *            the count of each READ/WRITE call is the request size on the
 *            wire (libnfs 4.0 has no rsize option; up to the server's
 *            rtmax/wtmax), synchronous (qd 1) or asynchronous with qd
 *            requests in flight; short replies advance by what came back.
 *            Compiled away without HAVE_LIBNFS.
 *   posix    a path under a mounted file system (the kernel NFS client),
 *            pread/pwrite of the IO size, optionally O_DIRECT.
 *
 * Setup (connect, mount, open) happens in nfsio_open and is not timed;
 * nfsio_run moves the bytes and is. Library code: never prints or exits.
 *
 * The data pattern depends only on the byte offset and a seed, so a file
 * written at one request size verifies when read at any other.
 */
#ifndef ZCB_NFSIO_H
#define ZCB_NFSIO_H

#include <stddef.h>
#include <stdint.h>

#include "pattern.h"

enum nfsio_op { NFSIO_READ, NFSIO_WRITE };

enum nfsio_verify {
	NFSIO_VERIFY_NONE,    /* just move the bytes */
	NFSIO_VERIFY_PATTERN, /* compare with nfsio_pattern's data */
	NFSIO_VERIFY_FILE,    /* compare with a local copy, same offsets */
};

#define NFSIO_SEED   0x4e46534245ull /* default pattern seed ("NFSBE") */
#define NFSIO_MAX_QD 256	     /* requests in flight per client */

struct nfsio_opts {
	const char *target;	  /* nfs:// URL or a file path */
	enum nfsio_op op;	  /* read or write */
	size_t reqsize;		  /* count of each request (the rsize/wsize) */
	int qd;			  /* requests in flight; 1 = one at a time */
	int async;		  /* libnfs async API even at qd 1 */
	int direct;		  /* posix: O_DIRECT */
	int timeout_ms;		  /* libnfs: every RPC (whole seconds) */
	uint64_t size;		  /* write: bytes; read: 0 = to EOF, else max */
	int vers;		  /* libnfs: 0 = the URL's (default 3), 3, 4 */
	enum nfsio_verify verify; /* check what was read */
	const char *verify_file;  /* NFSIO_VERIFY_FILE: the local copy */
	uint64_t seed;		  /* pattern seed (0 = NFSIO_SEED) */
	uint64_t *progress;	  /* -i: bytes also added here, atomically
				   * (shared with other clients); NULL = no */
};

struct nfsio_stats {
	uint64_t bytes;	    /* payload moved */
	uint64_t ops;	    /* requests completed */
	uint64_t short_ops; /* replies with fewer bytes than asked */
	uint64_t verified;  /* bytes compared and equal */
	double elapsed_s;   /* nfsio_run's wall time */
	uint64_t file_size; /* size at open (read) */
	uint64_t readmax;   /* libnfs: server's largest READ (0 = n/a) */
	uint64_t writemax;  /* libnfs: server's largest WRITE */
	int vers;	    /* NFS version used (0 = posix) */
};

struct nfsio;

/* 1 when s is an nfs:// URL (the libnfs engine), else 0 (posix). */
int nfsio_is_url(const char *s);
/* 1 when the libnfs engine is compiled in. */
int nfsio_have_libnfs(void);
/* Which libnfs read API is compiled in: "v2 (caller buffers)", "v1", "". */
const char *nfsio_libnfs_api(void);

/* Connect/mount/open (untimed). 0 or -errno with err naming the phase. */
int nfsio_open(const struct nfsio_opts *o, struct nfsio **out, char *err,
	       size_t len);
/* Move the bytes. 0 or -errno with err naming the phase and offset. */
int nfsio_run(struct nfsio *io, struct nfsio_stats *st, char *err, size_t len);
void nfsio_close(struct nfsio *io);

/* The pattern written and checked (lib/core/pattern.h's MIX64): the
 * seed's infinite file; seed 0 = NFSIO_SEED. */
struct pattern nfsio_pattern(uint64_t seed);

/*
 * URL helpers (no libnfs needed). nfsio_url_version: the "version=" query
 * argument (3 when absent, -EINVAL when not 3 or 4). nfsio_url_suffix:
 * the URL with suffix appended to its file part (before any "?"), for
 * per-client files; 0 or -ENAMETOOLONG.
 */
int nfsio_url_version(const char *url);
int nfsio_url_suffix(const char *url, const char *suffix, char *out,
		     size_t len);

/* Mount facts of the file system holding a path (from mountinfo). */
struct nfsio_mount {
	char fstype[32];   /* "nfs", "nfs4", "tmpfs" ... */
	char source[256];  /* "server:/export" */
	char mnt[512];	   /* mount point */
	long rsize, wsize; /* 0 when not given */
	char vers[16];	   /* "3", "4.2" ... ("" when not NFS) */
	char proto[16];	   /* "tcp", "udp", "rdma" */
};

/*
 * Parse mountinfo text: the entry whose mount point is the longest
 * prefix of path (path must be absolute and resolved). 0 or -ENOENT.
 */
int nfsio_mount_parse(const char *text, const char *path,
		      struct nfsio_mount *m);
/* Read root/proc/self/mountinfo and parse it for path. 0 or -errno. */
int nfsio_mount_of(const char *root, const char *path, struct nfsio_mount *m);

#endif
