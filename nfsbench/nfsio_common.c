/*
 * nfsio_common.c: what nfsbench's I/O engines share: the data pattern
 * written and its check (or a local copy's), the loop of an engine that
 * moves one request at a time, where a transfer ends, and nfs:// URLs.
 */
#include "config.h"
#include "nfsio_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int nfsio_is_url(const char *s)
{
	return s && !strncmp(s, "nfs://", 6);
}

/* ---- the pattern ---- */

struct pattern nfsio_pattern(uint64_t seed)
{
	struct pattern p = {.kind = PATTERN_MIX64,
			    .seed = seed ? seed : NFSIO_SEED};

	return p;
}

void nfsio_fill(struct nfsio *io, void *buf, uint64_t off, size_t len)
{
	pattern_fill(&io->pat, buf, off, len);
}

int nfsio_verify(struct nfsio *io, const void *buf, uint64_t off, size_t len,
		 char *err, size_t elen)
{
	const unsigned char *p = buf;
	ssize_t r;
	size_t i;
	long bad;

	switch (io->o.verify) {
	case NFSIO_VERIFY_NONE:
		return 0;
	case NFSIO_VERIFY_PATTERN:
		bad = pattern_check(&io->pat, buf, off, len);
		if (bad >= 0) {
			snprintf(
				err, elen,
				"verify: data differs from the pattern at offset %llu (reply of %zu bytes at %llu)",
				(unsigned long long)(off + (uint64_t)bad), len,
				(unsigned long long)off);
			return -EILSEQ;
		}
		break;
	case NFSIO_VERIFY_FILE:
		r = pread(io->vfd, io->vbuf, len, (off_t)off);
		if (r != (ssize_t)len) {
			snprintf(
				err, elen,
				"verify: local copy %s has no %zu bytes at offset %llu",
				io->verify_file, len, (unsigned long long)off);
			return -EILSEQ;
		}
		if (memcmp(io->vbuf, buf, len)) {
			for (i = 0; i < len && io->vbuf[i] == p[i]; i++)
				;
			snprintf(err, elen,
				 "verify: data differs from %s at offset %llu",
				 io->verify_file,
				 (unsigned long long)(off + i));
			return -EILSEQ;
		}
		break;
	}
	io->st.verified += len;
	return 0;
}

void nfsio_set_end(struct nfsio *io, uint64_t file_size)
{
	io->st.file_size = file_size;
	if (io->o.op == NFSIO_WRITE)
		io->end = io->o.size;
	else
		io->end = io->o.size && io->o.size < file_size ? io->o.size
							       : file_size;
}

int nfsio_serial(struct nfsio *io, nfsio_one_fn one, char *err, size_t len)
{
	const unsigned char *data;
	uint64_t off = 0;
	size_t n;
	ssize_t r;

	while (off < io->end) {
		n = io->end - off < io->o.reqsize ? (size_t)(io->end - off)
						  : io->o.reqsize;
		r = one(io, off, n, &data, err, len);
		if (r < 0)
			return (int)r;
		if (r == 0)
			break; /* the file got shorter: stop at EOF */
		if (io->o.op == NFSIO_READ &&
		    nfsio_verify(io, data, off, (size_t)r, err, len))
			return -EILSEQ;
		io->st.ops++;
		if ((size_t)r < n)
			io->st.short_ops++;
		nfsio_count(io, (uint64_t)r);
		off += (uint64_t)r;
	}
	return 0;
}

/* ---- URLs ---- */

int nfsio_url_version(const char *url)
{
	const char *q = strchr(url, '?'), *p;

	if (!q)
		return 3;
	for (p = q + 1; p && *p; p = strchr(p, '&') ? strchr(p, '&') + 1 : NULL)
		if (!strncmp(p, "version=", 8)) {
			if (p[8] == '3' && (!p[9] || p[9] == '&'))
				return 3;
			if (p[8] == '4' && (!p[9] || p[9] == '&'))
				return 4;
			return -EINVAL;
		}
	return 3;
}

int nfsio_url_suffix(const char *url, const char *suffix, char *out, size_t len)
{
	const char *q = strchr(url, '?');
	size_t head = q ? (size_t)(q - url) : strlen(url);
	int n;

	n = snprintf(out, len, "%.*s%s%s", (int)head, url, suffix, q ? q : "");
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
