/*
 * p9.h: a 9P2000.L client: message encoder and reply decoder (p9bench/p9.c)
 * and a connection with tags, fids and two payload paths (p9bench/p9_client.c).
 *
 * Every message is size[4] type[1] tag[2] body, little-endian, size
 * counting itself. A reply is checked against the bytes read, against the
 * negotiated msize and against the request it answers before any field is
 * used. Rlerror carries a Linux errno; the client returns it as -errno.
 *
 * Payload paths of Tread/Twrite (chosen per call):
 *   P9_COPY    the reply lands in a message buffer and the payload is
 *              copied to the caller; a write payload is copied into the
 *              message (what Linux v9fs does on every transport but
 *              virtio)
 *   P9_DIRECT  header first, then the payload straight into or out of
 *              the caller's buffer with readv/writev: the userspace
 *              analogue of v9fs zero-copy (virtio only, IO > 1024 bytes)
 *
 * Library code: never prints, never exits; -errno and c->err say why.
 */
#ifndef ZCB_P9_H
#define ZCB_P9_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* Message types (9P2000 and the 9P2000.L additions this client uses). */
enum p9_type {
	P9_RLERROR = 7,
	P9_TLOPEN = 12,
	P9_RLOPEN = 13,
	P9_TLCREATE = 14,
	P9_RLCREATE = 15,
	P9_TGETATTR = 24,
	P9_RGETATTR = 25,
	P9_TUNLINKAT = 76,
	P9_RUNLINKAT = 77,
	P9_TVERSION = 100,
	P9_RVERSION = 101,
	P9_TATTACH = 104,
	P9_RATTACH = 105,
	P9_TFLUSH = 108,
	P9_RFLUSH = 109,
	P9_TWALK = 110,
	P9_RWALK = 111,
	P9_TREAD = 116,
	P9_RREAD = 117,
	P9_TWRITE = 118,
	P9_RWRITE = 119,
	P9_TCLUNK = 120,
	P9_RCLUNK = 121,
	P9_TREMOVE = 122,
	P9_RREMOVE = 123,
};

#define P9_VERSION "9P2000.L"	/* the only dialect spoken */
#define P9_NOTAG 0xffffu	/* tag of Tversion */
#define P9_NOFID 0xffffffffu	/* afid of an unauthenticated Tattach */
#define P9_HDRSZ 7		/* size[4] type[1] tag[2] */
#define P9_IOHDRSZ 24		/* msize - IOHDRSZ = largest I/O count */
#define P9_RIOHDR 11		/* Rread/Rwrite/Rlerror header: hdr + [4] */
#define P9_TIOHDR 23		/* Tread/Twrite: hdr fid[4] off[8] cnt[4] */
#define P9_MAXWELEM 16		/* names in one Twalk */
#define P9_MIN_MSIZE 512	/* smaller server msize is refused */
#define P9_MAX_MSIZE (16u << 20) /* larger proposals are refused */
#define P9_MAXTAGS 64		/* requests in flight on one client */

/* Lopen/Lcreate flags: Linux's generic open(2) values, as on the wire. */
#define P9_DOTL_RDONLY 00000000
#define P9_DOTL_WRONLY 00000001
#define P9_DOTL_RDWR 00000002
#define P9_DOTL_CREATE 00000100
#define P9_DOTL_EXCL 00000200
#define P9_DOTL_TRUNC 00001000

#define P9_GETATTR_BASIC 0x000007ffull /* mode .. blocks */

struct p9_qid {
	uint8_t type;		/* QTDIR 0x80, QTFILE 0 ... */
	uint32_t version;	/* changes with the file */
	uint64_t path;		/* unique per file on the server */
};

struct p9_attr {
	uint64_t valid;		/* which fields the server filled */
	struct p9_qid qid;
	uint32_t mode, uid, gid;
	uint64_t nlink, rdev, size, blksize, blocks;
	uint64_t atime_sec, atime_nsec, mtime_sec, mtime_nsec;
	uint64_t ctime_sec, ctime_nsec, btime_sec, btime_nsec;
	uint64_t gen, data_version;
};

/* ---- encoder (p9bench/p9.c) ---- */

/* A message being built: bytes past cap set overflow, never written. */
struct p9_buf {
	uint8_t *b;		/* the buffer */
	size_t cap;		/* its size */
	size_t len;		/* bytes encoded so far */
	int overflow;		/* 1: something did not fit */
};

/*
 * Each returns the message length, or 0 when it does not fit in cap (or
 * a string is longer than 65535 bytes). Tread/Twrite encode only the
 * 23-byte header; Twrite's size field counts count payload bytes that
 * the caller sends after it (copied behind it, or by writev).
 */
size_t p9_enc_version(uint8_t *b, size_t cap, uint16_t tag, uint32_t msize,
		      const char *version);
size_t p9_enc_attach(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid,
		     uint32_t afid, const char *uname, const char *aname,
		     uint32_t n_uname);
size_t p9_enc_walk(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid,
		   uint32_t newfid, int nwname, const char *const *wname);
size_t p9_enc_lopen(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid,
		    uint32_t flags);
size_t p9_enc_lcreate(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid,
		      const char *name, uint32_t flags, uint32_t mode,
		      uint32_t gid);
size_t p9_enc_getattr(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid,
		      uint64_t mask);
size_t p9_enc_read(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid,
		   uint64_t offset, uint32_t count);
size_t p9_enc_write_hdr(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid,
			uint64_t offset, uint32_t count);
size_t p9_enc_clunk(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid);
size_t p9_enc_remove(uint8_t *b, size_t cap, uint16_t tag, uint32_t fid);
size_t p9_enc_unlinkat(uint8_t *b, size_t cap, uint16_t tag, uint32_t dirfid,
		       const char *name, uint32_t flags);
size_t p9_enc_flush(uint8_t *b, size_t cap, uint16_t tag, uint16_t oldtag);

/* ---- decoder (p9bench/p9.c) ---- */

/* A decoded reply. Pointers point into the decoded bytes. */
struct p9_msg {
	uint32_t size;		/* size field (== bytes decoded) */
	uint8_t type;		/* P9_R* */
	uint16_t tag;
	uint32_t ecode;		/* Rlerror */
	uint32_t msize;		/* Rversion */
	char version[32];	/* Rversion, NUL-terminated */
	struct p9_qid qid;	/* Rattach, Rlopen, Rlcreate */
	uint32_t iounit;	/* Rlopen, Rlcreate */
	uint16_t nwqid;		/* Rwalk */
	struct p9_qid wqid[P9_MAXWELEM];
	struct p9_attr attr;	/* Rgetattr */
	uint32_t count;		/* Rread, Rwrite */
	const uint8_t *data;	/* Rread payload (count bytes) */
};

const char *p9_type_name(uint8_t type); /* "Twrite", "R?" for unknown */

/*
 * Check a message header in b[0..len) (len >= 7): the size field must be
 * at least 7 and at most msize. Fills size, type and tag. 0 or -EBADMSG
 * with err filled.
 */
int p9_hdr(const uint8_t *b, size_t len, uint32_t msize, uint32_t *size,
	   uint8_t *type, uint16_t *tag, char *err, size_t elen);

/*
 * Decode one whole reply b[0..len): size must equal len and fit msize,
 * the type must be a reply this client knows, and every field must lie
 * within the message with nothing left over. 0 or -EBADMSG (err filled).
 * An Rlerror decodes fine (m->ecode); mapping it is the caller's choice.
 */
int p9_decode(const uint8_t *b, size_t len, uint32_t msize, struct p9_msg *m,
	      char *err, size_t elen);

/*
 * Rlerror's ecode as a negative errno: -ecode for 1..4095, else -EIO.
 */
int p9_errno(uint32_t ecode);

/*
 * Check the 11-byte header of an I/O reply (Rread, Rwrite or Rlerror)
 * for a request of `asked` bytes of type treq (P9_TREAD or P9_TWRITE):
 * Rread's size must be 11 + count with count <= asked; Rwrite exactly 11
 * with count <= asked; Rlerror exactly 11. Fills type, tag and count (or
 * ecode for Rlerror). 0 or -EBADMSG.
 */
int p9_iohdr(const uint8_t *h, uint32_t msize, uint8_t treq, uint32_t asked,
	     uint8_t *type, uint16_t *tag, uint32_t *count, char *err,
	     size_t elen);

/* ---- client (p9bench/p9_client.c) ---- */

enum p9_path { P9_COPY = 0, P9_DIRECT = 1 };

struct p9_opts {
	uint32_t msize;		/* proposed (server may answer less) */
	int timeout_ms;		/* each wait for the server; 0 = none */
	volatile sig_atomic_t *stop; /* nonzero: give up with -EINTR */
	int nodelay;		/* TCP_NODELAY (default 1) */
};

/* One completed I/O (p9_io_reap). */
struct p9_done {
	uint16_t tag;
	uint8_t type;		/* P9_TREAD or P9_TWRITE */
	int64_t result;		/* bytes moved, or -errno (Rlerror) */
	uint32_t asked;		/* bytes asked */
	uint64_t cookie;	/* the caller's, from submit */
};

/* What one request in flight waits for. */
struct p9_req {
	int busy;		/* tag in use */
	uint8_t type;		/* T type sent */
	int path;		/* enum p9_path */
	uint8_t *buf;		/* Tread: where the payload goes */
	uint32_t asked;		/* count asked */
	uint64_t cookie;	/* caller's */
};

struct p9_client {
	int fd;			/* the connection */
	char peer[160];		/* "9P server 127.0.0.1:564" for messages */
	struct p9_opts o;
	uint32_t msize;		/* negotiated */
	uint32_t iomax;		/* msize - P9_IOHDRSZ */
	uint8_t *tbuf;		/* one message being sent */
	uint8_t *rbuf;		/* received bytes not yet consumed */
	size_t rcap, roff, rlen; /* rbuf size; consumed; filled */
	struct p9_req req[P9_MAXTAGS];
	int inflight;		/* requests waiting for a reply */
	int ndirect_reads;	/* of those, P9_DIRECT Treads */
	uint32_t next_fid;	/* fids are handed out counting up */
	/* counters */
	uint64_t tx_msgs, rx_msgs; /* messages sent and received */
	uint64_t tx_bytes, rx_bytes; /* on the wire */
	uint64_t copied;	/* payload bytes memcpy'd (copy path) */
	uint64_t splits;	/* I/Os split because > iomax */
	char err[512];		/* why the last call failed */
};

/*
 * Connect to addr: "HOST[:PORT]" (TCP, port 564 by default),
 * "[V6]:PORT", "unix:PATH" or a path starting with '/'. Then Tversion.
 * 0 or -errno (c->err says what and where).
 */
int p9_connect(struct p9_client *c, const char *addr,
	       const struct p9_opts *o);
/* Use an already connected fd (socketpair, tests); takes it over. */
int p9_client_init(struct p9_client *c, int fd, const char *peer,
		   const struct p9_opts *o);
void p9_close(struct p9_client *c);

/* Tversion: msize = min(proposed, server's); fills c->msize, c->iomax. */
int p9_version(struct p9_client *c);
/* A new fid number (not yet used on the server). */
uint32_t p9_fid_new(struct p9_client *c);

int p9_attach(struct p9_client *c, uint32_t fid, const char *uname,
	      const char *aname, uint32_t n_uname, struct p9_qid *qid);
/* Walk fid along names (nwname 0 = clone) to newfid. */
int p9_walk(struct p9_client *c, uint32_t fid, uint32_t newfid, int nwname,
	    const char *const *wname, struct p9_qid *qids);
int p9_lopen(struct p9_client *c, uint32_t fid, uint32_t flags,
	     struct p9_qid *qid, uint32_t *iounit);
/* Create name in the directory fid; fid then stands for the new file. */
int p9_lcreate(struct p9_client *c, uint32_t fid, const char *name,
	       uint32_t flags, uint32_t mode, uint32_t gid,
	       struct p9_qid *qid, uint32_t *iounit);
int p9_getattr(struct p9_client *c, uint32_t fid, uint64_t mask,
	       struct p9_attr *a);
int p9_clunk(struct p9_client *c, uint32_t fid);
/* Remove the file fid stands for; the fid is clunked either way. */
int p9_remove(struct p9_client *c, uint32_t fid);
int p9_unlinkat(struct p9_client *c, uint32_t dirfid, const char *name,
		uint32_t flags);

/*
 * Asynchronous I/O of at most c->iomax bytes: submit sends one Tread or
 * Twrite on a free tag (-EBUSY when P9_MAXTAGS are in flight); reap
 * waits for one reply and fills d. The buffer must stay valid until its
 * reply is reaped. 0 or -errno (transport or protocol failure: the
 * connection is then unusable); an Rlerror is d->result < 0, not a
 * failure of reap.
 */
int p9_io_submit(struct p9_client *c, int write, uint32_t fid, void *buf,
		 uint32_t count, uint64_t offset, int path, uint64_t cookie);
int p9_io_reap(struct p9_client *c, struct p9_done *d);

/*
 * Read or write len bytes at offset, split into I/Os of at most iomax,
 * up to qd of them in flight (qd <= P9_MAXTAGS). Returns the bytes moved
 * (short only at end of file for a read) or -errno (Rlerror's errno, or
 * a transport failure).
 */
int64_t p9_pread(struct p9_client *c, uint32_t fid, void *buf, size_t len,
		 uint64_t offset, int path, int qd);
int64_t p9_pwrite(struct p9_client *c, uint32_t fid, const void *buf,
		  size_t len, uint64_t offset, int path, int qd);

#endif
