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
		print_period(cli_text(&c->cli), &s);
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
	if (c->cli.cpu_list)
		return c->cli.cpu_list;
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
	pid_t p = cs_fork_held(SIGTERM, go, errpipe);
	int er;

	if (p)
		return p;
	signal(SIGPIPE, SIG_DFL);
	execvp(cmd[0], cmd);
	er = errno;
	if (write(*errpipe, &er, sizeof(er)) < 0)
		_exit(127);
	_exit(127);
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

/* What became of CMD. */
struct outcome {
	struct cpu_sample s[METER_MAX]; /* the meters over its run */
	int n;
	double elapsed;	  /* seconds */
	struct rusage ru; /* CMD and its children */
	int st;		  /* wait status */
	int code;	  /* exit status, or 128 + signal */
};

/* "exited with status" 3, "was killed by signal" 9 */
static const char *how(const struct outcome *o)
{
	return WIFEXITED(o->st) ? "exited with status" : "was killed by signal";
}

static int how_n(const struct outcome *o)
{
	return WIFEXITED(o->st) ? o->code : WTERMSIG(o->st);
}

static double secs(const struct timeval *tv)
{
	return tv->tv_sec + tv->tv_usec / 1e6;
}

static void record(const struct cfg *c, struct res_doc *d,
		   const struct outcome *o)
{
	json_t *kase, *smp = json_object(), *cmd = json_array();
	int i;

	for (i = 0; c->cmd[i]; i++)
		json_array_append_new(cmd, json_string(c->cmd[i]));
	kase = res_case(d, json_pack("{s:s, s:s}", "load", "command", "meter",
				     o->s[0].meter));
	meter_add_metrics(d, smp, "box", o->s, o->n, 0, 0);
	meter_add_raw(smp, "box", o->s, o->n);
	res_metric(d, "elapsed_s", "s", RES_LOWER, 0);
	res_sample_set(smp, "elapsed_s", o->elapsed);
	json_object_set_new(smp, "command", cmd);
	json_object_set_new(smp, "exit_status", json_integer(o->code));
	json_object_set_new(smp, "cmd_rusage",
			    json_pack("{s:f, s:f, s:I, s:I}", "utime_s",
				      secs(&o->ru.ru_utime), "stime_s",
				      secs(&o->ru.ru_stime), "nvcsw",
				      (json_int_t)o->ru.ru_nvcsw, "nivcsw",
				      (json_int_t)o->ru.ru_nivcsw));
	res_sample(kase, smp);
}

/* The document of a run that ran: its figures, a failure when CMD or we
 * were stopped; 1 when it could not be written. */
static int finish_doc(const struct cfg *c, struct res_doc *d,
		      const struct outcome *o)
{
	int wfail;

	record(c, d, o);
	if (sig_stop && !res_failed(d))
		res_fail(d, "stopped by signal %d; command %s %s %d",
			 (int)sig_stop, c->cmd[0], how(o), how_n(o));
	if (o->code && !res_failed(d))
		res_fail(d, "command %s %s %d", c->cmd[0], how(o), how_n(o));
	wfail = res_finish(d) != 0;
	res_free(d);
	return wfail;
}

/* Stopped while the meters opened: CMD never runs. */
static int stopped_early(const struct cfg *c, struct res_doc *d, pid_t p,
			 struct meterset *set)
{
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
	meterset_close(set);
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

/* The meters side by side, then CMD's own rusage. */
static void print_run(const struct cfg *c, const struct outcome *o)
{
	FILE *f = cli_text(&c->cli);

	fprintf(f, "cyclesoak: %s ran %.2fs\n", c->cmd[0], o->elapsed);
	meter_print(f, "box", o->s, o->n, 0);
	fprintf(f, "  cmd rusage: usr %.3fs sys %.3fs (%s and its children)\n",
		secs(&o->ru.ru_utime), secs(&o->ru.ru_stime), c->cmd[0]);
}

/* The closing line: how CMD ended and the box load of the first meter
 * that read. */
static void summary(const struct cfg *c, const struct outcome *o)
{
	int i;

	fflush(cli_text(&c->cli));
	for (i = 0; i < o->n && !o->s[i].ok; i++)
		;
	fprintf(stderr,
		"cyclesoak: %s %s %d after %.2fs; box load %.1f%% (%s)\n",
		c->cmd[0], WIFEXITED(o->st) ? "exited" : "killed by signal",
		how_n(o), o->elapsed, i < o->n ? o->s[i].busy_pct : 0.0,
		i < o->n ? o->s[i].meter : "no meter");
}

int do_run(const struct cfg *c)
{
	struct res_doc *d = cs_doc(c);
	struct meter_opts mo;
	struct meterset set;
	struct outcome o;
	const char *list;
	char err[512];
	int go, ep, er, wfail = 0;
	double t0;
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
	if (sig_stop)
		return stopped_early(c, d, p, &set);
	meterset_start(&set);
	t0 = clock_now();
	if (write(go, "g", 1) != 1)
		die_errno("start the command");
	close(go);
	o.st = wait_cmd(p, c->cmd[0], &o.ru);
	o.elapsed = clock_now() - t0;
	o.n = meterset_stop(&set, o.s);
	meterset_close(&set);
	if (read(ep, &er, sizeof(er)) == (ssize_t)sizeof(er)) {
		log_err("cannot run %s: %s", c->cmd[0], strerror(er));
		if (d)
			res_fail(d, "cannot run %s: %s", c->cmd[0],
				 strerror(er));
	}
	close(ep);
	o.code = WIFEXITED(o.st) ? WEXITSTATUS(o.st) : 128 + WTERMSIG(o.st);
	print_run(c, &o);
	if (d)
		wfail = finish_doc(c, d, &o);
	summary(c, &o);
	if (sig_stop)
		return sig_exit_status();
	return o.code ? o.code : wfail;
}
