/*
 * test_esc.c: lib/table/esc, the escaper of document text: control
 * characters (C0, DEL, C1) and bytes that are not UTF-8 come out as
 * visible escapes, UTF-8 text and plain ASCII come out unchanged, and a
 * short buffer cuts only between whole units.
 */
#include "config.h"
#include "esc.h"
#include "t.h"

static const char *esc(const char *s)
{
	static char buf[256];

	return esc_text(buf, sizeof(buf), s);
}

static void test_controls(void)
{
	T_STREQ(esc("6.1.0-rc1 sendfile, 64 KiB"),
		"6.1.0-rc1 sendfile, 64 KiB");
	T_STREQ(esc("a\nsystem(\"id\")"), "a\\nsystem(\"id\")");
	T_STREQ(esc("\r\t"), "\\r\\t");
	T_STREQ(esc("\x1b]0;title\x07\x1b[2J"), "\\x1b]0;title\\x07\\x1b[2J");
	T_STREQ(esc("\x7f\x01"), "\\x7f\\x01");
	/* C1 controls written as UTF-8: CSI (U+009B), NEL (U+0085) */
	T_STREQ(esc("\302\23331m\302\205"), "\\u009b31m\\u0085");
	/* backslashes and quotes are text */
	T_STREQ(esc("it's \\n `id` @x"), "it's \\n `id` @x");
	T_STREQ(esc(""), "");
	T_STREQ(esc(NULL), "");
}

static void test_utf8(void)
{
	/* U+00A0 (first after C1), e acute, CJK, an emoji: kept */
	T_STREQ(esc("\xc2\xa0\xc3\xa9\xe6\xbc\xa2\xf0\x9f\x98\x80"),
		"\xc2\xa0\xc3\xa9\xe6\xbc\xa2\xf0\x9f\x98\x80");
	/* not UTF-8: a stray continuation, 0xff, an overlong '/', a
	 * surrogate, beyond U+10FFFF, a cut sequence */
	T_STREQ(esc("\x80"), "\\x80");
	T_STREQ(esc("\xff"), "\\xff");
	T_STREQ(esc("\xc0\xaf"), "\\xc0\\xaf");
	T_STREQ(esc("\xed\xa0\x80"), "\\xed\\xa0\\x80");
	T_STREQ(esc("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
	T_STREQ(esc("\xe2\x82"), "\\xe2\\x82");
	T_STREQ(esc("\xe2\x82x"), "\\xe2\\x82x");
}

static void test_bounds(void)
{
	char b[6], *d;

	/* "ab" + "\x1b" (4 bytes) does not fit in 5 + NUL: cut before it */
	T_STREQ(esc_text(b, sizeof(b), "ab\x1b"), "ab");
	T_STREQ(esc_text(b, sizeof(b), "abc\xc3\xa9"), "abc\xc3\xa9");
	T_STREQ(esc_text(b, 4, "abc\xc3\xa9"), "abc");
	T_STREQ(esc_text(b, 1, "abc"), "");
	d = esc_dup("x\x1b\n");
	T_STREQ(d, "x\\x1b\\n");
	free(d);
	T_CHECK(!esc_needed("6.1.0 \xc3\xa9 it's a\\b"));
	T_CHECK(esc_needed("a\nb"));
	T_CHECK(esc_needed("\xc2\x9b"));
	T_CHECK(esc_needed("\xff"));
	T_CHECK(!esc_needed(NULL));
}

int main(void)
{
	test_controls();
	test_utf8();
	test_bounds();
	return t_done();
}
