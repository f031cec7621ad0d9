/* meter_rusage.c: getrusage of this process and its reaped children. */
#include "config.h"
#include "clock.h"
#include "hostinfo.h"
#include "meter.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

struct ru_priv {
	struct rusage self, kids;
	double t0;
};

static double tv(const struct timeval *t)
{
	return (double)t->tv_sec + (double)t->tv_usec / 1e6;
}

static int ru_start(struct meter *m)
{
	struct ru_priv *p = m->priv;

	getrusage(RUSAGE_SELF, &p->self);
	getrusage(RUSAGE_CHILDREN, &p->kids);
	p->t0 = clock_now();
	return 0;
}

static int ru_stop(struct meter *m, struct cpu_sample *out)
{
	struct ru_priv *p = m->priv;
	struct rusage s, k;

	getrusage(RUSAGE_SELF, &s);
	getrusage(RUSAGE_CHILDREN, &k);
	out->elapsed_s = clock_now() - p->t0;
	out->utime_s = tv(&s.ru_utime) - tv(&p->self.ru_utime) +
		       tv(&k.ru_utime) - tv(&p->kids.ru_utime);
	out->stime_s = tv(&s.ru_stime) - tv(&p->self.ru_stime) +
		       tv(&k.ru_stime) - tv(&p->kids.ru_stime);
	out->nvcsw = (s.ru_nvcsw - p->self.ru_nvcsw) +
		     (k.ru_nvcsw - p->kids.ru_nvcsw);
	out->nivcsw = (s.ru_nivcsw - p->self.ru_nivcsw) +
		      (k.ru_nivcsw - p->kids.ru_nivcsw);
	out->ncpu = host_online_cpus();
	out->busy_pct = out->elapsed_s > 0 ?
				100.0 * (out->utime_s + out->stime_s) /
					(out->elapsed_s * out->ncpu) :
				0;
	out->user_pct = out->elapsed_s > 0 ? 100.0 * out->utime_s /
						     (out->elapsed_s * out->ncpu) :
					     0;
	out->sys_pct = out->elapsed_s > 0 ? 100.0 * out->stime_s /
						    (out->elapsed_s * out->ncpu) :
					    0;
	snprintf(out->scope, sizeof(out->scope), "process");
	out->ok = 1;
	return 0;
}

static void ru_print(FILE *f, const char *side, const struct cpu_sample *s)
{
	(void)side;
	fprintf(f, "  (usr %.3fs sys %.3fs, %s only)", s->utime_s, s->stime_s,
		"this process");
}

METER_DEFINE(meter_rusage_ops, "rusage",
	     "getrusage of this process and reaped children (process)",
	     .flags = METER_PROCESS,
	     .start = ru_start, .stop = ru_stop, .print = ru_print,
	     .priv_size = sizeof(struct ru_priv));
