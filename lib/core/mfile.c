/*
 * mfile.c: a file on a mounted file system, pread/pwrite, buffered or
 * O_DIRECT (see mfile.h): p9bench's and nfsbench's mounted modes.
 */
#include "config.h"
#include "mfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILL_CHUNK (1u << 20) /* mfile_fill writes this much a call */

/* One descriptor; the first one a file gets creates and empties it. */
static int open_one(struct mfile *f, int direct, int oflags, char *err,
		    size_t len)
{
	int fd, e;

	oflags |= O_CLOEXEC | (direct ? O_DIRECT : 0);
	fd = open(f->path, oflags | ((oflags & O_CREAT) ? O_EXCL : 0), 0644);
	if (fd >= 0 && (oflags & O_CREAT))
		f->created = 1;
	else if (fd < 0 && errno == EEXIST)
		fd = open(f->path, oflags, 0644);
	if (fd >= 0)
		return fd;
	e = errno;
	if (direct)
		snprintf(err, len, "O_DIRECT open of %s: %s%s", f->path,
			 strerror(e),
			 e == EINVAL ? " (not supported by this file system?)"
				     : "");
	else
		snprintf(err, len, "open %s: %s", f->path, strerror(e));
	return -e;
}

int mfile_open(struct mfile *f, const char *path, unsigned flags, char *err,
	       size_t len)
{
	int acc = O_RDONLY, first, r;
	struct stat st;

	memset(f, 0, sizeof(*f));
	f->fd = f->dfd = -1;
	snprintf(f->path, sizeof(f->path), "%s", path);
	if (flags & MFILE_WRITE)
		acc = flags & MFILE_READ ? O_RDWR : O_WRONLY;
	first = acc | (flags & MFILE_CREATE ? O_CREAT : 0) |
		(flags & MFILE_TRUNC ? O_TRUNC : 0);
	if (flags & MFILE_BUFFERED) {
		r = f->fd = open_one(f, 0, first, err, len);
		first = acc;
		if (r < 0)
			goto fail;
	}
	if (flags & MFILE_DIRECT) {
		r = f->dfd = open_one(f, 1, first, err, len);
		if (r < 0)
			goto fail;
	}
	if (fstat(f->fd >= 0 ? f->fd : f->dfd, &st)) {
		r = -errno;
		snprintf(err, len, "stat %s: %s", f->path, strerror(-r));
		goto fail;
	}
	f->size = (uint64_t)st.st_size;
	return 0;
fail:
	mfile_close(f, 1, NULL, 0);
	return r;
}

ssize_t mfile_io(struct mfile *f, int write, int direct, void *buf, size_t n,
		 uint64_t off, char *err, size_t len)
{
	int fd = direct ? f->dfd : f->fd, e;
	ssize_t r;

	do
		r = write ? pwrite(fd, buf, n, (off_t)off)
			  : pread(fd, buf, n, (off_t)off);
	while (r < 0 && errno == EINTR);
	if (r >= 0)
		return r;
	e = errno;
	snprintf(err, len, "%s %zu bytes at offset %llu of %s%s: %s",
		 write ? "pwrite" : "pread", n, (unsigned long long)off,
		 f->path, direct ? " (O_DIRECT)" : "", strerror(e));
	return -e;
}

int mfile_fill(struct mfile *f, const struct pattern *p, uint64_t end,
	       char *err, size_t len)
{
	uint8_t *chunk = malloc(FILL_CHUNK);
	uint64_t off;
	ssize_t r = 0;
	size_t n;

	if (!chunk)
		return -ENOMEM;
	for (off = 0; off < end && r >= 0; off += n) {
		n = end - off < FILL_CHUNK ? (size_t)(end - off) : FILL_CHUNK;
		pattern_fill(p, chunk, off, n);
		r = mfile_io(f, 1, 0, chunk, n, off, err, len);
		if (r >= 0 && (size_t)r != n) {
			snprintf(
				err, len,
				"pwrite %zu bytes at offset %llu of %s moved %zd",
				n, (unsigned long long)off, f->path, r);
			r = -ENOSPC;
		}
	}
	free(chunk);
	return r < 0 ? (int)r : mfile_sync(f, err, len);
}

int mfile_sync(struct mfile *f, char *err, size_t len)
{
	int e;

	if (!fsync(f->fd >= 0 ? f->fd : f->dfd))
		return 0;
	e = errno;
	snprintf(err, len, "fsync %s: %s", f->path, strerror(e));
	return -e;
}

int mfile_close(struct mfile *f, int remove, char *err, size_t len)
{
	int e;

	if (f->dfd >= 0)
		close(f->dfd);
	if (f->fd >= 0)
		close(f->fd);
	f->fd = f->dfd = -1;
	if (!remove || !f->created)
		return 0;
	f->created = 0;
	if (!unlink(f->path))
		return 0;
	e = errno;
	if (err)
		snprintf(err, len, "could not remove %s: %s", f->path,
			 strerror(e));
	return -e;
}
