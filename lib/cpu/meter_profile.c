/*
 * meter_profile.c: the "profile" meter: a kernel profile of the whole
 * box over the window (profile.h), grouped into families. It has a cost
 * (a timer interrupt per sample on every CPU, a drain thread), so like
 * soak it runs paired: a profiled run and an unprofiled one (pause), the
 * rate from the second, the profile from the first, and their ratio is
 * the case's perturbation. The frequency is PROF_FREQ_DEFAULT, or
 * $ZCB_PROFILE_FREQ (1-10000 Hz).
 */
#include "config.h"
#include "clock.h"
#include "hostinfo.h"
#include "meter.h"
#include "profile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct prof_priv {
	struct prof_syms syms;
	struct prof_agg agg;
	struct prof_sampler *ps;
	int freq;
	int paused;		/* pause(1): the next windows unprofiled */
	int on;			/* this window samples */
	double t0;
};

static int freq_of(char *err, size_t len)
{
	const char *e = getenv("ZCB_PROFILE_FREQ");
	char *end;
	long f;

	if (!e || !*e)
		return PROF_FREQ_DEFAULT;
	f = strtol(e, &end, 10);
	if (*end || f < 1 || f > 10000) {
		snprintf(err, len, "ZCB_PROFILE_FREQ=%s: not 1-10000 Hz", e);
		return -EINVAL;
	}
	return (int)f;
}

static int prof_open(struct meter *m, const struct meter_opts *o,
		     char *err, size_t len)
{
	struct prof_priv *p = m->priv;
	int r;

	(void)o;
	p->freq = freq_of(err, len);
	if (p->freq < 0)
		return p->freq;
	r = prof_syms_load(&p->syms, NULL, err, len);
	if (r)
		return r;
	r = prof_agg_init(&p->agg, &p->syms);
	if (!r)
		r = prof_sampler_open(&p->ps, p->freq, &p->agg, err, len);
	if (r) {
		prof_agg_free(&p->agg);
		prof_syms_free(&p->syms);
	}
	return r;
}

static int prof_start(struct meter *m)
{
	struct prof_priv *p = m->priv;

	p->on = !p->paused;
	p->t0 = clock_now();
	return p->on ? prof_sampler_start(p->ps) : 0;
}

static int prof_stop(struct meter *m, struct cpu_sample *out)
{
	struct prof_priv *p = m->priv;
	struct prof_summary *s = &out->prof;

	out->elapsed_s = clock_now() - p->t0;
	out->ncpu = host_online_cpus();
	snprintf(out->scope, sizeof(out->scope), "box");
	if (!p->on) {
		out->paused = 1;
		snprintf(out->why, sizeof(out->why),
			 "paused: the unprofiled run of a pair");
		return 0;
	}
	prof_sampler_stop(p->ps);
	p->on = 0;
	prof_agg_summary(&p->agg, s);
	snprintf(s->event, sizeof(s->event), "%s",
		 prof_sampler_event(p->ps));
	s->freq = p->freq;
	if (!s->samples) {
		snprintf(out->why, sizeof(out->why), "no samples in %.3f s",
			 out->elapsed_s);
		return 0;
	}
	out->busy_pct = 100.0 - s->fam_pct[PROF_IDLE];
	out->ok = 1;
	return 0;
}

static int prof_pause(struct meter *m, int pause, char *err, size_t len)
{
	struct prof_priv *p = m->priv;

	(void)err;
	(void)len;
	p->paused = pause;
	return 0;
}

static void prof_close(struct meter *m)
{
	struct prof_priv *p = m->priv;

	prof_sampler_close(p->ps);
	prof_agg_free(&p->agg);
	prof_syms_free(&p->syms);
}

static const struct meter_words prof_words = {
	.title = "Profile",
	.metered_run = "metered run: profiler on (its profile is the "
		       "result's; its rate is not)",
	.unmetered_run = "unmetered run: profiler off (this rate is the "
			 "result)",
	.pairs = "profile runs in pairs: profiled, then unprofiled (the "
		 "rate)",
	.agent = "profiler",
	.figure = "profile",
	.from = "the profile",
	.from_all = "the profile",
};

METER_DEFINE(meter_profile_ops, "profile",
	     "kernel profile of every CPU by symbol and family (perf sampling)",
	     .flags = METER_PAIRED | METER_NO_LOAD | METER_WITH_PROCSTAT |
		      METER_OPTIONAL,
	     .words = &prof_words,
	     .exposes = "a kernel profile of the whole box",
	     .json_key = "profile", .to_json = prof_sample_json,
	     .from_json = prof_sample_from_json, .metrics = prof_add_metrics,
	     .print = prof_print,
	     .open = prof_open, .close = prof_close,
	     .start = prof_start, .stop = prof_stop, .pause = prof_pause,
	     .priv_size = sizeof(struct prof_priv));
