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

/* The entity that stands for c, NULL when c stands for itself. */
static const char *entity_of(char c)
{
	static const struct {
		char c;
		const char *entity;
	} ents[] = {
		{'&', "&amp;"},	 {'<', "&lt;"},	  {'>', "&gt;"},
		{'"', "&quot;"}, {'\'', "&#39;"},
	};
	size_t i;

	for (i = 0; i < sizeof(ents) / sizeof(ents[0]); i++)
		if (ents[i].c == c)
			return ents[i].entity;
	return NULL;
}

void html_text(FILE *f, const char *s)
{
	char *e = esc_dup(s), *p;
	const char *ent;

	for (p = e; *p; p++) {
		ent = entity_of(*p);
		if (ent)
			fputs(ent, f);
		else
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
