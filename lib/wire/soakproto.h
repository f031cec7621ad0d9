/*
 * soakproto.h: the line protocol of `cyclesoak --serve` (man cyclesoak,
 * PROTOCOL). One command per line, one reply line per command:
 *
 *   HELLO               OK zcbench-soak/1 host=NAME cpus=N default=LIST
 *   PING                OK PONG
 *   START [METERS]      OK <window-id>       (METERS: "soak,procstat")
 *   REPORT              OK <json>            the open window so far
 *   STOP                OK <json>            and the window closes
 *   CALIB               OK <json>            the stored calibration
 *   HOST                OK <json>            host facts
 *   QUIT                OK bye               and the server hangs up
 *   SOAK off|on         OK off|on            park this box's soakers for
 *                                            the following windows (an
 *                                            unmetered run of a pair)
 *                                            until SOAK on or hang-up
 *
 * Command words are case-insensitive, and so is SOAK's off or on.
 *
 * <json> is one line: {"host": {...}, "cpu": [cpu_sample...], "window":
 * ID, "elapsed_s": S}. Errors are "ERR <reason>". A command line longer
 * than SOAKPROTO_LINE_MAX gets "ERR line too long" and the rest of it is
 * discarded; the connection stays usable.
 */
#ifndef ZCB_SOAKPROTO_H
#define ZCB_SOAKPROTO_H

#include <stddef.h>

#define SOAKPROTO_VERSION   "zcbench-soak/1"
#define SOAKPROTO_LINE_MAX  4096	  /* a command line, newline included */
#define SOAKPROTO_REPLY_MAX (1024 * 1024) /* a reply line */

/* Splits a byte stream into lines, never holding more than LINE_MAX. */
struct soakproto_in {
	char buf[SOAKPROTO_LINE_MAX]; /* the line so far */
	size_t len;
	int discarding; /* inside an over-long line */
};

/* line is NUL-terminated without its newline; too_long: line is NULL. */
typedef void (*soakproto_line_fn)(void *arg, const char *line, int too_long);
void soakproto_feed(struct soakproto_in *in, const char *data, size_t n,
		    soakproto_line_fn fn, void *arg);
/* The same, but stops after the first call of fn (a line, or one found
 * too long): returns the bytes used, n when fn was not called. A server
 * runs one command of a client at a time this way. */
size_t soakproto_feed_one(struct soakproto_in *in, const char *data, size_t n,
			  soakproto_line_fn fn, void *arg);

enum soakproto_cmd {
	SP_EMPTY, /* blank line: ignored */
	SP_HELLO,
	SP_PING,
	SP_START,
	SP_STOP,
	SP_REPORT,
	SP_CALIB,
	SP_HOST,
	SP_QUIT,
	SP_SOAK, /* arg "on" / "off" */
	SP_UNKNOWN, /* why says which word */
	SP_BAD,	    /* a known command used wrongly: why */
};

struct soakproto_req {
	enum soakproto_cmd cmd;
	char arg[256]; /* START's meter list ("" = default), SOAK's on/off */
	char why[160]; /* for SP_UNKNOWN / SP_BAD */
};

/* Parse one command line (no newline). Never fails: see req->cmd. */
void soakproto_parse(const char *line, struct soakproto_req *req);
/* A reply line: 1 "OK", payload after it; 0 "ERR", payload the reason;
 * -1 neither. */
int soakproto_reply(const char *line, const char **payload);

#endif
