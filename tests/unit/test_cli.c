/* test_cli.c: option values parse, or exit 2 naming the option. */
#include "config.h"
#include "cli.h"
#include "t.h"

#include <sys/wait.h>
#include <unistd.h>

/* Run f in a child with stderr to a pipe; return its exit status and
 * what it printed. */
static int child(void (*f)(void), char *msg, size_t len)
{
	int p[2], st = 0;
	ssize_t n;
	pid_t pid;

	T_ASSERT(pipe(p) == 0);
	pid = fork();
	T_ASSERT(pid >= 0);
	if (!pid) {
		dup2(p[1], 2);
		f();
		_exit(0);
	}
	close(p[1]);
	n = read(p[0], msg, len - 1);
	msg[n > 0 ? n : 0] = '\0';
	close(p[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void bad_long(void) { cli_long("--rooms", "ten", 1, 100); }
static void big_long(void) { cli_long("--rooms", "101", 1, 100); }
static void bad_size(void) { cli_size("-l", "32q", 1, 1 << 20); }
static void bad_dur(void) { cli_duration("--duration", "0", 0, 60); }
static void long_dur(void) { cli_duration("--duration", "2m", 0, 60); }
static void bad_double(void) { cli_double("--alpha", "2", 1e-9, 0.5); }
static void bad_conf(void)
{
	double l, w;

	cli_confidence("--confidence", "40,5", &l, &w);
}
static void short_dur(void) { cli_duration("-p", "1ms", 0.01, 60); }

int main(void)
{
	char msg[512];

	T_CHECK(cli_long("--rooms", "10", 1, 100) == 10);
	T_CHECK(cli_size("-l", "32k", 1, 1 << 20) == 32768);
	T_NEAR(cli_duration("--duration", "250ms", 0, 60), 0.25, 1e-12);

	T_NEAR(cli_double("--alpha", "0.05", 1e-9, 0.5), 0.05, 0);
	{
		double l = 0, w = 0;

		cli_confidence("--confidence", "99,2", &l, &w);
		T_CHECK(l == 99 && w == 2);
		cli_confidence("--confidence", "95", &l, &w);
		T_CHECK(l == 95 && w == 5);
	}
	T_CHECK(child(bad_double, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "--alpha: \"2\"") != NULL);
	T_CHECK(child(bad_conf, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "LEVEL,WIDTH") != NULL);
	T_CHECK(child(bad_long, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "--rooms") && strstr(msg, "\"ten\""));
	T_CHECK(child(big_long, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "1..100") != NULL);
	T_CHECK(child(bad_size, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "-l: \"32q\" is not a size") != NULL);
	T_CHECK(child(bad_dur, msg, sizeof(msg)) == 2);
	T_CHECK(child(long_dur, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "--duration") != NULL);
	T_CHECK(child(short_dur, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "0.01s..60s") != NULL);
	return t_done();
}
