/* soakproto.c: line splitting and parsing of the cyclesoak --serve protocol. */
#include "config.h"
#include "soakproto.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

void soakproto_feed(struct soakproto_in *in, const char *data, size_t n,
		    soakproto_line_fn fn, void *arg)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char ch = data[i];

		if (ch == '\n') {
			if (in->discarding) {
				in->discarding = 0;
			} else {
				in->buf[in->len] = 0;
				fn(arg, in->buf, 0);
			}
			in->len = 0;
			continue;
		}
		if (in->discarding)
			continue;
		if (in->len + 1 >= SOAKPROTO_LINE_MAX) {
			/* no room for this byte and the newline: too long */
			in->discarding = 1;
			in->len = 0;
			fn(arg, NULL, 1);
			continue;
		}
		in->buf[in->len++] = ch;
	}
}

static const struct {
	const char *word;
	enum soakproto_cmd cmd;
	int takes_arg;
} cmds[] = {
	{"HELLO", SP_HELLO, 0},	  {"PING", SP_PING, 0},
	{"START", SP_START, 1},	  {"STOP", SP_STOP, 0},
	{"REPORT", SP_REPORT, 0}, {"CALIB", SP_CALIB, 0},
	{"HOST", SP_HOST, 0},	  {"QUIT", SP_QUIT, 0},
	{"SOAK", SP_SOAK, 1},
};

/* Copy at most 32 printable characters of s for an error message. */
static void printable(char *dst, size_t len, const char *s, size_t n)
{
	size_t i, j = 0;

	for (i = 0; i < n && j + 1 < len && i < 32; i++)
		dst[j++] = isprint((unsigned char)s[i]) ? s[i] : '?';
	dst[j] = 0;
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
		if (al && !cmds[i].takes_arg) {
			req->cmd = SP_BAD;
			snprintf(req->why, sizeof(req->why),
				 "%s takes no argument", cmds[i].word);
			return;
		}
		if (al >= sizeof(req->arg) ||
		    strspn(a, "abcdefghijklmnopqrstuvwxyz,") < al) {
			req->cmd = SP_BAD;
			printable(word, sizeof(word), a, al);
			snprintf(req->why, sizeof(req->why),
				 "bad meter list \"%s\" (e.g. soak,procstat)",
				 word);
			return;
		}
		memcpy(req->arg, a, al);
		req->arg[al] = 0;
		if (req->cmd == SP_SOAK && strcmp(req->arg, "on") &&
		    strcmp(req->arg, "off")) {
			req->cmd = SP_BAD;
			snprintf(req->why, sizeof(req->why),
				 "SOAK takes on or off");
		}
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
