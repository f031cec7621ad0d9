/* chatframe.c: encoding and checked decoding of chatbench frames. */
#include "config.h"
#include "chatframe.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

const char *chatframe_type_name(unsigned type)
{
	static const char *const names[] = {"?",	 "MSG",	  "JOIN",
					    "READY",	 "ABORT", "STATS_START",
					    "STATS_STOP"};

	return type <= CHAT_TYPE_MAX ? names[type] : "?";
}

/* Allowed frame lengths of each type. */
static int len_ok(uint8_t type, uint32_t len)
{
	switch (type) {
	case CHAT_MSG:
		return len >= CHAT_HDR;
	case CHAT_JOIN:
		return len == CHAT_JOIN_LEN;
	case CHAT_ABORT:
		return len >= CHAT_HDR && len <= CHAT_HDR + CHAT_REASON_MAX;
	default:
		return len == CHAT_HDR;
	}
}

int chatframe_decode(const uint8_t *buf, size_t avail, size_t max_len,
		     struct chat_hdr *h, char *err, size_t elen)
{
	if (max_len > CHAT_FRAME_MAX)
		max_len = CHAT_FRAME_MAX;
	/* a prefix of a bad magic is already bad */
	if ((avail > 0 && buf[0] != 'C') || (avail > 1 && buf[1] != 'H')) {
		snprintf(err, elen, "bad magic 0x%02x%02x (not a chat frame)",
			 buf[0], avail > 1 ? buf[1] : 0);
		return -EINVAL;
	}
	if (avail < CHAT_HDR)
		return 0;
	if (buf[2] != CHAT_VERSION) {
		snprintf(err, elen, "frame version %u, expected %u", buf[2],
			 CHAT_VERSION);
		return -EINVAL;
	}
	h->type = buf[3];
	h->len = get32(buf + 4);
	h->room = get16(buf + 8);
	h->sender = get16(buf + 10);
	h->seq = get32(buf + 12);
	if (h->type < CHAT_MSG || h->type > CHAT_TYPE_MAX) {
		snprintf(err, elen, "unknown frame type %u", h->type);
		return -EINVAL;
	}
	if (!len_ok(h->type, h->len)) {
		snprintf(err, elen, "%s frame of %u bytes is malformed",
			 chatframe_type_name(h->type), h->len);
		return -EINVAL;
	}
	if (h->len > max_len) {
		snprintf(err, elen,
			 "%s frame of %u bytes is too long (max %zu)",
			 chatframe_type_name(h->type), h->len, max_len);
		return -EINVAL;
	}
	return avail >= h->len ? 1 : 0;
}

void chatframe_put_hdr(uint8_t *buf, const struct chat_hdr *h)
{
	buf[0] = 'C';
	buf[1] = 'H';
	buf[2] = CHAT_VERSION;
	buf[3] = h->type;
	put32(buf + 4, h->len);
	put16(buf + 8, h->room);
	put16(buf + 10, h->sender);
	put32(buf + 12, h->seq);
}

void chatframe_msg(uint8_t *buf, uint32_t size, uint16_t room, uint16_t sender,
		   uint32_t seq)
{
	struct chat_hdr h = {.type = CHAT_MSG,
			     .len = size,
			     .room = room,
			     .sender = sender,
			     .seq = seq};
	uint32_t i;

	chatframe_put_hdr(buf, &h);
	for (i = CHAT_HDR; i < size; i++)
		buf[i] = (uint8_t)('a' + (i + sender) % 26);
}

void chatframe_expect_init(struct chatframe_expect *e, uint32_t size,
			   uint16_t room, uint16_t user, uint32_t users,
			   uint32_t messages)
{
	struct chat_hdr h = {.type = CHAT_MSG, .len = size, .room = room};
	uint8_t b[CHAT_HDR];

	chatframe_put_hdr(b, &h);
	memcpy(&e->head8, b, 8);
	memcpy(&e->room2, b + 8, 2);
	e->user = user;
	e->users = users;
	e->messages = messages;
}

void chatframe_set_seq(uint8_t *buf, uint32_t seq)
{
	put32(buf + 12, seq);
}

void chatframe_join(uint8_t *buf, uint16_t room, uint16_t sender,
		    const struct chat_join *j)
{
	struct chat_hdr h = {.type = CHAT_JOIN,
			     .len = CHAT_JOIN_LEN,
			     .room = room,
			     .sender = sender};
	uint8_t *p = buf + CHAT_HDR;

	chatframe_put_hdr(buf, &h);
	put32(p, (uint32_t)(j->token >> 32));
	put32(p + 4, (uint32_t)j->token);
	put32(p + 8, j->rooms);
	put32(p + 12, j->users);
	put32(p + 16, j->messages);
	put32(p + 20, j->size);
	put32(p + 24, j->flags);
}

int chatframe_join_parse(const struct chat_hdr *h, const uint8_t *payload,
			 size_t len, struct chat_join *j, char *err,
			 size_t elen)
{
	if (h->type != CHAT_JOIN || len != CHAT_JOIN_LEN - CHAT_HDR) {
		snprintf(err, elen, "expected a JOIN frame, got %s of %u bytes",
			 chatframe_type_name(h->type), h->len);
		return -EINVAL;
	}
	j->token = (uint64_t)get32(payload) << 32 | get32(payload + 4);
	j->rooms = get32(payload + 8);
	j->users = get32(payload + 12);
	j->messages = get32(payload + 16);
	j->size = get32(payload + 20);
	j->flags = get32(payload + 24);
	if (j->flags & ~(uint32_t)(CHAT_JOIN_CTRL | CHAT_JOIN_NODELAY)) {
		snprintf(err, elen, "JOIN: unknown flags 0x%x", j->flags);
		return -EINVAL;
	}
	if (j->flags & CHAT_JOIN_CTRL)
		return 0; /* a control connection joins no room */
	if (j->rooms < 1 || j->rooms > CHAT_MAX_ROOMS || h->room >= j->rooms) {
		snprintf(err, elen, "JOIN: room %u of %u out of range (1..%d)",
			 h->room, j->rooms, CHAT_MAX_ROOMS);
		return -EINVAL;
	}
	if (j->users < 2 || j->users > CHAT_MAX_USERS ||
	    h->sender >= j->users) {
		snprintf(err, elen, "JOIN: user %u of %u out of range (2..%d)",
			 h->sender, j->users, CHAT_MAX_USERS);
		return -EINVAL;
	}
	if (j->messages < 1) {
		snprintf(err, elen, "JOIN: no messages");
		return -EINVAL;
	}
	if (j->size < CHAT_HDR || j->size > CHAT_FRAME_MAX) {
		snprintf(err, elen,
			 "JOIN: message size %u out of range (%d..%d)", j->size,
			 CHAT_HDR, CHAT_FRAME_MAX);
		return -EINVAL;
	}
	return 0;
}

void chatframe_simple(uint8_t *buf, enum chat_type type, uint16_t room,
		      uint16_t sender)
{
	struct chat_hdr h = {.type = (uint8_t)type,
			     .len = CHAT_HDR,
			     .room = room,
			     .sender = sender};

	chatframe_put_hdr(buf, &h);
}

void chatframe_stats(uint8_t *buf, enum chat_type type, enum chat_run_kind kind)
{
	struct chat_hdr h = {
		.type = (uint8_t)type, .len = CHAT_HDR, .seq = (uint32_t)kind};

	chatframe_put_hdr(buf, &h);
}

enum chat_run_kind chatframe_run_kind(const struct chat_hdr *h)
{
	return h->seq == CHAT_RUN_METERED || h->seq == CHAT_RUN_UNMETERED
		       ? (enum chat_run_kind)h->seq
		       : CHAT_RUN_UNSAID;
}

size_t chatframe_abort(uint8_t *buf, uint16_t room, uint16_t sender,
		       const char *reason)
{
	size_t n = strlen(reason);
	struct chat_hdr h = {
		.type = CHAT_ABORT, .room = room, .sender = sender};

	if (n > CHAT_REASON_MAX)
		n = CHAT_REASON_MAX;
	h.len = (uint32_t)(CHAT_HDR + n);
	chatframe_put_hdr(buf, &h);
	memcpy(buf + CHAT_HDR, reason, n);
	return h.len;
}

void chatframe_reason(const uint8_t *payload, size_t len, char *out,
		      size_t olen)
{
	size_t i, k = 0;

	if (!olen)
		return;
	for (i = 0; i < len && k + 1 < olen; i++)
		out[k++] = payload[i] >= 0x20 && payload[i] < 0x7f
				   ? (char)payload[i]
				   : '?';
	out[k] = '\0';
}
