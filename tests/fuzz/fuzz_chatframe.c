/*
 * fuzz_chatframe.c: chatbench's frame decoder (lib/chatframe) as both
 * sides use it: a stream of frames decoded one after the other with the
 * run's maximum, JOIN payloads parsed, ABORT reasons printed; and the
 * receivers' fast check (chatframe_msg_ok) never passes what the decoder
 * and the full check would refuse.
 */
#include "config.h"
#include "chatframe.h"

#include <string.h>

/* A receiver (room 1, user 0 of 4, 3 messages of the decoder's limit)
 * fed the input as frames of that size. */
static void fast_check(const uint8_t *data, size_t size, size_t max)
{
	uint32_t next[4] = {0, 0, 0, 0}, want = 0;
	struct chatframe_expect e;
	struct chat_hdr h;
	char err[256];
	size_t off;

	if (max < CHAT_HDR || max > CHAT_FRAME_MAX)
		return;
	chatframe_expect_init(&e, (uint32_t)max, 1, 0, 4, 3);
	for (off = 0; off + max <= size; off += max) {
		if (chatframe_decode(data + off, max, max, &h, err,
				     sizeof(err)) == 1)
			want = h.sender < 4 ? next[h.sender] : 0;
		else
			h.type = 0;
		if (!chatframe_msg_ok(&e, next, data + off))
			continue;
		if (h.type != CHAT_MSG || h.len != max || h.room != 1 ||
		    h.sender == 0 || h.sender >= 4 || h.seq != want ||
		    h.seq >= 3 || next[h.sender] != want + 1)
			__builtin_trap(); /* the fast check let a bad one by */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t off = 0, max;
	struct chat_hdr h;
	struct chat_join j;
	char err[256], why[CHAT_REASON_MAX + 1];
	int r;

	if (size < 2)
		return 0;
	/* first two bytes choose the receiver's size limit */
	max = ((size_t)data[0] << 8 | data[1]) + 1;
	data += 2;
	size -= 2;
	fast_check(data, size, max);
	while (off < size) {
		r = chatframe_decode(data + off, size - off, max, &h, err,
				     sizeof(err));
		if (r <= 0)
			break;
		if (h.len < CHAT_HDR || h.len > size - off || h.len > max ||
		    h.len > CHAT_FRAME_MAX)
			__builtin_trap(); /* the decoder let a bad length by */
		if (h.type == CHAT_JOIN &&
		    !chatframe_join_parse(&h, data + off + CHAT_HDR,
					  h.len - CHAT_HDR, &j, err,
					  sizeof(err)) &&
		    !(j.flags & CHAT_JOIN_CTRL) &&
		    (h.room >= j.rooms || h.sender >= j.users ||
		     j.size < CHAT_HDR))
			__builtin_trap();
		if (h.type == CHAT_ABORT) {
			chatframe_reason(data + off + CHAT_HDR,
					 h.len - CHAT_HDR, why, sizeof(why));
			if (strlen(why) > CHAT_REASON_MAX)
				__builtin_trap();
		}
		off += h.len;
	}
	return 0;
}
