/*
 * xfer.h: the transfer-method table (fio's io engines, for sockets).
 *
 * A method is one file lib/xfer/xfer_NAME.c that ends with a const struct
 * xfer_ops filled with designated initializers (only the hooks it needs),
 * its flags saying what it can do (the tools test those, never a name);
 * adding one takes that file, one line in the table (lib/xfer/
 * xfer_table.c) and one line in lib/xfer/Makefile.inc. ttcp-sf, zcc and
 * zcs use only this interface; none has a method of its own, and each
 * resolves --method once (xfer_cli_method) and keeps the ops.
 *
 * Send methods move bytes of a struct xfer_source (a file every method
 * sends from, so they all have the same working set) to a connected
 * socket; receive methods consume bytes from a socket. Library code never
 * prints: errors are -errno with x->err filled.
 */
#ifndef ZCB_XFER_H
#define ZCB_XFER_H

#include <jansson.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "pattern.h"

enum xfer_dir { XFER_SEND, XFER_RECV };

/* What every send method sends from. */
struct xfer_source {
	int fd;			/* the source file, open O_RDONLY */
	uint64_t size;		/* its length in bytes (> 0) */
	char path[4096];	/* for messages */
	int temp;		/* 1: made by xfer_source_open, unlinked */
	void *map;		/* mmap of the whole file, or NULL */
	int hot;		/* 1: copy methods send from buf, never
				 * reading the file (a cache-hot buffer) */
	char *buf;		/* user buffer of buflen bytes (aligned as
				 * asked): copy methods read into it */
	size_t buflen;
	size_t align, offset;	/* ttcp -A / -O applied to buf */
	int touch;		/* ttcp -T: touch every byte sent/received */
};

/* One method instance on one socket. */
struct xfer {
	/* the method on its socket */
	const struct xfer_ops *ops;
	void *priv;		/* the method's state (ops->priv_size) */
	int sock;		/* connected socket (not owned) */
	size_t unit;		/* bytes per call (ttcp -l, zcc -b) */
	int timeout_ms;		/* longest wait for progress (30000) */
	char err[256];		/* what failed (a call returned -errno) */
	/* send side */
	struct xfer_source *src; /* the source (recv side: NULL) */
	/* receive side */
	char *rbuf;		/* buffer of unit bytes */
	void *rbuf_alloc;	/* allocation behind rbuf (align/offset) */
	int touch;		/* read every byte (ttcp -T) */
	int verify;		/* check the pattern (below) */
	uint64_t stream_off;	/* bytes seen so far (pattern offset) */
	uint64_t period;	/* the stream repeats every period bytes
				 * (wrap of the source), 0 = not seen */
	uint64_t bad_bytes;	/* pattern mismatches */
	/* counters every method keeps */
	uint64_t calls;		/* system calls or submissions */
	uint64_t bytes;		/* payload moved */
	/* zero-copy accounting (XFER_ZEROCOPY methods) */
	uint64_t zc_sends;	/* send: sends asked to be zero-copy */
	uint64_t zc_completions; /* send: completions (notifications) reaped */
	uint64_t zc_copied;	/* send: of those, flagged "kernel copied" */
	uint64_t rx_mapped;	/* receive: bytes mapped */
	uint64_t rx_copied;	/* receive: bytes copied instead */
};

/* What a method is (struct xfer_ops.flags). */
enum {
	XFER_COPIES = 1 << 0,	  /* copies through user space */
	XFER_HOT_BUF = 1 << 1,	  /* --hot sends from the user buffer (the
				   * stream then repeats every buflen bytes) */
	XFER_ZEROCOPY = 1 << 2,	  /* reports zc_* (send) or rx_*
				   * (receive) counters */
	XFER_SEES_BYTES = 1 << 3, /* receive: the bytes reach user memory,
				   * so x->verify can check them */
	XFER_DGRAM = 1 << 4,	  /* moves datagrams: on a UDP socket each
				   * call is one datagram (ttcp-sf -u) */
	XFER_NONBLOCK = 1 << 5,	  /* works on a non-blocking socket: a call
				   * that can move nothing returns -EAGAIN
				   * at once, so one epoll loop can drive
				   * many sockets (ttcp-sf -P) */
	XFER_PLAIN = 1 << 6,	  /* the plain call of its direction
				   * (write(2), read(2)): what a tool that
				   * moves messages of its own accepts
				   * (ttcp-sf --rr) */
};

struct xfer_ops {
	const char *name;	/* "sendfile", "msg-zerocopy", "read" ... */
	const char *help;	/* one line */
	enum xfer_dir dir;
	unsigned flags;		/* XFER_COPIES | XFER_HOT_BUF ... */
	size_t priv_size;	/* bytes of x->priv, zeroed at open */
	/* 0 when usable here, else -errno with why (kernel, build...) */
	int (*probe)(char *why, size_t len);
	int (*setup)(struct xfer *x);
	/* send: up to len bytes of the source from offset off (off + len <=
	 * src->size); returns bytes taken (>0), or -errno (-EAGAIN on a
	 * non-blocking socket) */
	ssize_t (*send)(struct xfer *x, uint64_t off, size_t len);
	/* recv: up to len bytes; returns bytes consumed, 0 at EOF, -errno */
	ssize_t (*recv)(struct xfer *x, size_t len);
	/* completions: flush=0 reaps what is ready, 1 waits for all
	 * (bounded by timeout_ms); returns 0 or -errno */
	int (*reap)(struct xfer *x, int flush, int timeout_ms);
	void (*teardown)(struct xfer *x);
};

/* The table (lib/xfer/xfer_table.c): NULL-terminated, sends first then
 * receives. */
extern const struct xfer_ops *const xfer_table[];

const struct xfer_ops *xfer_find(const char *name, enum xfer_dir dir);
/* Probe; 0 or -errno with why. */
int xfer_probe(const struct xfer_ops *ops, char *why, size_t len);
/* `--method=help`: the table with every probe's answer. */
void xfer_print_table(FILE *f);
/* Names of one direction, comma-separated, for usage messages. */
const char *xfer_names(enum xfer_dir dir);
#define XFER_EITHER (-1) /* xfer_list: both directions */
/*
 * The methods of direction dir (XFER_SEND, XFER_RECV or XFER_EITHER) that
 * have every one of flags, in the table's order, as words for a message:
 * "write, send and mmap" with conj "and", "read or trunc" with "or"; ""
 * when none has them. Into buf; returns buf.
 */
const char *xfer_list(unsigned flags, int dir, const char *conj, char *buf,
		      size_t len);
/*
 * For a tool's option parser (mains only: it exits, like lib/core/cli):
 * the method called name in direction dir, resolved once. "help" prints
 * the table (xfer_print_table) and exits 0; an unknown name is one line
 * naming opt and the methods there are, exit 2.
 */
const struct xfer_ops *xfer_cli_method(const char *opt, const char *name,
				       enum xfer_dir dir);

/*
 * The source. path NULL: make an unlinked temp file of size bytes in
 * $TMPDIR filled with the pattern; when *stop becomes nonzero meanwhile
 * (stop may be NULL), it stops early with -EINTR, err saying how far it
 * got. path given: open it (size 0 = its length). buflen: the copy
 * buffer; hot: see above. 0 or -errno.
 */
int xfer_source_open(struct xfer_source *s, const char *path, uint64_t size,
		     size_t buflen, size_t align, size_t offset, int hot,
		     volatile sig_atomic_t *stop, char *err, size_t len);
void xfer_source_close(struct xfer_source *s);

/* What temp sources hold and -V verifies: lib/core/pattern.h's hash
 * pattern, whose byte depends only on the stream offset. */
extern const struct pattern xfer_stream_pattern;

/* One method on one socket (lib/xfer/xfer.c). */
struct xfer *xfer_open(const struct xfer_ops *ops, int sock,
		       struct xfer_source *src, size_t unit, char *err,
		       size_t len);
void xfer_close(struct xfer *x);	/* reaps outstanding, tears down */
/* Receive buffer aligned to align (0 = page) plus offset (ttcp -A/-O).
 * 0 or -ENOMEM. */
int xfer_set_rbuf_align(struct xfer *x, size_t align, size_t offset);
/* Where a send stream wraps: src->size, or buflen for a hot buffer. */
uint64_t xfer_period(const struct xfer *x);

/*
 * The stream loops (lib/xfer/xfer_stream.c). Send total bytes starting
 * at source offset off, wrapping around the source, unit bytes per call;
 * stops early when *stop becomes nonzero or the deadline (monotonic
 * seconds, 0 = none) passes. Reaps as it goes and flushes at the end.
 * Returns bytes sent or -errno (x->err says what).
 */
int64_t xfer_send_stream(struct xfer *x, uint64_t off, uint64_t total,
			 double deadline, volatile sig_atomic_t *stop);
/* Receive until EOF, total bytes (0 = until EOF), stop or deadline. */
int64_t xfer_recv_stream(struct xfer *x, uint64_t total, double deadline,
			 volatile sig_atomic_t *stop);

/* What it did. Counters as JSON: calls, bytes, zc_* (when used),
 * bad_bytes. */
json_t *xfer_counters_json(const struct xfer *x);
/* Percentage of zero-copy sends the kernel copied anyway (NAN if none). */
double xfer_zc_copied_pct(const struct xfer *x);
/* "msg-zerocopy: 10 of 10 sends copied by the kernel" for warnings;
 * returns 0 when the method copied nothing (buf then empty). */
int xfer_zc_warning(const struct xfer *x, char *buf, size_t len);
/* Check received bytes against the pattern (what recv methods with
 * x->verify call); exported for tools that receive on their own. */
void xfer_verify_bytes(struct xfer *x, const unsigned char *p, size_t n);

#endif
