/*
 * run.c: cyclesoak's two everyday modes. Alone it prints the box's load
 * each period, as the original did; with `-- CMD ARGS` it runs CMD and
 * prints every meter side by side for the time CMD ran.
 */
#include "config.h"
#include "clock.h"
#include "cyclesoak.h"
#include "log.h"
#include "pidcpu.h"
#include "sig.h"
#include "soak.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Where the human text goes: stderr when -J took stdout. */
static FILE *txt(const struct cfg *c)
{
	return c->json_out && !strcmp(c->json_out, "-") ? stderr : stdout;
}

/* --- monitor ------------------------------------------------------------ */

static void print_period(FILE *f, const struct cpu_sample *s)
{
	int i;

	fprintf(f, "System load: %5.1f%%   free:", s->busy_pct);
	for (i = 0; i < s->ncpu; i++)
		fprintf(f, " cpu%d %5.1f%%", i, 100.0 - s->percpu_busy[i]);
	fputc('\n', f);
	fflush(f);
}

int do_monitor(const struct cfg *c)
{
	struct res_doc *d = cs_doc(c);
	struct meter_opts mo;
	struct cpu_sample s;
	struct meter *m;
	double sum = 0;
	char err[512];
	long n = 0;
	json_t *kase = NULL;
	int r = 0;

	cs_meter_opts(c, &mo);
	cs_warn_calibration(c, d, "soak");
	m = meter_open("soak", &mo, err, sizeof(err));
	if (!m)
		die("soak meter: %s", err);
	if (d)
		kase = res_case(d, json_pack("{s:s, s:s}", "load", "monitor",
					     "meter", "soak"));
	meter_start(m);
	while (!sig_stop && (!c->count || n < c->count)) {
		if (clock_sleep(c->period_s) || sig_stop)
			break;
		if (meter_stop(m, &s))
			die("soak meter: %s", s.why);
		meter_start(m);
		print_period(txt(c), &s);
		if (n == 0)
			log_verbose("%s", s.note);
		sum += s.busy_pct;
		n++;
		if (kase) {
			json_t *smp = json_object();

			meter_add_metrics(d, smp, "box", &s, 1, 0, 0);
			meter_add_raw(smp, "box", &s, 1);
			res_sample(kase, smp);
		}
	}
	meter_close(m);
	fprintf(stderr,
		"cyclesoak: %ld period%s, mean system load %.1f%% (soak)%s\n",
		n, n == 1 ? "" : "s", n ? sum / n : 0.0,
		sig_stop ? ", interrupted" : "");
	if (d) {
		r = res_finish(d) ? 1 : 0;
		res_free(d);
	}
	return r;
}

/* --- run a command ------------------------------------------------------ */

/* Default for -- CMD: soak when calibrated, procstat, rusage, perf. */
static const char *run_meters(const struct cfg *c, const struct meter_opts *mo)
{
	if (c->meters)
		return c->meters;
	return strcmp(meter_default_list(mo), "soak")
		       ? "procstat,rusage,perf"
		       : "soak,procstat,rusage,perf";
}

#define CMD_KILL_WAIT_S 3.0  /* a stopped CMD's grace before SIGKILL */
#define CMD_TREE_MAX	1024 /* CMD's descendants signalled at most */

/* Fork CMD held at a pipe until the meters run; errpipe reports exec
 * failure. CMD gets SIGTERM if cyclesoak dies, even by SIGKILL.
 * Returns the pid. */
static pid_t spawn(char **cmd, int *go, int *errpipe)
{
	int g[2], e[2], er;
	pid_t p, me = getpid();
	char b;

	if (pipe2(g, O_CLOEXEC) || pipe2(e, O_CLOEXEC))
		die_errno("pipe");
	p = fork();
	if (p < 0)
		die_errno("fork");
	if (p == 0) {
		signal(SIGPIPE, SIG_DFL);
		sig_die_with_parent(SIGTERM, me);
		close(g[1]);
		close(e[0]);
		if (read(g[0], &b, 1) != 1)
			_exit(127);
		execvp(cmd[0], cmd);
		er = errno;
		if (write(e[1], &er, sizeof(er)) < 0)
			_exit(127);
		_exit(127);
	}
	close(g[0]);
	close(e[1]);
	*go = g[1];
	*errpipe = e[0];
	return p;
}

/* Signal CMD and every process under it (a shell's children too). */
static void signal_tree(pid_t p, int sig)
{
	pid_t kids[CMD_TREE_MAX];
	int n = pidcpu_descendants(NULL, p, kids, CMD_TREE_MAX), i;

	kill(p, sig);
	for (i = 0; i < n; i++)
		kill(kids[i], sig);
}

/*
 * Wait for CMD. When cyclesoak is told to stop (INT, TERM, HUP), CMD and
 * its descendants get SIGINT (for INT) or SIGTERM, and SIGKILL if CMD is
 * still there CMD_KILL_WAIT_S later; CMD is always reaped.
 */
static int wait_cmd(pid_t p, const char *name, struct rusage *ru)
{
	double deadline = 0;
	int st, killed = 0;
	pid_t r;

	memset(ru, 0, sizeof(*ru));
	for (;;) {
		/* a signal may have come before we got here, too */
		if (sig_stop && !deadline) {
			signal_tree(p, sig_stop == SIGINT ? SIGINT : SIGTERM);
			deadline = clock_now() + CMD_KILL_WAIT_S;
		}
		if (deadline && !killed && clock_now() >= deadline) {
			log_warn(
				"%s still running %.0f s after the signal: killing it",
				name, CMD_KILL_WAIT_S);
			signal_tree(p, SIGKILL);
			killed = 1;
		}
		r = wait4(p, &st, deadline && !killed ? WNOHANG : 0, ru);
		if (r == p)
			break;
		if (r == 0) {
			clock_sleep(0.05);
			continue;
		}
		if (errno != EINTR)
			die_errno("wait for the command");
	}
	return st;
}

static void record(const struct cfg *c, struct res_doc *d,
		   const struct cpu_sample *s, int n, double elapsed,
		   const struct rusage *ru, int status)
{
	json_t *kase, *smp = json_object(), *cmd = json_array();
	int i;

	for (i = 0; c->cmd[i]; i++)
		json_array_append_new(cmd, json_string(c->cmd[i]));
	kase = res_case(d, json_pack("{s:s, s:s}", "load", "command", "meter",
				     s[0].meter));
	meter_add_metrics(d, smp, "box", s, n, 0, 0);
	meter_add_raw(smp, "box", s, n);
	res_metric(d, "elapsed_s", "s", RES_LOWER, 0);
	res_sample_set(smp, "elapsed_s", elapsed);
	json_object_set_new(smp, "command", cmd);
	json_object_set_new(smp, "exit_status", json_integer(status));
	json_object_set_new(
		smp, "cmd_rusage",
		json_pack("{s:f, s:f, s:I, s:I}", "utime_s",
			  ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6,
			  "stime_s",
			  ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6,
			  "nvcsw", (json_int_t)ru->ru_nvcsw, "nivcsw",
			  (json_int_t)ru->ru_nivcsw));
	res_sample(kase, smp);
}

int do_run(const struct cfg *c)
{
	struct cpu_sample s[METER_MAX];
	struct res_doc *d = cs_doc(c);
	struct meter_opts mo;
	struct meterset set;
	struct rusage ru;
	const char *list;
	char err[512];
	int go, ep, st, n, er, code, i, wfail = 0;
	double t0, el, ut, stt;
	pid_t p;

	cs_meter_opts(c, &mo);
	list = run_meters(c, &mo);
	cs_warn_calibration(c, d, list);
	p = spawn(c->cmd, &go, &ep);
	mo.pid = p; /* perf counts CMD and its children */
	if (meterset_open(&set, list, &mo, err, sizeof(err))) {
		kill(p, SIGKILL);
		waitpid(p, NULL, 0);
		die("%s", err);
	}
	if (sig_stop) { /* stopped while the meters opened: CMD never runs */
		kill(p, SIGKILL);
		waitpid(p, NULL, 0);
		meterset_close(&set);
		log_err("stopped by signal %d before %s started", (int)sig_stop,
			c->cmd[0]);
		if (d) {
			res_fail(d, "stopped by signal %d before %s started",
				 (int)sig_stop, c->cmd[0]);
			res_finish(d);
			res_free(d);
		}
		return sig_exit_status();
	}
	meterset_start(&set);
	t0 = clock_now();
	if (write(go, "g", 1) != 1)
		die_errno("start the command");
	close(go);
	st = wait_cmd(p, c->cmd[0], &ru);
	el = clock_now() - t0;
	n = meterset_stop(&set, s);
	meterset_close(&set);
	if (read(ep, &er, sizeof(er)) == (ssize_t)sizeof(er)) {
		log_err("cannot run %s: %s", c->cmd[0], strerror(er));
		if (d)
			res_fail(d, "cannot run %s: %s", c->cmd[0],
				 strerror(er));
	}
	close(ep);
	code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	ut = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	stt = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	fprintf(txt(c), "cyclesoak: %s ran %.2fs\n", c->cmd[0], el);
	meter_print(txt(c), "box", s, n, 0);
	fprintf(txt(c),
		"  cmd rusage: usr %.3fs sys %.3fs (%s and its children)\n", ut,
		stt, c->cmd[0]);
	if (d) {
		record(c, d, s, n, el, &ru, code);
		if (sig_stop && !res_failed(d))
			res_fail(d, "stopped by signal %d; command %s %s %d",
				 (int)sig_stop, c->cmd[0],
				 WIFEXITED(st) ? "exited with status"
					       : "was killed by signal",
				 WIFEXITED(st) ? code : WTERMSIG(st));
		if (code && !res_failed(d))
			res_fail(d, "command %s %s %d", c->cmd[0],
				 WIFEXITED(st) ? "exited with status"
					       : "was killed by signal",
				 WIFEXITED(st) ? code : WTERMSIG(st));
		wfail = res_finish(d) != 0;
		res_free(d);
	}
	fflush(txt(c));
	for (i = 0; i < n && !s[i].ok; i++)
		;
	fprintf(stderr,
		"cyclesoak: %s %s %d after %.2fs; box load %.1f%% (%s)\n",
		c->cmd[0], WIFEXITED(st) ? "exited" : "killed by signal",
		WIFEXITED(st) ? code : WTERMSIG(st), el,
		i < n ? s[i].busy_pct : 0.0, i < n ? s[i].meter : "no meter");
	if (sig_stop)
		return sig_exit_status();
	return code ? code : wfail;
}
