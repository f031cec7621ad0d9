/* cli_row.c: one row of a tool's option table (cli.h): its name in
 * messages, what getopt is told of its value, and its usage line. */
#include "config.h"
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

const char *cli_set_name(const struct cli_set *s, char *buf, size_t len)
{
	if (s->name)
		return s->name;
	if (s->opt > 0 && s->opt < CLI_OPT_LONG)
		snprintf(buf, len, "-%c", s->opt);
	else
		snprintf(buf, len, "--%s", s->lname ? s->lname : "?");
	return buf;
}

int cli_set_has_arg(const struct cli_set *s)
{
	if (!s->arg)
		return no_argument;
	return s->arg[0] == '[' ? optional_argument : required_argument;
}

/* "  -l, --long ARG", "      --long ARG" or "  -l ARG" into b; an
 * "[=X]" or "=X" value follows without a blank. */
static void left_side(const struct cli_set *s, int letter, char *b,
		      size_t len)
{
	const char *a = s->arg ? s->arg : "";
	const char *gap = !*a || *a == '[' || *a == '=' ? "" : " ";

	if (letter && s->lname)
		snprintf(b, len, "  -%c, --%s%s%s", letter, s->lname, gap, a);
	else if (letter)
		snprintf(b, len, "  -%c%s%s", letter, gap, a);
	else
		snprintf(b, len, "      --%s%s%s", s->lname ? s->lname : "?",
			 gap, a);
}

void cli_set_usage(const struct cli_set *s, int letter, FILE *f)
{
	const char *h = s->help, *nl;
	char left[128];
	int n;

	if (!h)
		return;
	left_side(s, letter, left, sizeof(left));
	n = (int)strlen(left);
	/* a left side too wide for the column: the help after two blanks */
	fprintf(f, "%s%*s", left, n + 2 > CLI_USAGE_COL ? 2 : CLI_USAGE_COL - n,
		"");
	while ((nl = strchr(h, '\n'))) {
		fprintf(f, "%.*s\n%*s", (int)(nl - h), h, CLI_USAGE_COL, "");
		h = nl + 1;
	}
	fprintf(f, "%s\n", h);
}
