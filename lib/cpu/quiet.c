/*
 * quiet.c: the box's steal and the CPU taken outside the run over a
 * sample's window (quiet.h), from /proc/stat and this process tree's
 * /proc/PID/stat (lib/cpu/pidcpu), or the sched meter's shares.
 */
#include "config.h"
#include "quiet.h"
#include "clock.h"
#include "hostinfo.h"
#include "meter.h"
#include "pidcpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* Ticks of field k (all of them: k < 0) between two lines. */
static double delta(const uint64_t *a, const uint64_t *b, int k)
{
	double d = 0;
	int i;

	if (k >= 0)
		return b[k] >= a[k] ? (double)(b[k] - a[k]) : 0;
	for (i = 0; i < PS_GUEST; i++) /* guest is inside user already */
		d += b[i] >= a[i] ? (double)(b[i] - a[i]) : 0;
	return d;
}

/* outside from what s holds now: the sched meter's other share, unless
 * the run has processes sched does not name (a server, a peer that said
 * its own CPU: sched counts the softirq time in their context as
 * theirs, their own figure may not), then the other processes' ticks
 * less those */
static void outside(struct quiet_sample *s)
{
	int sched = isfinite(s->sched_other_pct) && s->run_pct <= 0;
	double o = sched ? s->sched_other_pct : s->others_pct - s->run_pct;

	s->from = sched ? "sched" : "procstat";
	if (!s->ok || !isfinite(o))
		s->outside_pct = NAN;
	else
		s->outside_pct = o > 0 ? o : 0;
}

void quiet_figures(const struct procstat_snap *a,
		   const struct procstat_snap *b, double self_ticks,
		   double others_ticks, double elapsed_s,
		   struct quiet_sample *s)
{
	double tot = delta(a->total, b->total, -1);

	memset(s, 0, sizeof(*s));
	s->sched_other_pct = NAN;
	s->from = "procstat";
	s->elapsed_s = elapsed_s;
	s->ncpu = b->ncpu;
	s->ok = tot > 0;
	if (!s->ok) {
		s->steal_pct = s->task_pct = s->self_pct = NAN;
		s->others_pct = s->outside_pct = NAN;
		return;
	}
	s->tick_pct = 100 / tot;
	s->steal_pct = 100 * delta(a->total, b->total, PS_STEAL) / tot;
	s->task_pct = 100 *
		      (delta(a->total, b->total, PS_USER) +
		       delta(a->total, b->total, PS_SYSTEM)) /
		      tot;
	s->self_pct = self_ticks >= 0 ? 100 * self_ticks / tot : NAN;
	s->others_pct = others_ticks >= 0 ? 100 * others_ticks / tot : NAN;
	/* The processes' ticks (each one's own cputime, read one by one)
	 * and /proc/stat's (sampled per CPU, read at once) are two
	 * accountings: over a short window on a busy box their difference
	 * can pass the box (a fresh clone's test run saw outside > 100% in
	 * a 0.3 s window). No share of the box is above all of it. */
	if (s->others_pct > 100)
		s->others_pct = 100;
	outside(s);
}


void quiet_start(struct quiet *q, const char *root)
{
	snprintf(q->root, sizeof(q->root), "%s", root ? root : host_root());
	if (!q->a)
		q->a = malloc(sizeof(*q->a));
	q->t0 = clock_now();
	q->have_self = !pidcpu_split(q->root, getpid(), &q->self0, &q->others0);
	q->have_a = q->a && !procstat_read(q->root, q->a);
}

void quiet_stop(struct quiet *q, struct quiet_sample *s)
{
	struct procstat_snap *b = malloc(sizeof(*b));
	uint64_t self1 = 0, others1 = 0;
	int have_self = q->have_self &&
			!pidcpu_split(q->root, getpid(), &self1, &others1);
	int have_b = b && !procstat_read(q->root, b);
	double el = clock_now() - q->t0;

	if (q->have_a && have_b) {
		/* a process that went unreaped takes its ticks with it: no
		 * figure below 0 */
		quiet_figures(q->a, b,
			      have_self && self1 >= q->self0
				      ? (double)(self1 - q->self0)
				      : -1,
			      !have_self	     ? -1
			      : others1 >= q->others0 ? (double)(others1 - q->others0)
						     : 0,
			      el, s);
	} else {
		memset(s, 0, sizeof(*s));
		s->elapsed_s = el;
		s->steal_pct = s->task_pct = s->self_pct = NAN;
		s->others_pct = s->sched_other_pct = s->outside_pct = NAN;
		s->from = "procstat";
	}
	free(b);
}

void quiet_close(struct quiet *q)
{
	free(q->a);
	q->a = NULL;
	q->have_a = 0;
}

void quiet_add_run(struct quiet_sample *s, double pct)
{
	if (!isfinite(pct) || pct <= 0)
		return;
	s->run_pct += pct;
	outside(s);
}

void quiet_add_run_s(struct quiet_sample *s, double cpu_s)
{
	if (s->elapsed_s > 0 && s->ncpu > 0)
		quiet_add_run(s, 100 * cpu_s / (s->elapsed_s * s->ncpu));
}

double quiet_self_cpu_s(const struct quiet_sample *s)
{
	if (!s->ok || !isfinite(s->self_pct))
		return NAN;
	return s->self_pct / 100 * s->elapsed_s * s->ncpu;
}

double quiet_process_cpu_s(void)
{
	struct rusage u;

	if (getrusage(RUSAGE_SELF, &u))
		return NAN;
	return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 +
	       (double)u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

void quiet_use_sched(struct quiet_sample *s, const struct cpu_sample *c)
{
	if (!c->ok || !isfinite(c->sched.other_pct))
		return;
	s->sched_other_pct = c->sched.other_pct;
	outside(s);
}

/* Seen in at least two of the window's ticks (a sched figure is exact). */
static int two_ticks(const struct quiet_sample *s, double pct, int ticked)
{
	return !ticked || !(s->tick_pct > 0) || pct >= 1.5 * s->tick_pct;
}

int quiet_disturbed(const struct quiet_sample *s, double steal_max,
		    double outside_max, char *why, size_t len)
{
	int ticked = !s->from || strcmp(s->from, "sched");

	if (s->ok && s->steal_pct > steal_max &&
	    two_ticks(s, s->steal_pct, 1)) {
		snprintf(why, len, "steal %.1f%% of the box > %g%%",
			 s->steal_pct, steal_max);
		return 1;
	}
	if (s->ok && isfinite(s->outside_pct) && s->outside_pct > outside_max &&
	    two_ticks(s, s->outside_pct, ticked)) {
		snprintf(why, len,
			 "processes outside the run took %.1f%% of the box > %g%% (%s)",
			 s->outside_pct, outside_max, s->from);
		return 1;
	}
	if (len)
		why[0] = '\0';
	return 0;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *quiet_json(const struct quiet_sample *s)
{
	json_t *j = json_object();

	json_object_set_new(j, "steal_pct", num_or_null(s->ok ? s->steal_pct : NAN));
	json_object_set_new(j, "outside_pct", num_or_null(s->outside_pct));
	json_object_set_new(j, "from", json_string(s->from ? s->from : "procstat"));
	json_object_set_new(j, "task_pct", num_or_null(s->ok ? s->task_pct : NAN));
	json_object_set_new(j, "run_pct",
			    num_or_null(s->self_pct + s->run_pct));
	if (s->ok && s->tick_pct > 0)
		json_object_set_new(j, "resolution_pct", json_real(s->tick_pct));
	return j;
}

json_t *quiet_disturbed_json(const struct quiet_sample *s, double steal_max,
			     double outside_max, int rerun)
{
	json_t *j = json_object();

	json_object_set_new(j, "steal_pct", num_or_null(s->steal_pct));
	json_object_set_new(j, "outside_pct", num_or_null(s->outside_pct));
	json_object_set_new(j, "steal_max", json_real(steal_max));
	json_object_set_new(j, "outside_max", json_real(outside_max));
	json_object_set_new(j, "rerun", json_boolean(rerun));
	return j;
}
