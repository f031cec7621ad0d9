/* nfsio_int.h: what nfsio.c and its engines share (not for tools). */
#ifndef ZCB_NFSIO_INT_H
#define ZCB_NFSIO_INT_H

#include "nfsio.h"

#include <sys/types.h>

struct nfsio_engine {
	const char *name;
	int (*open)(struct nfsio *io, char *err, size_t len);
	int (*run)(struct nfsio *io, char *err, size_t len);
	void (*close)(struct nfsio *io);
};

/* n more bytes moved: the stats, and the -i counter when there is one. */
#define nfsio_count(io, n)                                                  \
	do {                                                                 \
		(io)->st.bytes += (n);                                       \
		if ((io)->o.progress)                                        \
			__atomic_fetch_add((io)->o.progress, (uint64_t)(n),   \
					   __ATOMIC_RELAXED);                \
	} while (0)

struct nfsio {
	const struct nfsio_engine *eng;
	struct nfsio_opts o;   /* copy of the caller's options */
	struct pattern pat;    /* what is written and checked */
	char *target;	       /* owned copy of o.target */
	char *verify_file;     /* owned copy of o.verify_file */
	int vfd;	       /* the local copy for NFSIO_VERIFY_FILE */
	unsigned char *vbuf;   /* its bytes, one request */
	uint64_t end;	       /* offset where the transfer stops */
	struct nfsio_stats st; /* filled as we go */
	void *priv;	       /* the engine's state */
};

extern const struct nfsio_engine nfsio_posix_engine;
#ifdef HAVE_LIBNFS
extern const struct nfsio_engine nfsio_libnfs_engine;
#endif

/* Compare len bytes read at off with what they should be. 0 or -EILSEQ. */
int nfsio_verify(struct nfsio *io, const void *buf, uint64_t off, size_t len,
		 char *err, size_t elen);
/* The file was file_size bytes at open: where the transfer ends (write:
 * o.size; read: the file, or o.size when that is less). */
void nfsio_set_end(struct nfsio *io, uint64_t file_size);
/*
 * One request of an engine that moves one at a time: n bytes at off,
 * written from or read into the engine's buffer (*data, for checking).
 * Bytes moved (0: the file ended), or -errno with err.
 */
typedef ssize_t (*nfsio_one_fn)(struct nfsio *io, uint64_t off, size_t n,
				const unsigned char **data, char *err,
				size_t len);
/* Such an engine's transfer: request after request up to io->end,
 * checking reads and counting as it goes. 0 or -errno with err. */
int nfsio_serial(struct nfsio *io, nfsio_one_fn one, char *err, size_t len);
/* The bytes to write at off (the pattern). */
void nfsio_fill(struct nfsio *io, void *buf, uint64_t off, size_t len);

#endif
