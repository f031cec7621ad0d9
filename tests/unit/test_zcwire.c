/* test_zcwire.c: the zcs/zcc wire format: golden bytes, decoder, limits. */
#include "config.h"
#include "zcwire.h"
#include "t.h"

#include <errno.h>
#include <stdint.h>

/* Two loops of two files ("abc" and an empty one), as the original zcc
 * writes them: big-endian u32s, no terminator. */
static const uint8_t golden[] = {
	0, 0, 0, 2,		   /* nloops */
	0, 0, 0, 2,		   /* loop 1: nfiles */
	0, 0, 0, 3, 'a', 'b', 'c', /* file 1 */
	0, 0, 0, 0,		   /* file 2: empty */
	0, 0, 0, 2,		   /* loop 2 */
	0, 0, 0, 3, 'a', 'b', 'c', 0, 0, 0, 0,
};

static size_t encode_golden(uint8_t *b)
{
	size_t n = 0;
	int l;

	n += zcw_put_u32(b + n, 2);
	for (l = 0; l < 2; l++) {
		n += zcw_put_u32(b + n, 2);
		n += zcw_put_u32(b + n, 3);
		memcpy(b + n, "abc", 3);
		n += 3;
		n += zcw_put_u32(b + n, 0);
	}
	return n;
}

static void check_golden(void)
{
	uint8_t b[64];
	uint64_t lens[2] = {3, 0};
	struct zcw_dec d;
	size_t n = encode_golden(b), i;

	T_CHECK(n == sizeof(golden));
	T_CHECK(!memcmp(b, golden, sizeof(golden)));
	T_CHECK(zcw_stream_bytes(2, 2, lens) == sizeof(golden));
	T_CHECK(zcw_header_bytes(2, 2) == sizeof(golden) - 6);

	/* byte by byte: done only at the last byte, counts exact */
	zcw_dec_init(&d, NULL, 1);
	for (i = 0; i < sizeof(golden); i++) {
		T_CHECK(!zcw_dec_done(&d));
		T_CHECK(zcw_dec_push(&d, golden + i, 1) == 1);
	}
	T_CHECK(zcw_dec_done(&d));
	T_CHECK(d.header_bytes == sizeof(golden) - 6);
	T_CHECK(d.payload_bytes == 6);
	T_CHECK(d.files_done == 4);
	T_CHECK(d.nloops == 2 && !d.hello);
	/* a byte more is refused by name */
	T_CHECK(zcw_dec_push(&d, golden, 1) == -EINVAL);
	T_STREQ(d.field, "trailing data");

	/* all at once */
	zcw_dec_init(&d, NULL, 0);
	T_CHECK(zcw_dec_push(&d, golden, sizeof(golden)) ==
		(ssize_t)sizeof(golden));
	T_CHECK(zcw_dec_done(&d));
}

/* The server's way: header words with zcw_dec_header, payload apart. */
static void check_split(void)
{
	struct zcw_dec d;
	size_t off = 0;

	zcw_dec_init(&d, NULL, 1);
	T_CHECK(zcw_dec_need(&d) == 4);
	T_CHECK(!strcmp(zcw_dec_phase(&d), "loop count"));
	while (!zcw_dec_done(&d)) {
		uint32_t w = zcw_dec_want(&d);

		if (w) {
			T_CHECK(zcw_dec_need(&d) == 0);
			/* header feeding in payload state uses nothing */
			T_CHECK(zcw_dec_header(&d, golden + off, 4) == 0);
			zcw_dec_payload(&d, 1);
			off++;
			continue;
		}
		T_ASSERT(zcw_dec_need(&d) > 0);
		/* more than needed is offered: only the word is taken */
		T_ASSERT(zcw_dec_header(&d, golden + off,
					sizeof(golden) - off) >= 1);
		off = d.header_bytes + d.payload_bytes;
		T_ASSERT(off <= sizeof(golden));
	}
	T_CHECK(off == sizeof(golden));
	T_CHECK(zcw_dec_need(&d) == 0 && zcw_dec_want(&d) == 0);
}

static void check_hello(void)
{
	static const uint8_t hello_golden[] = {'Z', 'C', 'B', '1', 0, 0,
					       0,   1,	 0,   0,   0, 1};
	uint8_t b[64];
	uint32_t v, f;
	struct zcw_dec d;
	char err[128];

	T_CHECK(zcw_hello_encode(b, ZCW_F_CPU) == ZCW_HELLO_LEN);
	T_CHECK(!memcmp(b, hello_golden, sizeof(hello_golden)));
	T_CHECK(zcw_hello_decode(b, 12, &v, &f, err, sizeof(err)) == 0);
	T_CHECK(v == 1 && f == ZCW_F_CPU);
	T_CHECK(zcw_hello_decode(b, 11, &v, &f, err, sizeof(err)) == -EINVAL);
	T_CHECK(zcw_hello_decode(golden, 12, &v, &f, err, sizeof(err)) ==
		-EINVAL);
	T_CHECK(strstr(err, "magic") != NULL);

	/* hello then the original stream */
	memcpy(b + 12, golden, sizeof(golden));
	zcw_dec_init(&d, NULL, 1);
	T_CHECK(zcw_dec_push(&d, b, 12 + sizeof(golden)) ==
		(ssize_t)(12 + sizeof(golden)));
	T_CHECK(zcw_dec_done(&d) && d.hello && d.flags == ZCW_F_CPU);
	T_CHECK(d.header_bytes == 12 + sizeof(golden) - 6);

	/* a server not accepting hellos takes the magic as a loop count */
	zcw_dec_init(&d, NULL, 0);
	T_CHECK(zcw_dec_push(&d, b, 12) == -EINVAL);
	T_STREQ(d.field, "loop count");
	T_CHECK(strstr(d.err, "1514357297") != NULL);

	/* a second hello is a loop count too */
	zcw_dec_init(&d, NULL, 1);
	memcpy(b + 12, b, 12);
	T_CHECK(zcw_dec_push(&d, b, 24) == -EINVAL);
	T_STREQ(d.field, "loop count");

	/* version 0 is refused */
	zcw_put_u32(b + 4, 0);
	zcw_dec_init(&d, NULL, 1);
	T_CHECK(zcw_dec_push(&d, b, 12) == -EINVAL);
	T_STREQ(d.field, "hello version");
}

/* Paired runs: the run's kind rides in the hello's flags, byte for
 * byte as documented, and a zcs from before grants ZCW_F_CPU alone. */
static void check_run_flags(void)
{
	static const uint8_t unmetered_pair3[] = {'Z', 'C', 'B', '1', 0, 0,
						  0,   1,   0,	 0,   3, 7};
	struct zcw_run r = {.said = 1, .soak = 1, .metered = 0, .pair = 3},
		       back;
	uint8_t b[ZCW_HELLO_LEN];
	uint32_t v, f;
	char err[128];

	T_CHECK(zcw_run_flags(&r) == (ZCW_F_RUN | ZCW_F_SOAK | 3u << 8));
	zcw_hello_encode(b, ZCW_F_CPU | zcw_run_flags(&r));
	T_CHECK(!memcmp(b, unmetered_pair3, sizeof(b)));
	T_CHECK(zcw_hello_decode(b, sizeof(b), &v, &f, err, sizeof(err)) == 0);
	zcw_run_parse(f, &back);
	T_CHECK(back.said && back.soak && !back.metered && back.pair == 3);
	/* an older zcs grants only what it knew: no run, no soak */
	T_CHECK((f & ZCW_F_CPU) == ZCW_F_CPU);
	zcw_run_parse(f & 0x1u, &back);
	T_CHECK(!back.said && !back.soak && !back.metered && !back.pair);
	/* metered, a pair past 2^24 wraps; unsaid runs carry no bits */
	r = (struct zcw_run){.said = 1, .metered = 1, .pair = 0x1000005};
	zcw_run_parse(zcw_run_flags(&r), &back);
	T_CHECK(back.said && !back.soak && back.metered && back.pair == 5);
	r.said = 0;
	T_CHECK(zcw_run_flags(&r) == 0);
	/* what this zcs grants back: CPU and the run, never the rest */
	T_CHECK((ZCW_F_KNOWN & (ZCW_F_SOAK | ZCW_F_METERED)) == 0);
}

static void check_limits(void)
{
	struct zcw_limits lim = {
		.max_loops = 10, .max_files = 5, .max_file_len = 100};
	uint8_t b[16];
	struct zcw_dec d;

	/* 2^32-1 in each field */
	zcw_dec_init(&d, NULL, 1);
	zcw_put_u32(b, 0xffffffffu);
	T_CHECK(zcw_dec_push(&d, b, 4) == -EINVAL);
	T_STREQ(d.field, "loop count");
	T_CHECK(strstr(d.err, "4294967295 exceeds the limit") != NULL);
	T_CHECK(strstr(d.err, "--max-loops") != NULL);
	/* an error sticks */
	T_CHECK(zcw_dec_push(&d, b, 4) == -EINVAL);
	T_CHECK(zcw_dec_header(&d, b, 4) == -EINVAL);

	zcw_dec_init(&d, NULL, 1);
	zcw_put_u32(b, 1);
	zcw_put_u32(b + 4, 0xffffffffu);
	T_CHECK(zcw_dec_push(&d, b, 8) == -EINVAL);
	T_STREQ(d.field, "file count");

	zcw_dec_init(&d, NULL, 1);
	zcw_put_u32(b + 4, 1);
	zcw_put_u32(b + 8, 0xffffffffu);
	T_CHECK(zcw_dec_push(&d, b, 12) == -EINVAL);
	T_STREQ(d.field, "file length");
	T_CHECK(strstr(d.err, "--max-file-len") != NULL);

	/* configured limits: at the limit is fine, one more is not */
	zcw_dec_init(&d, &lim, 1);
	zcw_put_u32(b, 10);
	zcw_put_u32(b + 4, 5);
	zcw_put_u32(b + 8, 100);
	T_CHECK(zcw_dec_push(&d, b, 12) == 12);
	T_CHECK(zcw_dec_want(&d) == 100);
	zcw_dec_init(&d, &lim, 1);
	zcw_put_u32(b + 8, 101);
	T_CHECK(zcw_dec_push(&d, b, 12) == -EINVAL);
	T_STREQ(d.err,
		"file length 101 exceeds the limit 100 (--max-file-len)");
	zcw_dec_init(&d, &lim, 1);
	zcw_put_u32(b + 4, 6);
	T_CHECK(zcw_dec_push(&d, b, 8) == -EINVAL);
	T_STREQ(d.err, "file count 6 exceeds the limit 5 (--max-files)");
	zcw_dec_init(&d, &lim, 1);
	zcw_put_u32(b, 11);
	T_CHECK(zcw_dec_push(&d, b, 4) == -EINVAL);
	T_STREQ(d.err, "loop count 11 exceeds the limit 10 (--max-loops)");

	/* zero loops: done at once; zero files: loops end at once */
	zcw_dec_init(&d, NULL, 1);
	zcw_put_u32(b, 0);
	T_CHECK(zcw_dec_push(&d, b, 4) == 4 && zcw_dec_done(&d));
	zcw_dec_init(&d, NULL, 1);
	zcw_put_u32(b, 2);
	zcw_put_u32(b + 4, 0);
	zcw_put_u32(b + 8, 0);
	T_CHECK(zcw_dec_push(&d, b, 12) == 12 && zcw_dec_done(&d));

	/* a short stream is not done, and says where it stopped */
	zcw_dec_init(&d, NULL, 1);
	T_CHECK(zcw_dec_push(&d, golden, 13) == 13);
	T_CHECK(!zcw_dec_done(&d));
	T_STREQ(zcw_dec_phase(&d), "file data");
	T_CHECK(zcw_dec_want(&d) == 2);
	T_CHECK(d.loop == 0 && d.file == 0);
}

int main(void)
{
	check_golden();
	check_split();
	check_hello();
	check_run_flags();
	check_limits();
	return t_done();
}
