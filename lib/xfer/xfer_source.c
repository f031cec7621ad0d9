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

#define XFER_FILL_CHUNK (1u << 20) /* temp source written this much at once */

static int temp_source(struct xfer_source *s, uint64_t size, char *err,
		       size_t len)
{
	const char *dir = getenv("TMPDIR");
	unsigned char *chunk;
	uint64_t off;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
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
	chunk = malloc(XFER_FILL_CHUNK);
	if (!chunk)
		abort();
	for (off = 0; off < size; off += XFER_FILL_CHUNK) {
		size_t n = size - off < XFER_FILL_CHUNK ? size - off :
							 XFER_FILL_CHUNK;

		pattern_fill(&xfer_stream_pattern, chunk, off, n);
		if (pwrite(fd, chunk, n, (off_t)off) != (ssize_t)n) {
			int e = errno ? errno : ENOSPC;

			snprintf(err, len, "writing temp source in %s: %s",
				 dir, strerror(e));
			free(chunk);
			close(fd);
			return -e;
		}
	}
	free(chunk);
	s->fd = fd;
	s->temp = 1;
	return 0;
}

int xfer_source_open(struct xfer_source *s, const char *path, uint64_t size,
		     size_t buflen, size_t align, size_t offset, int hot,
		     char *err, size_t len)
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
		r = temp_source(s, size, err, len);
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
