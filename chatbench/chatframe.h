/*
 * chatframe.h: the wire format of chatbench (client and server).
 *
 * Every frame starts with a 16-byte header, all fields big-endian:
 *
 *   off len field
 *     0   2 magic    "CH"
 *     2   1 version  1
 *     3   1 type     enum chat_type
 *     4   4 length   bytes of the whole frame, header included
 *     8   2 room     room index (0 .. rooms-1)
 *    10   2 sender   user index within the room (0 .. users-1)
 *    12   4 seq      MSG: the sender's message number (0 .. messages-1)
 *    16   . payload  length - 16 bytes
 *
 * A chat message (MSG) is exactly the run's message size S long (S >= 16,
 * default 100: chat-1.0.1's message size), header included, so the bytes
 * on the wire per message equal the original's. The rest of a MSG is filler.
 *
 * JOIN is the first frame on every connection: room and sender in the
 * header, the run's shape in a 28-byte payload. The server answers READY
 * when the room is full, ABORT (payload: a reason, text) when the room is
 * broken up. A control connection (JOIN with CHAT_JOIN_CTRL) carries
 * STATS_START / STATS_STOP; the server answers STOP with a peer report
 * (lib/wire/peerrep.h) of its CPU over the window.
 *
 * Paired runs (lib/cpu/meter.h): the seq field of STATS_START names the kind
 * of the run the window measures, that of STATS_STOP the kind of the
 * next run (enum chat_run_kind), so a server on another box parks its
 * soakers for an unmetered run before it answers STOP, and the client's
 * next run starts after that answer. A server from before paired runs
 * never reads seq there: it measures every run soaked. 0 (what older
 * clients send) is "not said": an unpaired run, or no next run.
 *
 * The decoder checks magic, version, type and the length against the
 * type's allowed range and the caller's maximum before anything is used.
 */
#ifndef ZCB_CHATFRAME_H
#define ZCB_CHATFRAME_H

#include <stddef.h>
#include <stdint.h>

#define CHAT_HDR	  16 /* header bytes */
#define CHAT_VERSION	  1
#define CHAT_FRAME_MAX	  65536		  /* largest frame of any type */
#define CHAT_JOIN_LEN	  (CHAT_HDR + 28) /* a whole JOIN frame */
#define CHAT_REASON_MAX	  512		  /* ABORT reason bytes */
#define CHAT_MAX_ROOMS	  65535
#define CHAT_MAX_USERS	  4096 /* users per room */
#define CHAT_DEFAULT_PORT 9999 /* chat_s's port */

enum chat_type {
	CHAT_MSG = 1,	      /* a chat message, relayed */
	CHAT_JOIN = 2,	      /* client -> server: who I am, the run shape */
	CHAT_READY = 3,	      /* server -> client: room full, start */
	CHAT_ABORT = 4,	      /* server -> client: room broken, reason */
	CHAT_STATS_START = 5, /* control: open the server's CPU window */
	CHAT_STATS_STOP = 6,  /* control: close it, answer a peer report */
	CHAT_TYPE_MAX = 6,
};

/* STATS_START/STOP seq: the kind of a run (paired runs). */
enum chat_run_kind {
	CHAT_RUN_UNSAID = 0,	/* unpaired, or no next run */
	CHAT_RUN_METERED = 1,	/* soakers on */
	CHAT_RUN_UNMETERED = 2, /* every soaker of the box parked */
};

#define CHAT_JOIN_CTRL	  0x1 /* flags: a control connection */
#define CHAT_JOIN_NODELAY 0x2 /* flags: client set TCP_NODELAY */

struct chat_hdr {
	uint8_t type; /* enum chat_type */
	uint32_t len; /* whole frame, header included */
	uint16_t room;
	uint16_t sender;
	uint32_t seq;
};

/* The JOIN payload: the run's shape, identical on every connection. */
struct chat_join {
	uint64_t token;	   /* random per client run: groups rooms */
	uint32_t rooms;	   /* rooms in the run */
	uint32_t users;	   /* users per room */
	uint32_t messages; /* messages each user sends */
	uint32_t size;	   /* bytes per message, header included */
	uint32_t flags;	   /* CHAT_JOIN_* */
};

/*
 * Decode the header at buf[0..avail). max_len caps the frame length the
 * caller accepts (<= CHAT_FRAME_MAX). Returns 1 when the whole frame
 * (h->len bytes) is in buf, 0 when more bytes are needed (h is filled once
 * the header is complete and valid), -EINVAL with err filled when the
 * bytes are not a valid frame (bad magic, version, type, length).
 */
int chatframe_decode(const uint8_t *buf, size_t avail, size_t max_len,
		     struct chat_hdr *h, char *err, size_t elen);

/* Write a header into buf (CHAT_HDR bytes). */
void chatframe_put_hdr(uint8_t *buf, const struct chat_hdr *h);
/* A whole MSG frame of size bytes (>= CHAT_HDR) with filler payload. */
void chatframe_msg(uint8_t *buf, uint32_t size, uint16_t room, uint16_t sender,
		   uint32_t seq);
/* Rewrite only the seq field of a frame already in buf. */
void chatframe_set_seq(uint8_t *buf, uint32_t seq);

/* A whole JOIN frame (CHAT_JOIN_LEN bytes). */
void chatframe_join(uint8_t *buf, uint16_t room, uint16_t sender,
		    const struct chat_join *j);
/*
 * Decode and check a JOIN payload (len bytes after the header): ranges of
 * rooms, users, messages and size, and that room/sender of the header are
 * inside them. 0 or -EINVAL with err filled.
 */
int chatframe_join_parse(const struct chat_hdr *h, const uint8_t *payload,
			 size_t len, struct chat_join *j, char *err,
			 size_t elen);

/* A header-only frame (READY, STATS_*); CHAT_HDR bytes. */
void chatframe_simple(uint8_t *buf, enum chat_type type, uint16_t room,
		      uint16_t sender);
/* A STATS_START or STATS_STOP frame carrying a run kind in seq. */
void chatframe_stats(uint8_t *buf, enum chat_type type,
		     enum chat_run_kind kind);
/* The run kind in a STATS frame's seq; anything else is "not said". */
enum chat_run_kind chatframe_run_kind(const struct chat_hdr *h);
/* An ABORT frame with reason (cut to CHAT_REASON_MAX); returns its size.
 * buf must hold CHAT_HDR + CHAT_REASON_MAX bytes. */
size_t chatframe_abort(uint8_t *buf, uint16_t room, uint16_t sender,
		       const char *reason);
/* Copy an ABORT payload into out as a printable, NUL-terminated string. */
void chatframe_reason(const uint8_t *payload, size_t len, char *out,
		      size_t olen);

/*
 * The receiver's fast check of a MSG (chatbench's clients, per message):
 * what a user expects of every MSG, its first 10 bytes (magic, version,
 * type, length, room) kept as they are on the wire for one compare.
 */
struct chatframe_expect {
	uint64_t head8;	   /* bytes 0..7 as they are on the wire */
	uint16_t room2;	   /* bytes 8..9 */
	uint16_t user;	   /* the receiver: its own messages are wrong */
	uint32_t users;	   /* senders 0 .. users-1 */
	uint32_t messages; /* seq 0 .. messages-1 */
};

void chatframe_expect_init(struct chatframe_expect *e, uint32_t size,
			   uint16_t room, uint16_t user, uint32_t users,
			   uint32_t messages);

/*
 * Check one whole MSG frame of the expected size at buf without decoding
 * it: header, room, a sender in range other than the receiver, and
 * seq == next[sender] (next has users entries; advanced on success).
 * 1 good; 0 when anything differs: then decode it to say what.
 */
static inline int chatframe_msg_ok(const struct chatframe_expect *e,
				   uint32_t *next, const uint8_t *buf)
{
	uint64_t h8;
	uint16_t r2;
	uint32_t sender, seq;

	__builtin_memcpy(&h8, buf, 8);
	__builtin_memcpy(&r2, buf + 8, 2);
	if (h8 != e->head8 || r2 != e->room2)
		return 0;
	sender = (uint32_t)buf[10] << 8 | buf[11];
	seq = (uint32_t)buf[12] << 24 | (uint32_t)buf[13] << 16 |
	      (uint32_t)buf[14] << 8 | buf[15];
	if (sender >= e->users || sender == e->user || seq >= e->messages ||
	    seq != next[sender])
		return 0;
	next[sender] = seq + 1;
	return 1;
}

/* "MSG", "JOIN", ... or "?" */
const char *chatframe_type_name(unsigned type);

#endif
