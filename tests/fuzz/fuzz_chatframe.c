/*
 * fuzz_chatframe.c: chatbench's frame decoder (lib/chatframe) as both
 * sides use it: a stream of frames decoded one after the other with the
 * run's maximum, JOIN payloads parsed, ABORT reasons printed.
 */
#include "config.h"
#include "chatframe.h"

#include <string.h>

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
