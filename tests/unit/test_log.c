/* test_log.c: diagnostics go to stderr with the program's name; die()
 * exits 1 after running the hook (a failed document is still written),
 * die_usage() exits 2; -q silences warnings, not errors. */
#include "config.h"
#include "log.h"
#include "t.h"

#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

static int child(void (*f)(void), char *msg, size_t len)
{
	int p[2], st = 0;
	ssize_t n, got = 0;
	pid_t pid;

	T_ASSERT(pipe(p) == 0);
	pid = fork();
	T_ASSERT(pid >= 0);
	if (!pid) {
		dup2(p[1], 2);
		dup2(p[1], 1);
		f();
		_exit(0);
	}
	close(p[1]);
	while ((n = read(p[0], msg + got, len - 1 - (size_t)got)) > 0)
		got += n;
	msg[got] = '\0';
	close(p[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void hook(const char *m)
{
	printf("hook saw: %s\n", m);
	fflush(stdout);
}

static void do_die(void)
{
	log_init("/usr/bin/mytool");
	log_set_die_hook(hook);
	die("peer %s died in phase %s", "B", "data");
}

static void do_die_errno(void)
{
	log_init("mytool");
	errno = ECONNREFUSED;
	die_errno("connect to %s", "127.0.0.1:5001");
}

static void do_usage(void)
{
	log_init("mytool");
	die_usage("-l: \"x\" is not a size");
}

static void do_levels(void)
{
	log_init("mytool");
	log_info("info shown");
	log_warn("warning %d shown", 1);
	log_verbose("verbose hidden");
	log_level = LOG_VERBOSE;
	log_verbose("verbose shown");
	log_debug("debug hidden");
	log_level = LOG_QUIET;
	log_warn("warning hidden");
	log_info("info hidden");
	log_err("error shown");
}

int main(void)
{
	char msg[4096];

	T_CHECK(child(do_die, msg, sizeof(msg)) == 1);
	T_CHECK(strstr(msg, "mytool: peer B died in phase data") != NULL);
	T_CHECK(strstr(msg, "hook saw: peer B died in phase data") != NULL);
	T_CHECK(strstr(msg, "/usr/bin") == NULL);

	T_CHECK(child(do_die_errno, msg, sizeof(msg)) == 1);
	T_CHECK(strstr(msg, "connect to 127.0.0.1:5001: Connection refused") !=
		NULL);

	T_CHECK(child(do_usage, msg, sizeof(msg)) == 2);
	T_CHECK(strstr(msg, "mytool: -l: \"x\" is not a size") != NULL);

	T_CHECK(child(do_levels, msg, sizeof(msg)) == 0);
	T_CHECK(strstr(msg, "mytool: info shown\n") != NULL);
	T_CHECK(strstr(msg, "mytool: warning: warning 1 shown\n") != NULL);
	T_CHECK(strstr(msg, "verbose hidden") == NULL);
	T_CHECK(strstr(msg, "mytool: verbose shown\n") != NULL);
	T_CHECK(strstr(msg, "debug hidden") == NULL);
	T_CHECK(strstr(msg, "warning hidden") == NULL);
	T_CHECK(strstr(msg, "info hidden") == NULL);
	T_CHECK(strstr(msg, "mytool: error: error shown\n") != NULL);
	return t_done();
}
