/*
 * common.c: what cyclesoak's modes share: their meter options, the
 * result document, the calibration's soaker and warning, and the child
 * processes they run loads and commands in (pinned, held at a pipe until
 * the meters run, reaped with their CPU time, their figure taken).
 */
#include "config.h"
#include "cyclesoak.h"
#include "log.h"
#include "sig.h"
#include "soak.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

void cs_meter_opts(const struct cfg *c, struct meter_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->calib_file = c->calib_file;
	o->cpus = c->cpus;
	o->perf_events = c->events;
}

struct res_doc *cs_doc(const struct cfg *c)
{
	struct res_doc *d;

	if (!cli_doc_path(&c->cli))
		return NULL;
	d = res_new("cyclesoak", c->argc, c->argv);
	res_set_label(d, c->cli.label);
	res_set_output(d, cli_doc_path(&c->cli));
	return d;
}

const char *cs_soaker(const struct cfg *c)
{
	static struct soak_calib cal;
	char path[4096], err[256];

	if (soak_calib_path(c->calib_file, path, sizeof(path)) ||
	    soak_calib_load(path, &cal, err, sizeof(err)))
		return "spin";
	return cal.soaker;
}

void cs_warn_calibration(const struct cfg *c, struct res_doc *d,
			 const char *list)
{
	const char *w;

	if (!list || !strstr(list, "soak"))
		return;
	w = soak_calibration_warning(c->calib_file);
	if (!w)
		return;
	log_warn("%s", w);
	if (d)
		res_warn(d, "%s", w);
}

void cs_pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

double cs_wait_all(pid_t *p, int n)
{
	struct rusage ru;
	double cpu = 0;
	int i;

	for (i = 0; i < n; i++) {
		while (wait4(p[i], NULL, 0, &ru) < 0) {
			if (errno != EINTR)
				break;
			if (sig_stop)
				kill(p[i], SIGKILL);
		}
		cpu += (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	}
	return cpu;
}

void cs_give_figure(int fd, double v)
{
	if (write(fd, &v, sizeof(v)) < 0)
		_exit(1);
	_exit(0);
}

double cs_take_figure(int fd, pid_t *p, int n)
{
	double v;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		v = NAN;
	close(fd);
	cs_wait_all(p, n);
	return v;
}

pid_t cs_fork_held(int die_sig, int *go, int *back)
{
	int g[2], b[2];
	pid_t p, me = getpid();
	char c;

	if (pipe2(g, O_CLOEXEC) || pipe2(b, O_CLOEXEC))
		die_errno("pipe");
	p = fork();
	if (p < 0)
		die_errno("fork");
	if (p == 0) {
		sig_die_with_parent(die_sig, me);
		close(g[1]);
		close(b[0]);
		if (read(g[0], &c, 1) != 1)
			_exit(127);
		close(g[0]);
		*back = b[1];
		return 0;
	}
	close(g[0]);
	close(b[1]);
	*go = g[1];
	*back = b[0];
	return p;
}
