/* units.c: parsing and printing of sizes, durations and ttcp rates. */
#include "config.h"
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int mult_for(const char *suf, uint64_t *mult)
{
	static const char letters[] = "kmgt";
	const char *p;
	uint64_t bin, dec;
	int i;

	if (*suf == '\0' || !strcmp(suf, "b") || !strcmp(suf, "B")) {
		*mult = 1;
		return 0;
	}
	p = strchr(letters, tolower((unsigned char)suf[0]));
	if (!p)
		return -EINVAL;
	bin = 1;
	dec = 1;
	for (i = 0; i <= p - letters; i++) {
		bin *= 1024;
		dec *= 1000;
	}
	suf++;
	if (*suf == '\0' || !strcmp(suf, "i") || !strcmp(suf, "iB") ||
	    !strcmp(suf, "ib"))
		*mult = bin;
	else if (!strcmp(suf, "B") || !strcmp(suf, "b"))
		*mult = dec;
	else
		return -EINVAL;
	return 0;
}

int units_parse_size(const char *s, uint64_t *out)
{
	char *end;
	double v;
	uint64_t mult;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno == ERANGE || !isfinite(v) || v < 0)
		return errno == ERANGE ? -ERANGE : -EINVAL;
	if (mult_for(end, &mult))
		return -EINVAL;
	if (v * (double)mult >= 18446744073709551615.0)
		return -ERANGE;
	if (v != floor(v) && mult == 1)
		return -EINVAL; /* "1.5" bytes */
	*out = (uint64_t)(v * (double)mult + 0.5);
	return 0;
}

int units_parse_duration(const char *s, double *seconds)
{
	static const struct {
		const char *suf;
		double mult;
	} tab[] = { { "", 1 },	      { "s", 1 },      { "ms", 1e-3 },
		    { "us", 1e-6 },   { "ns", 1e-9 },  { "m", 60 },
		    { "min", 60 },    { "h", 3600 } };
	char *end;
	double v;
	size_t i;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0)
		return -EINVAL;
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (!strcmp(end, tab[i].suf)) {
			*seconds = v * tab[i].mult;
			return 0;
		}
	}
	return -EINVAL;
}

int units_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 0);
	if (end == s || *end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* The unit after a rate's multiplier letter: 1 bits, 8 bytes, 0 not
 * one. */
static int rate_unit(const char *u)
{
	static const char *const bits[] = {"", "b", "bit", "bit/s", "bps",
					   "bits", "bits/s", NULL};
	static const char *const bytes[] = {"B/s", "Bps", NULL};
	int i;

	for (i = 0; bits[i]; i++)
		if (!strcasecmp(u, bits[i]) && strcmp(u, "B"))
			return 1;
	for (i = 0; bytes[i]; i++)
		if (!strcmp(u, bytes[i]))
			return 8;
	return 0;
}

int units_parse_rate(const char *s, double *bits_per_s)
{
	static const char letters[] = "kmgt";
	double v, mult = 1;
	const char *p;
	char *end;
	int unit;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno == ERANGE || !isfinite(v) || v <= 0)
		return errno == ERANGE ? -ERANGE : -EINVAL;
	if (*end && (p = strchr(letters, tolower((unsigned char)*end)))) {
		mult = pow(1000, (double)(p - letters + 1));
		end++;
	}
	unit = rate_unit(end);
	if (!unit)
		return -EINVAL;
	v *= mult * unit;
	if (v > 1e15) /* a petabit per second: no link is */
		return -ERANGE;
	*bits_per_s = v;
	return 0;
}

const char *units_fmt_rate(double bits_per_s, char *buf, size_t len)
{
	static const char *const pre[] = {"", "k", "M", "G", "T"};
	double v = bits_per_s;
	int i = 0;

	while (v >= 1000 && i < 4) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, "%.3g%sbit/s", v, pre[i]);
	return buf;
}

int units_rate_valid(char fmt)
{
	return fmt && strchr("kmgKMGa", fmt) != NULL;
}

double units_rate(double bytes, double seconds, char fmt, const char **label)
{
	double bps = seconds > 0 ? bytes / seconds : 0;
	const char *l;
	double v;

	if (fmt == 'a')
		fmt = bps >= 1024.0 * 1024 * 1024 ? 'G' :
		      bps >= 1024.0 * 1024	 ? 'M' :
						   'K';
	switch (fmt) {
	case 'k': v = bps * 8 / 1024; l = "Kbit"; break;
	case 'm': v = bps * 8 / 1024 / 1024; l = "Mbit"; break;
	case 'g': v = bps * 8 / 1024 / 1024 / 1024; l = "Gbit"; break;
	case 'M': v = bps / 1024 / 1024; l = "MB"; break;
	case 'G': v = bps / 1024 / 1024 / 1024; l = "GB"; break;
	case 'K':
	default: v = bps / 1024; l = "KB"; break;
	}
	if (label)
		*label = l;
	return v;
}

static const char *fmt_scaled(double v, double base, const char *const *u,
			      char *buf, size_t len, int compact)
{
	int i = 0;

	while (v >= base && u[i + 1]) {
		v /= base;
		i++;
	}
	if (v == floor(v))
		snprintf(buf, len, "%.0f%s%s", v, compact ? "" : " ", u[i]);
	else
		snprintf(buf, len, "%.*f%s%s", v < 10 ? 2 : 1, v,
			 compact ? "" : " ", u[i]);
	return buf;
}

const char *units_fmt_bytes(double bytes, char *buf, size_t len)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB",
					 NULL };

	return fmt_scaled(bytes, 1024, u, buf, len, 0);
}

const char *units_fmt_bytes_si(double bytes, char *buf, size_t len,
			       int compact)
{
	static const char *const u[] = { "B", "KB", "MB", "GB", "TB", NULL };

	return fmt_scaled(bytes, 1000, u, buf, len, compact);
}

static void fmt_1_or_0(char *buf, size_t len, double v, const char *unit)
{
	snprintf(buf, len, v < 99.95 ? "%.1f %s" : "%.0f %s", v, unit);
}

const char *units_fmt_seed_rate(double bytes_per_s, char *buf, size_t len)
{
	double v = bytes_per_s / 1000;

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v < 999.5)
		fmt_1_or_0(buf, len, v, "kb/s");
	else if (v / 1000 < 999.5)
		fmt_1_or_0(buf, len, v / 1000, "mb/s");
	else
		fmt_1_or_0(buf, len, v / 1e6, "gb/s");
	return buf;
}

const char *units_fmt_seed_total(double bytes, char *buf, size_t len)
{
	static const char *const u[] = { "B", "KB", "MB", "GB", "TB" };
	char num[64];
	size_t l;
	int i = 0;

	if (!isfinite(bytes)) {
		snprintf(buf, len, "-");
		return buf;
	}
	while (i < 4 && fabs(bytes) >= 1024) {
		bytes /= 1024;
		i++;
	}
	snprintf(num, sizeof(num), "%.1f", bytes);
	l = strlen(num);
	if (l > 2 && !strcmp(num + l - 2, ".0"))
		num[l - 2] = '\0';
	snprintf(buf, len, "%s%s", num, u[i]);
	return buf;
}

void units_copy_text(char *buf, size_t len, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (!len)
		return;
	if (n >= len) {
		n = len - 1;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--; /* s[n] continues a sequence: cut before it */
	}
	if (n)
		memcpy(buf, s, n);
	buf[n] = '\0';
}
