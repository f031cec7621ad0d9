/*
 * zcwire.h: the zcs/zcc wire format (Andrew Morton's, 2001), and our
 * opt-in extension.
 *
 * The original stream, client to server, every integer a u32 in network
 * byte order, no terminator:
 *
 *   nloops
 *   nloops times:  nfiles
 *                  nfiles times:  length, then length bytes of the file
 *
 * The server never writes a byte. Our extension (zcc -C against zcs) puts
 * a hello in front: u32 ZCW_MAGIC, u32 version, u32 flags. As an original
 * loop count the magic would be 1.5 billion loops, which zcs refuses
 * anyway (--max-loops). zcs answers a hello with the same three words
 * (flags = what it grants) followed by a lib/wire/peerrep frame describing
 * itself; when it granted ZCW_F_CPU it sends a second peerrep frame with
 * its CPU figures after the last byte of the stream. An original peer
 * never sees any of it: zcc sends the hello only when asked (-C).
 *
 * Paired runs (lib/cpu/meter.h): with the soak meter on either side, zcc runs
 * in pairs, a metered run (soakers on) then an unmetered one (every
 * soaker of the box parked), and its hello's flags say which run the
 * connection belongs to (struct zcw_run): ZCW_F_RUN, then ZCW_F_SOAK when
 * zcc measures with soak, ZCW_F_METERED for the metered run, and the
 * pair's index in bits 8-31. zcs parks its box's soakers for an unmetered
 * run before it answers, so the first byte already runs unsoaked, and
 * grants ZCW_F_RUN back, with ZCW_F_SOAK when it measures with soak
 * itself (then zcc pairs its runs too). A zcs from before this extension
 * grants ZCW_F_CPU alone (flags & 0x1): its side runs unpaired, its
 * soakers on throughout. A hello without ZCW_F_RUN (an older zcc) is an
 * unpaired run.
 *
 * The decoder is a push state machine: the server feeds it the bytes it
 * read, header bytes through zcw_dec_header() and payload through its
 * receive method, accounted with zcw_dec_payload(). Every count and length
 * is checked against struct zcw_limits before it is believed. Library
 * code: no printing; errors are -errno with d->err filled.
 */
#ifndef ZCB_ZCWIRE_H
#define ZCB_ZCWIRE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ZCW_PORT       2222	   /* the originals' port */
#define ZCW_MAGIC      0x5A434231u /* "ZCB1": first word of our hello */
#define ZCW_VERSION    1	   /* hello version we speak */
#define ZCW_HELLO_LEN  12	   /* magic, version, flags */
#define ZCW_F_CPU      0x1u	   /* hello: report your CPU at the end */
#define ZCW_F_RUN      0x2u	   /* hello: the run's kind is in the flags */
#define ZCW_F_SOAK     0x4u	   /* hello: I measure with soak */
#define ZCW_F_METERED  0x8u	   /* hello: this run is the metered one */
#define ZCW_PAIR_SHIFT 8	   /* hello: bits 8-31 hold the pair */
#define ZCW_PAIR_MASK  0xffffffu   /* pairs wrap at 2^24 */
/* Flags a zcs of this version grants back when asked. */
#define ZCW_F_KNOWN (ZCW_F_CPU | ZCW_F_RUN)

/* Defaults of zcs --max-loops, --max-files and --max-file-len. */
#define ZCW_DEF_MAX_LOOPS    10000000u
#define ZCW_DEF_MAX_FILES    1000000u
#define ZCW_DEF_MAX_FILE_LEN (1u << 30)

struct zcw_limits {
	uint32_t max_loops;    /* largest loop count accepted */
	uint32_t max_files;    /* largest file count of one loop */
	uint32_t max_file_len; /* largest file length */
};

enum zcw_state {
	ZCW_S_NLOOPS,  /* the first word: loop count or magic */
	ZCW_S_HELLO,   /* version and flags after the magic */
	ZCW_S_NFILES,  /* file count of the current loop */
	ZCW_S_FLEN,    /* length of the current file */
	ZCW_S_PAYLOAD, /* bytes of the current file */
	ZCW_S_DONE,    /* the whole stream arrived */
	ZCW_S_ERROR,   /* refused; err says why */
};

struct zcw_dec {
	enum zcw_state state;
	struct zcw_limits lim;
	int allow_hello;	 /* 1: recognise our magic */
	uint8_t acc[8];		 /* bytes of the word(s) being read */
	unsigned accn;		 /* how many of them */
	int hello;		 /* 1: the client said hello */
	uint32_t version, flags; /* from the hello */
	uint32_t nloops, loop;	 /* loop count, current loop (0-based) */
	uint32_t nfiles, file;	 /* files of this loop, current file */
	uint32_t flen;		 /* length of the current file */
	uint32_t left;		 /* payload bytes still due of it */
	uint64_t header_bytes;	 /* protocol words consumed */
	uint64_t payload_bytes;	 /* file bytes consumed */
	uint64_t files_done;	 /* whole files received */
	const char *field;	 /* on error: "loop count"... */
	char err[192];
};

/* Limits as zcs uses them by default. */
void zcw_limits_default(struct zcw_limits *lim);
void zcw_dec_init(struct zcw_dec *d, const struct zcw_limits *lim,
		  int allow_hello);
/* Header bytes the decoder needs to finish the current word(s): 0 when
 * it waits for payload, is done or failed. Read no more than this. */
size_t zcw_dec_need(const struct zcw_dec *d);
/*
 * Feed header bytes: words are taken until file bytes are due (then the
 * rest is left: in PAYLOAD state none is used) or the stream is done.
 * Returns bytes used, or -EINVAL (a count or length beyond the limits,
 * or bytes after the end: d->err and d->field say which).
 */
ssize_t zcw_dec_header(struct zcw_dec *d, const uint8_t *buf, size_t len);
/* Payload bytes still due of the current file (0 unless PAYLOAD). */
uint32_t zcw_dec_want(const struct zcw_dec *d);
/* Account n <= zcw_dec_want() payload bytes received. */
void zcw_dec_payload(struct zcw_dec *d, uint32_t n);
/*
 * Feed any bytes of the stream, header and payload alike (tests, fuzzing,
 * servers that read into a buffer). Returns bytes used (all of them unless
 * the stream ended early) or -EINVAL.
 */
ssize_t zcw_dec_push(struct zcw_dec *d, const uint8_t *buf, size_t len);
static inline int zcw_dec_done(const struct zcw_dec *d)
{
	return d->state == ZCW_S_DONE;
}
/* What the decoder waits for, for "... while reading the X" messages. */
const char *zcw_dec_phase(const struct zcw_dec *d);

/* Encoding (zcc): one big-endian word; returns 4. */
size_t zcw_put_u32(uint8_t *b, uint32_t v);
uint32_t zcw_get_u32(const uint8_t *b);
/* The hello (or zcs's answer to it): magic, ZCW_VERSION, flags. */
size_t zcw_hello_encode(uint8_t *b, uint32_t flags);
/* Check a hello or answer; 0 with *version, *flags, or -EINVAL. */
int zcw_hello_decode(const uint8_t *b, size_t len, uint32_t *version,
		     uint32_t *flags, char *err, size_t elen);
/* The run a hello announces (ZCW_F_RUN and what goes with it). */
struct zcw_run {
	int said;      /* ZCW_F_RUN: the fields below are meant */
	int soak;      /* ZCW_F_SOAK: the sender measures with soak */
	int metered;   /* ZCW_F_METERED: soakers on in this run */
	uint32_t pair; /* the pair (ZCW_PAIR_MASK wide) */
};

/* The flags of r (0 unless r->said); the pair is cut to 24 bits. */
uint32_t zcw_run_flags(const struct zcw_run *r);
/* The run in a hello's flags (all 0 without ZCW_F_RUN). */
void zcw_run_parse(uint32_t flags, struct zcw_run *r);
/* Bytes of a whole original stream: 4 + nloops * (4 + 4 * nfiles +
 * sum of lens). */
uint64_t zcw_stream_bytes(uint32_t nloops, uint32_t nfiles,
			  const uint64_t *lens);
/* Header bytes of it (the stream minus file bytes). */
uint64_t zcw_header_bytes(uint32_t nloops, uint32_t nfiles);

#endif
