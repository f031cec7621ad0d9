/*
 * xfer_source.c: the source every send method sends from (the file, or a
 * temp file of the pattern; its mmap and the copy buffer), and the bytes
 * of it that copy and map methods hand to the kernel.
 */
#include "config.h"
#include "xfer_int.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The temp source repeats one block: PATTERN_HASH's byte at o depends on
 * o mod 2 MiB only (bits 13-20 of o * 2654435761, and the low bits of a
 * product depend only on the factors' low bits; bits 9-16 of o), so a
 * block of 2 MiB made once is written again and again. The fill then
 * costs only the copies into the page cache: 256 MiB took 0.3-0.8 s
 * on the 2-CPU development VM when every chunk was computed, 0.07-0.13
 * s this way (tests/unit/test_xfer.c checks every byte of a source
 * against the pattern).
 */
#define XFER_FILL_BLOCK (2u << 20)

/* The unlinked file in dir, its fd in s->fd; 0 or -errno. */
static int temp_file(struct xfer_source *s, const char *dir, char *err,
		     size_t len)
{
	int fd;

	snprintf(s->path, sizeof(s->path), "%s/zcb-xfer.XXXXXX", dir);
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		fd = mkostemp(s->path, O_CLOEXEC);
		if (fd < 0) {
			snprintf(err, len, "temp source in %s: %s", dir,
				 strerror(errno));
			return -errno;
		}
		unlink(s->path);
	} else {
		snprintf(s->path, sizeof(s->path), "%s/(unlinked temp file)",
			 dir);
	}
	s->fd = fd;
	return 0;
}

static int temp_source(struct xfer_source *s, uint64_t size,
		       volatile sig_atomic_t *stop, char *err, size_t len)
{
	const char *dir = getenv("TMPDIR");
	unsigned char *block;
	uint64_t off;
	int e = 0;

	if (!dir || !*dir)
		dir = "/tmp";
	e = temp_file(s, dir, err, len);
	if (e)
		return e;
	block = malloc(XFER_FILL_BLOCK);
	if (!block)
		abort();
	pattern_fill(&xfer_stream_pattern, block, 0, XFER_FILL_BLOCK);
	for (off = 0; off < size && !e; off += XFER_FILL_BLOCK) {
		size_t n = size - off < XFER_FILL_BLOCK ? size - off :
							 XFER_FILL_BLOCK;

		if (stop && *stop) {
			snprintf(err, len, "making the temp source in %s: stopped by a signal after %llu of %llu bytes",
				 dir, (unsigned long long)off,
				 (unsigned long long)size);
			e = -EINTR;
		} else if (pwrite(s->fd, block, n, (off_t)off) != (ssize_t)n) {
			e = -(errno ? errno : ENOSPC);
			snprintf(err, len, "writing temp source in %s: %s",
				 dir, strerror(-e));
		}
	}
	free(block);
	if (e) {
		close(s->fd);
		s->fd = -1;
		return e;
	}
	s->temp = 1;
	return 0;
}

int xfer_source_open(struct xfer_source *s, const char *path, uint64_t size,
		     size_t buflen, size_t align, size_t offset, int hot,
		     volatile sig_atomic_t *stop, char *err, size_t len)
{
	struct stat st;
	void *base;
	int r;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (!buflen) {
		snprintf(err, len, "source: buffer length 0");
		return -EINVAL;
	}
	if (path) {
		snprintf(s->path, sizeof(s->path), "%s", path);
		s->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (s->fd < 0 || fstat(s->fd, &st)) {
			r = -errno;
			snprintf(err, len, "source %s: %s", path,
				 strerror(errno));
			xfer_source_close(s);
			return r;
		}
		if (!size || size > (uint64_t)st.st_size)
			size = (uint64_t)st.st_size;
	} else {
		if (!size)
			size = 256ull << 20;
		r = temp_source(s, size, stop, err, len);
		if (r)
			return r;
	}
	if (!size) {
		snprintf(err, len, "source %s is empty", s->path);
		xfer_source_close(s);
		return -EINVAL;
	}
	s->size = size;
	s->map = mmap(NULL, size, PROT_READ, MAP_SHARED, s->fd, 0);
	if (s->map == MAP_FAILED) {
		r = -errno;
		snprintf(err, len, "mmap of source %s: %s", s->path,
			 strerror(errno));
		s->map = NULL;
		xfer_source_close(s);
		return r;
	}
	r = xfer_alloc_buf(&s->buf, &base, buflen, align, offset);
	if (r) {
		snprintf(err, len, "source buffer: %s",
			 r == -EINVAL ? "alignment not a power of two" :
					"out of memory");
		xfer_source_close(s);
		return r;
	}
	s->buflen = buflen;
	s->align = align;
	s->offset = offset;
	s->hot = hot;
	if (hot) { /* the buffer holds the source's first buflen bytes */
		uint64_t k;

		for (k = 0; k < buflen; k++)
			s->buf[k] = ((const char *)s->map)[k % size];
	}
	return 0;
}

void xfer_source_close(struct xfer_source *s)
{
	if (s->buf)
		free(s->buf - s->offset);
	if (s->map)
		munmap(s->map, s->size);
	if (s->fd >= 0)
		close(s->fd);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

const void *xfer_user_data(struct xfer *x, uint64_t off, size_t *len,
			   int *errp)
{
	struct xfer_source *s = x->src;
	ssize_t r;

	if (*len > s->buflen)
		*len = s->buflen;
	if (s->hot) {
		if (off >= s->buflen)
			off %= s->buflen;
		if (*len > s->buflen - off)
			*len = s->buflen - off;
		if (s->touch)
			xfer_touch_bytes(s->buf + off, *len);
		return s->buf + off;
	}
	r = pread(s->fd, s->buf, *len, (off_t)off);
	if (r <= 0) {
		*errp = xfer_fail(x, r < 0 ? errno : EIO,
				  "reading the source %s at %llu", s->path,
				  (unsigned long long)off);
		return NULL;
	}
	*len = (size_t)r;
	if (s->touch)
		xfer_touch_bytes(s->buf, *len);
	return s->buf;
}

const void *xfer_map_data(struct xfer *x, uint64_t off, size_t len)
{
	struct xfer_source *s = x->src;

	if (s->hot && (x->ops->flags & XFER_HOT_BUF))
		return s->buf + off % s->buflen;
	if (s->touch)
		xfer_touch_bytes((const char *)s->map + off, len);
	return (const char *)s->map + off;
}
