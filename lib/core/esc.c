/*
 * esc.c: the one escaper of untrusted text (see esc.h): what a
 * result document, a file name or a peer holds is shown, never obeyed,
 * by a terminal, a CSV or Markdown reader, or gnuplot.
 */
#include "config.h"
#include "esc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 character at s (2-4), or 0 when s does not
 * start one (overlong forms and surrogates are not valid). */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

/* The next unit of output for the text at *s: its bytes in out (NUL
 * terminated, at most 6 + 1), and *s moved past the input it covers. */
static size_t esc_unit(const char **s, char out[8])
{
	const unsigned char *p = (const unsigned char *)*s;
	size_t n;

	if (p[0] >= 0x20 && p[0] < 0x7f) {
		out[0] = (char)p[0];
		out[1] = 0;
		*s += 1;
		return 1;
	}
	*s += 1;
	switch (p[0]) {
	case '\n':
		return (size_t)snprintf(out, 8, "\\n");
	case '\r':
		return (size_t)snprintf(out, 8, "\\r");
	case '\t':
		return (size_t)snprintf(out, 8, "\\t");
	}
	n = p[0] >= 0x80 ? utf8_len(p) : 0;
	if (!n)
		return (size_t)snprintf(out, 8, "\\x%02x", p[0]);
	if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0) {
		/* U+0080..U+009F: the C1 controls (CSI, OSC...) */
		*s += 1;
		return (size_t)snprintf(out, 8, "\\u%04x", p[1]);
	}
	memcpy(out, p, n);
	out[n] = 0;
	*s += n - 1;
	return n;
}

char *esc_text(char *buf, size_t len, const char *s)
{
	size_t used = 0, n;
	char u[8];

	if (!len)
		return buf;
	while (s && *s) {
		n = esc_unit(&s, u);
		if (used + n >= len)
			break;
		memcpy(buf + used, u, n);
		used += n;
	}
	buf[used] = 0;
	return buf;
}

char *esc_dup(const char *s)
{
	size_t len = 1;
	const char *p = s;
	char u[8], *d;

	while (p && *p)
		len += esc_unit(&p, u);
	d = malloc(len);
	if (!d)
		abort();
	return esc_text(d, len, s);
}

int esc_needed(const char *s)
{
	const char *p = s;
	char u[8];
	size_t n;

	while (p && *p) {
		const char *at = p;

		n = esc_unit(&p, u);
		if (n != (size_t)(p - at) || memcmp(u, at, n))
			return 1;
	}
	return 0;
}
