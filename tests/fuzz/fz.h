/*
 * fz.h: what the fuzz targets share: reading choices out of the input,
 * cutting a byte stream into chunks whose sizes come from the input, and
 * a scripted peer that sends a stream to the code under test over real
 * sockets one chunk at a time, each only once the last one has been read,
 * so the partial reads the chunking asks for really happen.
 *
 * A target's input is usually [mode][split][stream...]: a mode byte when
 * one target drives several decoders, a split byte for fz_split, then the
 * bytes a peer would send. tests/fuzz/README.md has each target's layout.
 */
#ifndef ZCB_FZ_H
#define ZCB_FZ_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The input, read from the front; past its end every read gives zeros. */
struct fz_in {
	const uint8_t *p;
	size_t n;
};

uint8_t fz_u8(struct fz_in *in);
uint16_t fz_u16(struct fz_in *in); /* big-endian */
uint32_t fz_u32(struct fz_in *in); /* big-endian */

/*
 * Chunk sizes for feeding a stream. split 0: the whole stream at once;
 * 1..255: chunks of 1 .. max bytes, max one of 1, 2, 4 .. 4096 chosen by
 * split % 13, the sizes from a generator seeded by split.
 */
struct fz_split {
	uint32_t rng; /* xorshift state */
	size_t max;   /* largest chunk, 0 = everything at once */
};

void fz_split_init(struct fz_split *s, uint8_t split);
/* The next chunk's size, 1 .. left (0 when left is 0). */
size_t fz_split_next(struct fz_split *s, size_t left);

/* An open /dev/null, for printers whose output only must not crash. */
FILE *fz_null(void);

/* The fd in this process at the other end of TCP connection fd, or -1. */
int fz_other_end(int fd);

/*
 * Wait at most ms until the sent bytes written to wfd so far have been
 * read at the other end, rfd (-1 if unknown: then only wfd's queue is
 * looked at, which for a unix socket counts the bytes until read).
 * Returns 0, or -1 when that did not happen in time.
 */
int fz_wait_read(int wfd, int rfd, uint64_t sent, int ms);

#define FZ_PEER_MAX 8 /* connections one peer serves */

/*
 * A scripted peer: a thread that sends each connection its bytes in
 * chunks (round robin over the connections, each chunk once the last
 * one to that connection was read), reads and counts whatever the code
 * under test sends, and shuts its side down when its script is done.
 */
struct fz_peer {
	int n;			/* connections */
	int fd[FZ_PEER_MAX];	/* the peer's ends */
	int other[FZ_PEER_MAX]; /* the ends under test (-1: unknown) */
	const uint8_t *data[FZ_PEER_MAX]; /* what to send on each */
	size_t len[FZ_PEER_MAX];
	uint8_t split;		    /* chunk sizes (fz_split) */
	int lfd;		    /* TCP: accept n connections first */
	uint64_t sent[FZ_PEER_MAX]; /* bytes written on each */
	size_t got;		    /* bytes the code under test sent */
	int stop;		    /* set by fz_peer_end (atomic) */
	pthread_t th;
};

/* A peer on one end of a new socketpair; *fd is the other end (the code
 * under test owns it). 0 or -1. */
int fz_peer_pair(struct fz_peer *p, const uint8_t *data, size_t len,
		 uint8_t split, int *fd);
/*
 * A peer that accepts n connections on 127.0.0.1 (the port is in *port;
 * one listening socket per process, kept) and sends connection i (in the
 * order they arrive) data[i]. 0 or -1.
 */
int fz_peer_tcp(struct fz_peer *p, int n, const uint8_t *const *data,
		const size_t *len, uint8_t split, int *port);
/* Stop the peer (it closes its ends) and wait for it. */
void fz_peer_end(struct fz_peer *p);

#endif
