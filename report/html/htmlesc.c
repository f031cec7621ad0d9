/*
 * htmlesc.c: the page's one way in for a string (htmlesc.h): control
 * characters made visible (esc.h), then & < > " ' as entities.
 */
#include "config.h"
#include "esc.h"
#include "htmlesc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void html_text(FILE *f, const char *s)
{
	char *e = esc_dup(s), *p;

	for (p = e; *p; p++)
		switch (*p) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*p, f);
		}
	free(e);
}

void html_lines(FILE *f, const char *s)
{
	const char *nl;
	char *line;

	while (*s) {
		nl = strchr(s, '\n');
		line = strndup(s, nl ? (size_t)(nl - s) : strlen(s));
		if (!line)
			abort();
		html_text(f, line);
		free(line);
		if (!nl)
			break;
		fputc('\n', f);
		s = nl + 1;
	}
}

void html_textf(FILE *f, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	html_text(f, buf);
}
