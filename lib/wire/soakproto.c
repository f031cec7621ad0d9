/* soakproto.c: line splitting and parsing of the cyclesoak --serve protocol. */
#include "config.h"
#include "soakproto.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* One byte into the line so far; 1 when fn was called (a line ended, or
 * this byte made it too long). */
static int feed_byte(struct soakproto_in *in, char ch, soakproto_line_fn fn,
		     void *arg)
{
	if (ch == '\n') {
		if (in->discarding) {
			in->discarding = 0;
			in->len = 0;
			return 0;
		}
		in->buf[in->len] = 0;
		in->len = 0;
		fn(arg, in->buf, 0);
		return 1;
	}
	if (in->discarding)
		return 0;
	if (in->len + 1 >= SOAKPROTO_LINE_MAX) {
		/* no room for this byte and the newline: too long */
		in->discarding = 1;
		in->len = 0;
		fn(arg, NULL, 1);
		return 1;
	}
	in->buf[in->len++] = ch;
	return 0;
}

size_t soakproto_feed_one(struct soakproto_in *in, const char *data, size_t n,
			  soakproto_line_fn fn, void *arg)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (feed_byte(in, data[i], fn, arg))
			return i + 1;
	return n;
}

void soakproto_feed(struct soakproto_in *in, const char *data, size_t n,
		    soakproto_line_fn fn, void *arg)
{
	size_t used;

	while (n) {
		used = soakproto_feed_one(in, data, n, fn, arg);
		data += used;
		n -= used;
	}
}

/* What a command takes after its word. */
enum arg_kind {
	ARG_NONE,
	ARG_METERS, /* START: "soak,procstat" (lower case, as the table) */
	ARG_ONOFF,  /* SOAK: on or off, in any case, as the word */
};

static const struct {
	const char *word;
	enum soakproto_cmd cmd;
	enum arg_kind arg;
} cmds[] = {
	{"HELLO", SP_HELLO, ARG_NONE},	 {"PING", SP_PING, ARG_NONE},
	{"START", SP_START, ARG_METERS}, {"STOP", SP_STOP, ARG_NONE},
	{"REPORT", SP_REPORT, ARG_NONE}, {"CALIB", SP_CALIB, ARG_NONE},
	{"HOST", SP_HOST, ARG_NONE},	 {"QUIT", SP_QUIT, ARG_NONE},
	{"SOAK", SP_SOAK, ARG_ONOFF},
};

/* Copy at most 32 printable characters of s for an error message. */
static void printable(char *dst, size_t len, const char *s, size_t n)
{
	size_t i, j = 0;

	for (i = 0; i < n && j + 1 < len && i < 32; i++)
		dst[j++] = isprint((unsigned char)s[i]) ? s[i] : '?';
	dst[j] = 0;
}

/* The argument a[0..al) of a command of kind k into req (cmd set). */
static void parse_arg(const char *word, enum arg_kind k, const char *a,
		      size_t al, struct soakproto_req *req)
{
	char shown[40];

	if (al && k == ARG_NONE) {
		req->cmd = SP_BAD;
		snprintf(req->why, sizeof(req->why), "%s takes no argument",
			 word);
		return;
	}
	if (k == ARG_ONOFF) {
		if ((al == 2 && !strncasecmp(a, "on", 2)) ||
		    (al == 3 && !strncasecmp(a, "off", 3))) {
			snprintf(req->arg, sizeof(req->arg), "%s",
				 al == 2 ? "on" : "off");
			return;
		}
		req->cmd = SP_BAD;
		snprintf(req->why, sizeof(req->why), "%s takes on or off",
			 word);
		return;
	}
	if (al >= sizeof(req->arg) ||
	    strspn(a, "abcdefghijklmnopqrstuvwxyz,") < al) {
		req->cmd = SP_BAD;
		printable(shown, sizeof(shown), a, al);
		snprintf(req->why, sizeof(req->why),
			 "bad meter list \"%s\" (e.g. soak,procstat)", shown);
		return;
	}
	memcpy(req->arg, a, al);
	req->arg[al] = 0;
}

void soakproto_parse(const char *line, struct soakproto_req *req)
{
	const char *w, *a;
	size_t wl, al, i;
	char word[40];

	memset(req, 0, sizeof(*req));
	for (w = line; *w == ' ' || *w == '\t'; w++)
		;
	wl = strcspn(w, " \t\r");
	if (!wl) {
		req->cmd = SP_EMPTY;
		return;
	}
	for (a = w + wl; *a == ' ' || *a == '\t'; a++)
		;
	al = strlen(a);
	while (al &&
	       (a[al - 1] == ' ' || a[al - 1] == '\t' || a[al - 1] == '\r'))
		al--;
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strlen(cmds[i].word) != wl ||
		    strncasecmp(cmds[i].word, w, wl))
			continue;
		req->cmd = cmds[i].cmd;
		parse_arg(cmds[i].word, cmds[i].arg, a, al, req);
		return;
	}
	req->cmd = SP_UNKNOWN;
	printable(word, sizeof(word), w, wl);
	snprintf(req->why, sizeof(req->why), "unknown command %s", word);
}

int soakproto_reply(const char *line, const char **payload)
{
	if (!strncmp(line, "OK", 2) && (line[2] == 0 || line[2] == ' ')) {
		*payload = line[2] ? line + 3 : line + 2;
		return 1;
	}
	if (!strncmp(line, "ERR", 3) && (line[3] == 0 || line[3] == ' ')) {
		*payload = line[3] ? line + 4 : line + 3;
		return 0;
	}
	*payload = line;
	return -1;
}
