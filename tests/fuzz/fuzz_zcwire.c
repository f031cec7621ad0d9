/*
 * fuzz_zcwire.c: the zcs stream decoder (lib/zcwire). The input is fed
 * twice: as the server does (header words, payload in chunks whose sizes
 * come from the input) with tight limits, and in one push with the
 * defaults; the counts must always add up to what was consumed.
 */
#include "config.h"
#include "zcwire.h"

#include <stdint.h>

static void check(const struct zcw_dec *d, uint64_t used)
{
	if (d->header_bytes + d->payload_bytes != used)
		__builtin_trap();
	if (d->state == ZCW_S_PAYLOAD && d->left > d->lim.max_file_len)
		__builtin_trap();
	if (d->nloops > d->lim.max_loops || d->nfiles > d->lim.max_files)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zcw_limits tight = {
		.max_loops = 4, .max_files = 4, .max_file_len = 64};
	struct zcw_dec d;
	size_t off = 0, step = 0;
	ssize_t r;

	if (!size)
		return 0;
	zcw_dec_init(&d, &tight, 1);
	while (off < size) {
		uint32_t want = zcw_dec_want(&d);

		if (want) {
			uint32_t n = (uint32_t)(1 + data[step++ % size] % 7);

			if (n > want)
				n = want;
			if (n > size - off)
				n = (uint32_t)(size - off);
			zcw_dec_payload(&d, n);
			off += n;
		} else {
			size_t need = zcw_dec_need(&d);

			r = zcw_dec_header(&d, data + off, size - off);
			if (r < 0)
				break;
			/* a word at a time at least, never past the data */
			if ((size_t)r > size - off || (!r && need) ||
			    (r && (size_t)r < need && (size_t)r != size - off))
				__builtin_trap();
			if (!r)
				break;
			off += (size_t)r;
		}
		check(&d, off);
	}
	zcw_dec_phase(&d);

	zcw_dec_init(&d, NULL, data[0] & 1);
	r = zcw_dec_push(&d, data, size);
	if (r >= 0) {
		if ((size_t)r > size)
			__builtin_trap();
		check(&d, (uint64_t)r);
	}
	return 0;
}
