/*
 * meter_perf.c: perf_event_open counters named as libpfm4 event strings,
 * per process (the tool, or o->pid, and the children it makes later) or
 * per CPU (o->perf_system_wide). An event the machine lacks (cycles and
 * instructions without a hardware PMU: ENOENT) is reported unavailable
 * with the reason; the others carry on. The load figure comes from
 * task-clock (process scope only).
 */
#include "config.h"
#include "clock.h"
#include "hostinfo.h"
#include "meter.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PERF_DEFAULT_EVENTS                                                    \
	"task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions"

struct perf_ev {
	char name[64]; /* as asked */
	int ok;
	char why[128];
	int nfd; /* 1 per process, 1 per CPU */
	int fd[METER_MAX_CPUS];
};

struct perf_priv {
	int nev;
	struct perf_ev ev[METER_MAX_COUNTERS];
	int system_wide;
	int ncpu;
	double t0;
};

static int pfm_ready(char *err, size_t len)
{
	static int done, r;

	if (!done) {
		r = pfm_initialize();
		done = 1;
	}
	if (r != PFM_SUCCESS)
		snprintf(err, len, "libpfm4: %s", pfm_strerror(r));
	return r == PFM_SUCCESS ? 0 : -ENODEV;
}

static const char *open_why(int e)
{
	switch (e) {
	case ENOENT:
	case EOPNOTSUPP:
		return "not on this machine (no hardware PMU for it?)";
	case EACCES:
	case EPERM:
		return "not permitted (kernel.perf_event_paranoid)";
	case ESRCH:
		return "the process to count is gone";
	default:
		return strerror(e);
	}
}

static void perf_ev_open(struct perf_ev *e, pid_t pid, int system_wide,
			 int ncpu)
{
	struct perf_event_attr a;
	pfm_perf_encode_arg_t arg;
	int r, c, fd;

	memset(&a, 0, sizeof(a));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &a;
	arg.size = sizeof(arg);
	r = pfm_get_os_event_encoding(e->name, PFM_PLM0 | PFM_PLM3,
				      PFM_OS_PERF_EVENT, &arg);
	if (r != PFM_SUCCESS) {
		snprintf(e->why, sizeof(e->why), "libpfm4: %s",
			 pfm_strerror(r));
		return;
	}
	a.size = sizeof(a);
	a.disabled = 1;
	/* another process (a command): it and its descendants; ourselves:
	 * our threads only, never the processes we fork (the soak host and
	 * its soakers would otherwise be counted as our load) */
	a.inherit = !system_wide;
	a.inherit_thread = !system_wide && pid == 0;
	a.read_format =
		PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	for (c = 0; c < (system_wide ? ncpu : 1); c++) {
		fd = (int)syscall(__NR_perf_event_open, &a,
				  system_wide ? -1 : pid, system_wide ? c : -1,
				  -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 && errno == EINVAL && a.inherit_thread) {
			/* before Linux 5.13: this thread only */
			a.inherit = a.inherit_thread = 0;
			c--;
			continue;
		}
		if (fd < 0) {
			snprintf(e->why, sizeof(e->why), "perf_event_open: %s",
				 open_why(errno));
			while (e->nfd)
				close(e->fd[--e->nfd]);
			return;
		}
		e->fd[e->nfd++] = fd;
	}
	e->ok = 1;
}

static int perf_open(struct meter *m, const struct meter_opts *o, char *err,
		     size_t len)
{
	struct perf_priv *p = m->priv;
	char list[1024], *tok, *save = NULL;
	int r, usable = 0, i;

	r = pfm_ready(err, len);
	if (r)
		return r;
	p->system_wide = o && o->perf_system_wide;
	p->ncpu = host_online_cpus();
	if (p->ncpu > METER_MAX_CPUS)
		p->ncpu = METER_MAX_CPUS;
	snprintf(list, sizeof(list), "%s",
		 o && o->perf_events ? o->perf_events : PERF_DEFAULT_EVENTS);
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		struct perf_ev *e;

		if (p->nev == METER_MAX_COUNTERS) {
			snprintf(err, len, "more than %d perf events",
				 METER_MAX_COUNTERS);
			r = -EINVAL;
			goto fail;
		}
		e = &p->ev[p->nev++];
		snprintf(e->name, sizeof(e->name), "%s", tok);
		perf_ev_open(e, o ? o->pid : 0, p->system_wide, p->ncpu);
		usable += e->ok;
	}
	if (usable)
		return 0;
	snprintf(err, len, "no perf event could be opened (%s: %s)",
		 p->nev ? p->ev[0].name : "none", p->nev ? p->ev[0].why : "");
	r = -ENODEV;
fail:
	for (i = 0; i < p->nev; i++)
		while (p->ev[i].nfd)
			close(p->ev[i].fd[--p->ev[i].nfd]);
	return r;
}

static int perf_start(struct meter *m)
{
	struct perf_priv *p = m->priv;
	int i, k;

	for (i = 0; i < p->nev; i++)
		for (k = 0; k < p->ev[i].nfd; k++) {
			ioctl(p->ev[i].fd[k], PERF_EVENT_IOC_RESET, 0);
			ioctl(p->ev[i].fd[k], PERF_EVENT_IOC_ENABLE, 0);
		}
	p->t0 = clock_now();
	return 0;
}

/* Reads without disabling, so a window can be reported more than once. */
static int perf_stop(struct meter *m, struct cpu_sample *out)
{
	struct perf_priv *p = m->priv;
	double task_ns = -1;
	uint64_t v[3];
	int i, k;

	out->elapsed_s = clock_now() - p->t0;
	out->ncpu = host_online_cpus();
	for (i = 0; i < p->nev; i++) {
		struct perf_ev *e = &p->ev[i];
		struct meter_counter *c = &out->ctr[out->ncounters++];

		snprintf(c->name, sizeof(c->name), "%s", e->name);
		c->ok = e->ok;
		snprintf(c->why, sizeof(c->why), "%s", e->why);
		for (k = 0; k < e->nfd; k++) {
			if (read(e->fd[k], v, sizeof(v)) !=
			    (ssize_t)sizeof(v)) {
				c->ok = 0;
				snprintf(c->why, sizeof(c->why), "read failed");
				break;
			}
			c->value += v[2] ? (double)v[0] * v[1] / v[2] : 0;
		}
		c->per_sec = out->elapsed_s > 0 ? c->value / out->elapsed_s : 0;
		if (c->ok && !p->system_wide &&
		    (!strcmp(e->name, "task-clock") ||
		     !strcmp(e->name, "PERF_COUNT_SW_TASK_CLOCK")))
			task_ns = c->value;
	}
	snprintf(out->scope, sizeof(out->scope), "%s",
		 p->system_wide ? "box" : "process");
	if (task_ns >= 0 && out->elapsed_s > 0) {
		out->busy_pct =
			100.0 * task_ns / 1e9 / (out->elapsed_s * out->ncpu);
		if (out->busy_pct > 100)
			out->busy_pct = 100;
	} else {
		snprintf(out->note, sizeof(out->note),
			 "%s: no load figure (counters only)",
			 p->system_wide ? "per-CPU counters" : "no task-clock");
	}
	out->ok = 1;
	return 0;
}

static void perf_close(struct meter *m)
{
	struct perf_priv *p = m->priv;
	int i;

	for (i = 0; i < p->nev; i++)
		while (p->ev[i].nfd)
			close(p->ev[i].fd[--p->ev[i].nfd]);
}

METER_DEFINE(meter_perf_ops, "perf",
	     "perf_event_open counters named as libpfm4 strings",
	     .exposes = "perf counters",
	     .open = perf_open, .close = perf_close,
	     .start = perf_start, .stop = perf_stop,
	     .priv_size = sizeof(struct perf_priv));
