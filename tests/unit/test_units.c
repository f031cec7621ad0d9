/* test_units.c: sizes, durations, integers and ttcp rate formats. */
#include "config.h"
#include "units.h"
#include "t.h"

#include <errno.h>

static uint64_t sz(const char *s)
{
	uint64_t v = 0;

	T_ASSERT(units_parse_size(s, &v) == 0);
	return v;
}

int main(void)
{
	uint64_t v;
	double d;
	long l;
	const char *lab;
	char buf[64];

	T_CHECK(sz("0") == 0);
	T_CHECK(sz("4096") == 4096);
	T_CHECK(sz("32k") == 32768);
	T_CHECK(sz("32K") == 32768);
	T_CHECK(sz("32KiB") == 32768);
	T_CHECK(sz("32kB") == 32000);
	T_CHECK(sz("1m") == 1048576);
	T_CHECK(sz("1MB") == 1000000);
	T_CHECK(sz("1g") == 1073741824ull);
	T_CHECK(sz("1GB") == 1000000000ull);
	T_CHECK(sz("1.5k") == 1536);
	T_CHECK(sz("2t") == 2199023255552ull);
	T_CHECK(units_parse_size("", &v) == -EINVAL);
	T_CHECK(units_parse_size("-1", &v) == -EINVAL);
	T_CHECK(units_parse_size("12x", &v) == -EINVAL);
	T_CHECK(units_parse_size("k", &v) == -EINVAL);
	T_CHECK(units_parse_size("1.5", &v) == -EINVAL);
	T_CHECK(units_parse_size("99999999999t", &v) == -ERANGE);

	T_CHECK(units_parse_duration("10", &d) == 0 && d == 10);
	T_CHECK(units_parse_duration("250ms", &d) == 0 && fabs(d - 0.25) < 1e-12);
	T_CHECK(units_parse_duration("100us", &d) == 0 && fabs(d - 1e-4) < 1e-15);
	T_CHECK(units_parse_duration("2m", &d) == 0 && d == 120);
	T_CHECK(units_parse_duration("1h", &d) == 0 && d == 3600);
	T_CHECK(units_parse_duration("1.5s", &d) == 0 && d == 1.5);
	T_CHECK(units_parse_duration("5 s", &d) == -EINVAL);
	T_CHECK(units_parse_duration("-1", &d) == -EINVAL);
	T_CHECK(units_parse_duration("fast", &d) == -EINVAL);

	T_CHECK(units_parse_long("5001", 1, 65535, &l) == 0 && l == 5001);
	T_CHECK(units_parse_long("0x10", 0, 100, &l) == 0 && l == 16);
	T_CHECK(units_parse_long("70000", 1, 65535, &l) == -ERANGE);
	T_CHECK(units_parse_long("12ab", 1, 65535, &l) == -EINVAL);

	/* ttcp's -f: 1 MiB in 1 s */
	T_NEAR(units_rate(1048576, 1, 'K', &lab), 1024, 1e-9);
	T_STREQ(lab, "KB");
	T_NEAR(units_rate(1048576, 1, 'M', &lab), 1, 1e-9);
	T_NEAR(units_rate(1048576, 1, 'm', &lab), 8, 1e-9);
	T_STREQ(lab, "Mbit");
	T_NEAR(units_rate(1048576, 1, 'k', &lab), 8192, 1e-9);
	T_NEAR(units_rate(2147483648.0, 2, 'a', &lab), 1, 1e-9);
	T_STREQ(lab, "GB");
	T_NEAR(units_rate(100, 0, 'K', NULL), 0, 0);
	T_CHECK(units_rate_valid('K') && units_rate_valid('g') &&
		!units_rate_valid('x') && !units_rate_valid('\0'));

	{
		/* rates: iperf3's -b and tc's spellings, bits unless B/s */
		double r;

		T_CHECK(!units_parse_rate("1G", &r) && r == 1e9);
		T_CHECK(!units_parse_rate("500m", &r) && r == 5e8);
		T_CHECK(!units_parse_rate("100mbit", &r) && r == 1e8);
		T_CHECK(!units_parse_rate("2.5Gbit/s", &r) && r == 2.5e9);
		T_CHECK(!units_parse_rate("64kbps", &r) && r == 64e3);
		T_CHECK(!units_parse_rate("125MB/s", &r) && r == 1e9);
		T_CHECK(!units_parse_rate("1000", &r) && r == 1000);
		T_CHECK(units_parse_rate("0", &r) == -EINVAL);
		T_CHECK(units_parse_rate("-1G", &r) == -EINVAL);
		T_CHECK(units_parse_rate("1GB", &r) == -EINVAL);
		T_CHECK(units_parse_rate("1x", &r) == -EINVAL);
		T_CHECK(units_parse_rate("", &r) == -EINVAL);
		T_CHECK(units_parse_rate("9e20", &r) == -ERANGE);
		T_STREQ(units_fmt_rate(1e9, buf, sizeof(buf)), "1Gbit/s");
		T_STREQ(units_fmt_rate(5e8, buf, sizeof(buf)), "500Mbit/s");
		T_STREQ(units_fmt_rate(2.5e9, buf, sizeof(buf)), "2.5Gbit/s");
		T_STREQ(units_fmt_rate(64e3, buf, sizeof(buf)), "64kbit/s");
		T_STREQ(units_fmt_rate(999, buf, sizeof(buf)), "999bit/s");
	}
	T_STREQ(units_fmt_bytes(1536, buf, sizeof(buf)), "1.50 KiB");
	T_STREQ(units_fmt_bytes(1073741824.0, buf, sizeof(buf)), "1 GiB");
	T_STREQ(units_fmt_bytes_si(32000000, buf, sizeof(buf), 1), "32MB");
	T_STREQ(units_fmt_bytes_si(4e9, buf, sizeof(buf), 1), "4GB");
	T_STREQ(units_fmt_bytes_si(1e6, buf, sizeof(buf), 0), "1 MB");
	/* seed 000's units: 1 byte x 1M ops = "1MB" at 22.4 kb/s */
	T_STREQ(units_fmt_seed_rate(22400, buf, sizeof(buf)), "22.4 kb/s");
	T_STREQ(units_fmt_seed_rate(711000, buf, sizeof(buf)), "711 kb/s");
	T_STREQ(units_fmt_seed_rate(1.4e6, buf, sizeof(buf)), "1.4 mb/s");
	T_STREQ(units_fmt_seed_rate(73.9e6, buf, sizeof(buf)), "73.9 mb/s");
	T_STREQ(units_fmt_seed_rate(2.5e9, buf, sizeof(buf)), "2.5 gb/s");
	T_STREQ(units_fmt_seed_rate(NAN, buf, sizeof(buf)), "-");
	T_STREQ(units_fmt_seed_total(1048576, buf, sizeof(buf)), "1MB");
	T_STREQ(units_fmt_seed_total(4294967296.0, buf, sizeof(buf)), "4GB");
	T_STREQ(units_fmt_seed_total(20000, buf, sizeof(buf)), "19.5KB");
	{
		/* cut at a character, never inside one: "caf\xc3\xa9" */
		char b4[5], b5[6], b3[3];

		units_copy_text(b4, sizeof(b4), "caf\xc3\xa9");
		T_STREQ(b4, "caf");
		units_copy_text(b5, sizeof(b5), "caf\xc3\xa9");
		T_STREQ(b5, "caf\xc3\xa9");
		units_copy_text(b3, sizeof(b3), "\xe2\x82\xac"); /* the euro */
		T_STREQ(b3, "");
		units_copy_text(b3, sizeof(b3), NULL);
		T_STREQ(b3, "");
		units_copy_text(b3, sizeof(b3), "abcdef");
		T_STREQ(b3, "ab");
	}
	return t_done();
}
