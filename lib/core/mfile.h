/*
 * mfile.h: a file on a mounted file system, read and written with
 * pread/pwrite, buffered or O_DIRECT: the mounted mode of p9bench (v9fs
 * in a guest) and of nfsbench (the kernel NFS client). One file may be
 * open both ways at once (p9bench's buffered and O_DIRECT columns).
 *
 * Library code: 0 or -errno with a message naming the call, the path,
 * the offset and O_DIRECT where it applies; never prints or exits.
 */
#ifndef ZCB_MFILE_H
#define ZCB_MFILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pattern.h"

#define MFILE_ALIGN 4096 /* buffers for O_DIRECT: aligned to this */

enum {
	MFILE_READ = 1 << 0,	 /* open for reading */
	MFILE_WRITE = 1 << 1,	 /* open for writing */
	MFILE_CREATE = 1 << 2,	 /* make it when missing (0644) */
	MFILE_TRUNC = 1 << 3,	 /* empty it */
	MFILE_BUFFERED = 1 << 4, /* a buffered descriptor */
	MFILE_DIRECT = 1 << 5,	 /* an O_DIRECT one */
};

struct mfile {
	char path[4096];
	int fd;	       /* buffered; -1 when not asked for */
	int dfd;       /* O_DIRECT; -1 when not asked for */
	uint64_t size; /* bytes at open */
	int created;   /* open made the file */
};

/* Open path as flags say (MFILE_*, at least one of BUFFERED and DIRECT).
 * 0 or -errno; f is closed again on failure. */
int mfile_open(struct mfile *f, const char *path, unsigned flags, char *err,
	       size_t len);
/*
 * One pread (write 0) or pwrite of n bytes at off, on the O_DIRECT
 * descriptor when direct; retried when a signal interrupts it. The bytes
 * moved (short at the end of the file), or -errno.
 */
ssize_t mfile_io(struct mfile *f, int write, int direct, void *buf, size_t n,
		 uint64_t off, char *err, size_t len);
/* Write the pattern over [0, end) (buffered), then fsync. 0 or -errno. */
int mfile_fill(struct mfile *f, const struct pattern *p, uint64_t end,
	       char *err, size_t len);
/* fsync. 0 or -errno. */
int mfile_sync(struct mfile *f, char *err, size_t len);
/* Close both descriptors; with remove, unlink a file open made. 0, or
 * -errno when the unlink failed. */
int mfile_close(struct mfile *f, int remove, char *err, size_t len);

#endif
