/* test_chatframe.c: chatbench's frame format: round trips, prefixes,
 * hostile lengths, JOIN ranges, ABORT reasons. */
#include "config.h"
#include "chatframe.h"
#include "t.h"

#include <errno.h>
#include <string.h>

static void test_msg(void)
{
	uint8_t b[100];
	struct chat_hdr h;
	char err[256];
	size_t k;

	chatframe_msg(b, sizeof(b), 3, 7, 41);
	T_CHECK(b[0] == 'C' && b[1] == 'H' && b[2] == CHAT_VERSION);
	T_CHECK(b[3] == CHAT_MSG);
	T_CHECK(b[4] == 0 && b[5] == 0 && b[6] == 0 && b[7] == 100);
	/* every prefix asks for more, the whole frame decodes */
	for (k = 0; k < sizeof(b); k++)
		T_CHECK(chatframe_decode(b, k, 100, &h, err, sizeof(err)) == 0);
	T_ASSERT(chatframe_decode(b, sizeof(b), 100, &h, err, sizeof(err)) ==
		 1);
	T_CHECK(h.type == CHAT_MSG && h.len == 100 && h.room == 3 &&
		h.sender == 7 && h.seq == 41);
	chatframe_set_seq(b, 0x01020304);
	T_CHECK(chatframe_decode(b, sizeof(b), 100, &h, err, sizeof(err)) ==
			1 &&
		h.seq == 0x01020304);
	/* the smallest message is a bare header */
	chatframe_msg(b, CHAT_HDR, 0, 0, 0);
	T_CHECK(chatframe_decode(b, CHAT_HDR, 100, &h, err, sizeof(err)) == 1);
}

static void test_bad(void)
{
	uint8_t b[64];
	struct chat_hdr h;
	char err[256];

	chatframe_msg(b, 64, 0, 1, 2);
	/* too long for the caller: refused before any payload is read */
	T_CHECK(chatframe_decode(b, CHAT_HDR, 63, &h, err, sizeof(err)) ==
		-EINVAL);
	T_CHECK(strstr(err, "too long") != NULL);
	/* bad magic, even in a one-byte prefix */
	b[0] = 'X';
	T_CHECK(chatframe_decode(b, 1, 64, &h, err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "magic") != NULL);
	b[0] = 'C';
	b[1] = 'X';
	T_CHECK(chatframe_decode(b, 2, 64, &h, err, sizeof(err)) == -EINVAL);
	b[1] = 'H';
	b[2] = 9; /* version */
	T_CHECK(chatframe_decode(b, 64, 64, &h, err, sizeof(err)) == -EINVAL);
	b[2] = CHAT_VERSION;
	b[3] = 0; /* type */
	T_CHECK(chatframe_decode(b, 64, 64, &h, err, sizeof(err)) == -EINVAL);
	b[3] = 99;
	T_CHECK(chatframe_decode(b, 64, 64, &h, err, sizeof(err)) == -EINVAL);
	b[3] = CHAT_MSG;
	/* length below the header, and 4 GiB */
	b[4] = b[5] = b[6] = 0;
	b[7] = 15;
	T_CHECK(chatframe_decode(b, 64, 64, &h, err, sizeof(err)) == -EINVAL);
	b[4] = b[5] = b[6] = b[7] = 0xff;
	T_CHECK(chatframe_decode(b, 64, CHAT_FRAME_MAX * 4, &h, err,
				 sizeof(err)) == -EINVAL);
	/* READY must be exactly a header, JOIN exactly CHAT_JOIN_LEN */
	chatframe_simple(b, CHAT_READY, 0, 0);
	T_CHECK(chatframe_decode(b, CHAT_HDR, 64, &h, err, sizeof(err)) == 1);
	b[7] = 17;
	T_CHECK(chatframe_decode(b, CHAT_HDR, 64, &h, err, sizeof(err)) ==
		-EINVAL);
	b[3] = CHAT_JOIN;
	T_CHECK(chatframe_decode(b, CHAT_HDR, 64, &h, err, sizeof(err)) ==
		-EINVAL);
	/* ABORT longer than its cap */
	b[3] = CHAT_ABORT;
	b[6] = 0x10;
	T_CHECK(chatframe_decode(b, CHAT_HDR, CHAT_FRAME_MAX, &h, err,
				 sizeof(err)) == -EINVAL);
}

static void test_join(void)
{
	struct chat_join j = {.token = 0x1122334455667788ull,
			      .rooms = 10,
			      .users = 20,
			      .messages = 100,
			      .size = 100,
			      .flags = CHAT_JOIN_NODELAY},
			 g;
	uint8_t b[CHAT_JOIN_LEN];
	struct chat_hdr h;
	char err[256];

	chatframe_join(b, 9, 19, &j);
	T_ASSERT(chatframe_decode(b, sizeof(b), sizeof(b), &h, err,
				  sizeof(err)) == 1);
	T_CHECK(h.type == CHAT_JOIN && h.room == 9 && h.sender == 19);
	T_CHECK(chatframe_join_parse(&h, b + CHAT_HDR, sizeof(b) - CHAT_HDR, &g,
				     err, sizeof(err)) == 0);
	T_CHECK(g.token == j.token && g.rooms == 10 && g.users == 20 &&
		g.messages == 100 && g.size == 100 &&
		g.flags == CHAT_JOIN_NODELAY);
	/* room and user must be inside the shape */
	chatframe_join(b, 10, 0, &j);
	chatframe_decode(b, sizeof(b), sizeof(b), &h, err, sizeof(err));
	T_CHECK(chatframe_join_parse(&h, b + CHAT_HDR, sizeof(b) - CHAT_HDR, &g,
				     err, sizeof(err)) == -EINVAL);
	chatframe_join(b, 0, 20, &j);
	chatframe_decode(b, sizeof(b), sizeof(b), &h, err, sizeof(err));
	T_CHECK(chatframe_join_parse(&h, b + CHAT_HDR, sizeof(b) - CHAT_HDR, &g,
				     err, sizeof(err)) == -EINVAL);
	j.users = 1;
	chatframe_join(b, 0, 0, &j);
	chatframe_decode(b, sizeof(b), sizeof(b), &h, err, sizeof(err));
	T_CHECK(chatframe_join_parse(&h, b + CHAT_HDR, sizeof(b) - CHAT_HDR, &g,
				     err, sizeof(err)) == -EINVAL);
	j.users = 20;
	j.size = CHAT_HDR - 1;
	chatframe_join(b, 0, 0, &j);
	chatframe_decode(b, sizeof(b), sizeof(b), &h, err, sizeof(err));
	T_CHECK(chatframe_join_parse(&h, b + CHAT_HDR, sizeof(b) - CHAT_HDR, &g,
				     err, sizeof(err)) == -EINVAL);
	j.size = CHAT_FRAME_MAX + 1;
	chatframe_join(b, 0, 0, &j);
	chatframe_decode(b, sizeof(b), sizeof(b), &h, err, sizeof(err));
	T_CHECK(chatframe_join_parse(&h, b + CHAT_HDR, sizeof(b) - CHAT_HDR, &g,
				     err, sizeof(err)) == -EINVAL);
	j.size = 100;
	j.flags = 0x80;
	chatframe_join(b, 0, 0, &j);
	chatframe_decode(b, sizeof(b), sizeof(b), &h, err, sizeof(err));
	T_CHECK(chatframe_join_parse(&h, b + CHAT_HDR, sizeof(b) - CHAT_HDR, &g,
				     err, sizeof(err)) == -EINVAL);
	/* a control connection carries no room shape */
	memset(&j, 0, sizeof(j));
	j.flags = CHAT_JOIN_CTRL;
	chatframe_join(b, 0, 0, &j);
	chatframe_decode(b, sizeof(b), sizeof(b), &h, err, sizeof(err));
	T_CHECK(chatframe_join_parse(&h, b + CHAT_HDR, sizeof(b) - CHAT_HDR, &g,
				     err, sizeof(err)) == 0);
	T_CHECK(g.flags == CHAT_JOIN_CTRL);
}

static void test_abort(void)
{
	uint8_t b[CHAT_HDR + CHAT_REASON_MAX];
	char big[CHAT_REASON_MAX * 2], out[CHAT_REASON_MAX + 1];
	struct chat_hdr h;
	char err[256];
	size_t n;

	n = chatframe_abort(b, 2, 5, "user 5 left\n");
	T_CHECK(n == CHAT_HDR + 12);
	T_ASSERT(chatframe_decode(b, n, sizeof(b), &h, err, sizeof(err)) == 1);
	T_CHECK(h.type == CHAT_ABORT && h.room == 2 && h.sender == 5);
	chatframe_reason(b + CHAT_HDR, h.len - CHAT_HDR, out, sizeof(out));
	T_STREQ(out, "user 5 left?"); /* control bytes made printable */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	n = chatframe_abort(b, 0, 0, big);
	T_CHECK(n == sizeof(b));
	T_CHECK(chatframe_decode(b, n, sizeof(b), &h, err, sizeof(err)) == 1);
	chatframe_reason(b + CHAT_HDR, 100, out, 8);
	T_STREQ(out, "xxxxxxx");
	T_STREQ(chatframe_type_name(CHAT_STATS_STOP), "STATS_STOP");
	T_STREQ(chatframe_type_name(200), "?");
}

/* Paired runs: a STATS frame carries the run kind in seq, byte for byte;
 * what an older client sends (seq 0) and any unknown value are unsaid. */
static void test_stats_kind(void)
{
	static const uint8_t stop_unmetered[CHAT_HDR] = {
		'C', 'H', 1, CHAT_STATS_STOP, 0, 0, 0, 16, 0, 0, 0, 0, 0,
		0,   0,	  2};
	uint8_t b[CHAT_HDR];
	struct chat_hdr h;
	char err[128];

	chatframe_stats(b, CHAT_STATS_STOP, CHAT_RUN_UNMETERED);
	T_CHECK(!memcmp(b, stop_unmetered, sizeof(b)));
	T_ASSERT(chatframe_decode(b, sizeof(b), CHAT_HDR, &h, err,
				  sizeof(err)) == 1);
	T_CHECK(chatframe_run_kind(&h) == CHAT_RUN_UNMETERED);
	chatframe_stats(b, CHAT_STATS_START, CHAT_RUN_METERED);
	T_ASSERT(chatframe_decode(b, sizeof(b), CHAT_HDR, &h, err,
				  sizeof(err)) == 1);
	T_CHECK(h.type == CHAT_STATS_START &&
		chatframe_run_kind(&h) == CHAT_RUN_METERED);
	chatframe_simple(b, CHAT_STATS_START, 0, 0); /* an older client */
	T_ASSERT(chatframe_decode(b, sizeof(b), CHAT_HDR, &h, err,
				  sizeof(err)) == 1);
	T_CHECK(chatframe_run_kind(&h) == CHAT_RUN_UNSAID);
	h.seq = 3;
	T_CHECK(chatframe_run_kind(&h) == CHAT_RUN_UNSAID);
}

/* The receivers' fast check agrees with decoding and the full check. */
static void test_fast(void)
{
	struct chatframe_expect e;
	uint32_t next[4] = {0, 0, 0, 0};
	uint8_t b[100], x[100];
	struct chat_hdr h;
	char err[256];
	size_t k;

	chatframe_expect_init(&e, sizeof(b), 3, 1, 4, 2);
	chatframe_msg(b, sizeof(b), 3, 2, 0);
	T_CHECK(chatframe_msg_ok(&e, next, b) == 1 && next[2] == 1);
	T_CHECK(chatframe_msg_ok(&e, next, b) == 0 && next[2] == 1); /* dup */
	chatframe_set_seq(b, 1);
	T_CHECK(chatframe_msg_ok(&e, next, b) == 1 && next[2] == 2);
	chatframe_set_seq(b, 2); /* beyond the run's messages */
	next[2] = 2;
	T_CHECK(chatframe_msg_ok(&e, next, b) == 0);
	chatframe_msg(b, sizeof(b), 3, 1, 0); /* its own message */
	T_CHECK(chatframe_msg_ok(&e, next, b) == 0 && next[1] == 0);
	chatframe_msg(b, sizeof(b), 3, 4, 0); /* sender out of range */
	T_CHECK(chatframe_msg_ok(&e, next, b) == 0);
	chatframe_msg(b, sizeof(b), 2, 0, 0); /* another room */
	T_CHECK(chatframe_msg_ok(&e, next, b) == 0);
	chatframe_msg(b, 99, 3, 0, 0); /* another length */
	T_CHECK(chatframe_msg_ok(&e, next, b) == 0);
	/* any one header byte changed is refused */
	chatframe_msg(b, sizeof(b), 3, 0, 0);
	for (k = 0; k < 12; k++) {
		memcpy(x, b, sizeof(x));
		x[k] ^= 0x40;
		T_CHECK(chatframe_msg_ok(&e, next, x) == 0);
	}
	T_CHECK(next[0] == 0);
	T_CHECK(chatframe_msg_ok(&e, next, b) == 1 && next[0] == 1);
	T_CHECK(chatframe_decode(b, sizeof(b), sizeof(b), &h, err,
				 sizeof(err)) == 1 &&
		h.type == CHAT_MSG && h.room == 3 && h.sender == 0);
}

int main(void)
{
	test_msg();
	test_bad();
	test_join();
	test_abort();
	test_stats_kind();
	test_fast();
	return t_done();
}
