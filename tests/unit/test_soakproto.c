/* test_soakproto.c: line splitting and parsing of the --serve protocol. */
#include "config.h"
#include "soakproto.h"
#include "t.h"

struct got {
	int n, toolong;
	char last[SOAKPROTO_LINE_MAX];
};

static void on_line(void *arg, const char *line, int too_long)
{
	struct got *g = arg;

	if (too_long) {
		g->toolong++;
		return;
	}
	g->n++;
	snprintf(g->last, sizeof(g->last), "%s", line);
}

static void splitting(void)
{
	static char big[3 * SOAKPROTO_LINE_MAX];
	struct soakproto_in in = {0};
	struct got g = {0};

	/* lines may arrive in pieces */
	soakproto_feed(&in, "PI", 2, on_line, &g);
	T_CHECK(g.n == 0);
	soakproto_feed(&in, "NG\nHEL", 6, on_line, &g);
	T_CHECK(g.n == 1);
	T_STREQ(g.last, "PING");
	soakproto_feed(&in, "LO\n", 3, on_line, &g);
	T_STREQ(g.last, "HELLO");
	/* the longest line allowed passes, one more byte does not */
	memset(big, 'A', sizeof(big));
	big[SOAKPROTO_LINE_MAX - 2] = '\n';
	soakproto_feed(&in, big, SOAKPROTO_LINE_MAX - 1, on_line, &g);
	T_CHECK(g.n == 3 && g.toolong == 0);
	T_CHECK(strlen(g.last) == SOAKPROTO_LINE_MAX - 2);
	memset(big, 'A', sizeof(big));
	big[sizeof(big) - 1] = '\n';
	soakproto_feed(&in, big, 1000, on_line, &g);
	soakproto_feed(&in, big + 1000, sizeof(big) - 1000, on_line, &g);
	T_CHECK(g.toolong == 1); /* once per over-long line */
	T_CHECK(g.n == 3);	 /* its tail is not a command */
	soakproto_feed(&in, "PING\n", 5, on_line, &g);
	T_CHECK(g.n == 4); /* and the stream stays usable */
	T_STREQ(g.last, "PING");
}

/* One line at a time (the server runs one command per client per turn):
 * each call stops after the line it ends and says how far it read. */
static void one_at_a_time(void)
{
	static char big[2 * SOAKPROTO_LINE_MAX];
	const char *in3 = "PING\nHELLO\nPI";
	struct soakproto_in in = {0};
	struct got g = {0};

	T_CHECK(soakproto_feed_one(&in, in3, 13, on_line, &g) == 5);
	T_CHECK(g.n == 1);
	T_STREQ(g.last, "PING");
	T_CHECK(soakproto_feed_one(&in, in3 + 5, 8, on_line, &g) == 6);
	T_CHECK(g.n == 2);
	T_STREQ(g.last, "HELLO");
	T_CHECK(soakproto_feed_one(&in, in3 + 11, 2, on_line, &g) == 2);
	T_CHECK(g.n == 2); /* "PI" waits for the rest of its line */
	T_CHECK(soakproto_feed_one(&in, "NG\n", 3, on_line, &g) == 3);
	T_STREQ(g.last, "PING");
	/* an over-long line: one call for it, at the byte that made it so;
	 * its tail goes by without one, and then the next line */
	memset(big, 'A', sizeof(big));
	big[sizeof(big) - 6] = '\n';
	memcpy(big + sizeof(big) - 5, "QUIT\n", 5);
	T_CHECK(soakproto_feed_one(&in, big, sizeof(big), on_line, &g) ==
		SOAKPROTO_LINE_MAX);
	T_CHECK(g.toolong == 1 && g.n == 3);
	T_CHECK(soakproto_feed_one(&in, big + SOAKPROTO_LINE_MAX,
				   sizeof(big) - SOAKPROTO_LINE_MAX, on_line,
				   &g) == sizeof(big) - SOAKPROTO_LINE_MAX);
	T_CHECK(g.toolong == 1 && g.n == 4);
	T_STREQ(g.last, "QUIT");
}

static void parsing(void)
{
	struct soakproto_req r;

	soakproto_parse("HELLO", &r);
	T_CHECK(r.cmd == SP_HELLO);
	soakproto_parse("  ping\r", &r);
	T_CHECK(r.cmd == SP_PING);
	soakproto_parse("START", &r);
	T_CHECK(r.cmd == SP_START && r.arg[0] == 0);
	soakproto_parse("START soak,procstat  \r", &r);
	T_CHECK(r.cmd == SP_START);
	T_STREQ(r.arg, "soak,procstat");
	soakproto_parse("START soak;rm -rf", &r);
	T_CHECK(r.cmd == SP_BAD);
	T_CHECK(strstr(r.why, "meter list") != NULL);
	soakproto_parse("STOP now", &r);
	T_CHECK(r.cmd == SP_BAD);
	T_CHECK(strstr(r.why, "STOP takes no argument") != NULL);
	soakproto_parse("REPORT", &r);
	T_CHECK(r.cmd == SP_REPORT);
	soakproto_parse("CALIB", &r);
	T_CHECK(r.cmd == SP_CALIB);
	soakproto_parse("HOST", &r);
	T_CHECK(r.cmd == SP_HOST);
	soakproto_parse("quit", &r);
	T_CHECK(r.cmd == SP_QUIT);
	soakproto_parse("", &r);
	T_CHECK(r.cmd == SP_EMPTY);
	soakproto_parse("   \t", &r);
	T_CHECK(r.cmd == SP_EMPTY);
	soakproto_parse("FROB x y", &r);
	T_CHECK(r.cmd == SP_UNKNOWN);
	T_STREQ(r.why, "unknown command FROB");
	soakproto_parse("\x01\x02zap", &r);
	T_CHECK(r.cmd == SP_UNKNOWN);
	T_STREQ(r.why, "unknown command ??zap");
	soakproto_parse("STARTX", &r);
	T_CHECK(r.cmd == SP_UNKNOWN);
	soakproto_parse("SOAK off", &r);
	T_CHECK(r.cmd == SP_SOAK);
	T_STREQ(r.arg, "off");
	soakproto_parse("soak on", &r);
	T_CHECK(r.cmd == SP_SOAK);
	T_STREQ(r.arg, "on");
	soakproto_parse("SOAK", &r);
	T_CHECK(r.cmd == SP_BAD);
	T_STREQ(r.why, "SOAK takes on or off");
	soakproto_parse("SOAK maybe", &r);
	T_CHECK(r.cmd == SP_BAD);
	T_STREQ(r.why, "SOAK takes on or off");
	/* commands are case-insensitive, and so is SOAK's word: SOAK OFF
	 * parks (it was "ERR bad meter list \"OFF\"") */
	soakproto_parse("SOAK OFF", &r);
	T_CHECK(r.cmd == SP_SOAK);
	T_STREQ(r.arg, "off");
	soakproto_parse("Soak On\r", &r);
	T_CHECK(r.cmd == SP_SOAK);
	T_STREQ(r.arg, "on");
	soakproto_parse("SOAK off!", &r);
	T_CHECK(r.cmd == SP_BAD);
	T_STREQ(r.why, "SOAK takes on or off");
	soakproto_parse("SOAK off;reboot", &r);
	T_CHECK(r.cmd == SP_BAD);
	T_STREQ(r.why, "SOAK takes on or off");
}

static void replies(void)
{
	const char *p;

	T_CHECK(soakproto_reply("OK 12", &p) == 1);
	T_STREQ(p, "12");
	T_CHECK(soakproto_reply("OK", &p) == 1);
	T_STREQ(p, "");
	T_CHECK(soakproto_reply("ERR no window open", &p) == 0);
	T_STREQ(p, "no window open");
	T_CHECK(soakproto_reply("OKAY", &p) == -1);
	T_CHECK(soakproto_reply("HTTP/1.1 200", &p) == -1);
	T_CHECK(soakproto_reply("", &p) == -1);
}

int main(void)
{
	splitting();
	one_at_a_time();
	parsing();
	replies();
	return t_done();
}
