/* test_remotecpu.c: the --serve client against a scripted fake server:
 * good replies, ERR lines, silence, junk, hang-ups, huge replies, and
 * reports whose strings hold terminal escapes. */
#include "config.h"
#include "remotecpu.h"
#include "sock.h"
#include "t.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *report =
	"{\"host\":{\"hostname\":\"fake\"},\"window\":7,\"cpu\":[{\"meter\":"
	"\"procstat\",\"ok\":true,\"scope\":\"box\",\"elapsed_s\":1.0,"
	"\"ncpu\":2,\"busy_pct\":12.5,\"softirq_pct\":1.5}]}";

/* A meter the table does not have, and a perf counter, a reason and a
 * note with escapes in them (issue 22: printed raw by the tools). */
static const char *hostile_meter =
	"{\"host\":{},\"cpu\":[{\"meter\":\"procstat\\u001b[5m\","
	"\"ok\":true,\"scope\":\"box\",\"elapsed_s\":1.0,\"ncpu\":2,"
	"\"busy_pct\":12.5}]}";
static const char *hostile_strings =
	"{\"host\":{},\"cpu\":[{\"meter\":\"perf\",\"ok\":true,"
	"\"scope\":\"process\",\"elapsed_s\":1.0,\"ncpu\":2,"
	"\"busy_pct\":1,\"note\":\"n\\u001b]0;T\\u0007\","
	"\"counters\":{\"cyc\\u001b[2Jles\":{\"ok\":false,"
	"\"why\":\"no\\u009b PMU\"}}}]}";

static void say(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) < 0)
		_exit(1);
}

static void serve_one(int c, const char *mode)
{
	char line[4096];
	size_t n = 0;
	ssize_t r;

	while ((r = read(c, line + n, 1)) == 1) {
		if (line[n] != '\n' && n < sizeof(line) - 2) {
			n++;
			continue;
		}
		line[n] = 0;
		n = 0;
		if (!strcmp(line, "HELLO"))
			say(c,
			    !strcmp(mode, "version")
				    ? "OK other/9\n"
			    : !strcmp(mode, "hostile-version")
				    ? "OK \x1b]0;T\x07other/9\n"
				    : "OK zcbench-soak/1 host=fake cpus=2 default=procstat\n");
		else if (!strncmp(line, "START", 5))
			say(c, !strcmp(mode, "err")
				       ? "ERR unknown CPU meter \"x\"\n"
			       : !strcmp(mode, "hostile-err")
				       ? "ERR \x1b[2Jgone\n"
			       : !strcmp(mode, "hostile-junk")
				       ? "\x1b[5mHTTP/1.0 400\n"
				       : "OK 7\n");
		else if (!strcmp(line, "STOP") || !strcmp(line, "REPORT")) {
			if (!strcmp(mode, "stall"))
				sleep(3);
			if (!strcmp(mode, "stall") || !strcmp(mode, "close"))
				return;
			if (!strcmp(mode, "junk"))
				say(c, "HTTP/1.0 400 Bad\n");
			else if (!strcmp(mode, "badjson"))
				say(c, "OK {not json\n");
			else if (!strcmp(mode, "hostile-meter") ||
				 !strcmp(mode, "hostile-strings")) {
				say(c, "OK ");
				say(c, mode[8] == 'm' ? hostile_meter
						      : hostile_strings);
				say(c, "\n");
			}
			else if (!strcmp(mode, "huge"))
				for (int i = 0; i < 2100; i++) {
					static char kb[1024];

					memset(kb, 'x', sizeof(kb));
					if (write(c, kb, sizeof(kb)) < 0)
						return;
				}
			else {
				say(c, "OK ");
				say(c, report);
				say(c, "\n");
			}
		} else if (!strcmp(line, "HOST"))
			say(c, "OK {\"hostname\":\"fake\"}\n");
		else if (!strcmp(line, "QUIT"))
			return;
	}
}

static pid_t fake(const char *mode, int *port)
{
	char err[256];
	int l = sock_listen("127.0.0.1", 0, SOCK_STREAM, 4, port, err,
			    sizeof(err));
	pid_t p;

	T_ASSERT(l >= 0);
	p = fork();
	if (p == 0) {
		int c = accept(l, NULL, NULL);

		serve_one(c, mode);
		_exit(0);
	}
	close(l);
	return p;
}

static struct remotecpu *connect_to(int port, int ms, char *err, size_t len)
{
	char hp[64];

	snprintf(hp, sizeof(hp), "127.0.0.1:%d", port);
	return remotecpu_open(hp, ms, err, len);
}

static void finish(pid_t p)
{
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
}

static int stop_in_mode(const char *mode, char *err, size_t len)
{
	struct cpu_sample s[METER_MAX];
	struct remotecpu *r;
	int port, k;
	pid_t p = fake(mode, &port);

	r = connect_to(port, 300, err, len);
	T_ASSERT(r);
	T_CHECK(remotecpu_start(r, NULL, err, len) == 0);
	k = remotecpu_stop(r, s, METER_MAX, err, len);
	remotecpu_close(r);
	finish(p);
	return k;
}

int main(void)
{
	struct cpu_sample s[METER_MAX];
	struct remotecpu *r;
	char err[512];
	json_t *h;
	int port, k;
	pid_t p;

	signal(SIGPIPE, SIG_IGN);
	/* the good path */
	p = fake("good", &port);
	r = connect_to(port, 2000, err, sizeof(err));
	T_ASSERT(r);
	T_CHECK(remotecpu_start(r, "procstat", err, sizeof(err)) == 0);
	T_CHECK(remotecpu_report(r, s, METER_MAX, err, sizeof(err)) == 1);
	k = remotecpu_stop(r, s, METER_MAX, err, sizeof(err));
	T_CHECK(k == 1);
	T_STREQ(s[0].meter, "procstat");
	T_NEAR(s[0].busy_pct, 12.5, 1e-9);
	T_NEAR(s[0].softirq_pct, 1.5, 1e-9);
	h = remotecpu_host(r);
	T_CHECK(h && !strcmp(json_string_value(json_object_get(h, "hostname")),
			     "fake"));
	json_decref(h);
	remotecpu_close(r);
	finish(p);

	/* the server says no: its reason, the server and the phase */
	p = fake("err", &port);
	r = connect_to(port, 2000, err, sizeof(err));
	T_ASSERT(r);
	T_CHECK(remotecpu_start(r, "x", err, sizeof(err)) == -EREMOTEIO);
	T_CHECK(strstr(err, "unknown CPU meter") && strstr(err, "START") &&
		strstr(err, "127.0.0.1"));
	remotecpu_close(r);
	finish(p);

	/* silence, junk, hang-up, bad JSON, a reply without end */
	T_CHECK(stop_in_mode("stall", err, sizeof(err)) == -ETIMEDOUT);
	T_CHECK(strstr(err, "STOP") && strstr(err, "no reply"));
	T_CHECK(stop_in_mode("junk", err, sizeof(err)) == -EPROTO);
	T_CHECK(strstr(err, "not a protocol reply") != NULL);
	T_CHECK(stop_in_mode("close", err, sizeof(err)) == -EPIPE);
	T_CHECK(strstr(err, "connection closed") != NULL);
	T_CHECK(stop_in_mode("badjson", err, sizeof(err)) == -EPROTO);
	T_CHECK(stop_in_mode("huge", err, sizeof(err)) == -EPROTO);
	T_CHECK(strstr(err, "longer than") != NULL);

	/* a meter name from the server must be one of the table's: refused,
	 * named escaped; other strings arrive escaped */
	T_CHECK(stop_in_mode("hostile-meter", err, sizeof(err)) == -EINVAL);
	T_CHECK(strstr(err, "unknown meter \"procstat\\x1b[5m\"") &&
		strstr(err, "STOP") && !strchr(err, '\x1b'));
	p = fake("hostile-strings", &port);
	r = connect_to(port, 2000, err, sizeof(err));
	T_ASSERT(r);
	T_CHECK(remotecpu_start(r, NULL, err, sizeof(err)) == 0);
	T_CHECK(remotecpu_stop(r, s, METER_MAX, err, sizeof(err)) == 1);
	T_STREQ(s[0].meter, "perf");
	T_STREQ(s[0].note, "n\\x1b]0;T\\x07");
	T_CHECK(s[0].ncounters == 1);
	T_STREQ(s[0].ctr[0].name, "cyc\\x1b[2Jles");
	T_STREQ(s[0].ctr[0].why, "no\\u009b PMU");
	remotecpu_close(r);
	finish(p);

	/* what the server says in an error, or instead of a reply, or as
	 * its version, is shown escaped */
	p = fake("hostile-err", &port);
	r = connect_to(port, 2000, err, sizeof(err));
	T_ASSERT(r);
	T_CHECK(remotecpu_start(r, NULL, err, sizeof(err)) == -EREMOTEIO);
	T_CHECK(strstr(err, "START: \\x1b[2Jgone") && !strchr(err, '\x1b'));
	remotecpu_close(r);
	finish(p);
	p = fake("hostile-junk", &port);
	r = connect_to(port, 2000, err, sizeof(err));
	T_ASSERT(r);
	T_CHECK(remotecpu_start(r, NULL, err, sizeof(err)) == -EPROTO);
	T_CHECK(strstr(err, "not a protocol reply: \\x1b[5mHTTP") &&
		!strchr(err, '\x1b'));
	remotecpu_close(r);
	finish(p);
	p = fake("hostile-version", &port);
	T_CHECK(connect_to(port, 2000, err, sizeof(err)) == NULL);
	T_CHECK(strstr(err, "speaks \"\\x1b]0;T\\x07other/9\"") &&
		!strchr(err, '\x1b') && !strchr(err, '\a'));
	finish(p);

	/* another protocol on the port, and nobody at all */
	p = fake("version", &port);
	T_CHECK(connect_to(port, 2000, err, sizeof(err)) == NULL);
	T_CHECK(strstr(err, "other/9") != NULL);
	finish(p);
	T_CHECK(connect_to(port, 500, err, sizeof(err)) == NULL);
	T_CHECK(remotecpu_open("no:port:here:x", 500, err, sizeof(err)) ==
		NULL);
	return t_done();
}
