/*
 * schedcost.c: the self-test's account of what the sched meter costs,
 * measured like every meter's: runs with its BPF program loaded and not,
 * in pairs, interleaved (a series paired by "sched"). The loads have a
 * known mix of events: a pipe ping-pong between two processes on one CPU
 * (two context switches a round trip and nothing else), the 1-byte TCP
 * request/response on one CPU and on two (switches, NET_RX softirqs,
 * IPIs) and the loopback stream. Per load: the rate unloaded and loaded,
 * their ratio (the perturbation), the events the meter counted per unit
 * of work, and so the ns each event costs: (1/loaded - 1/unloaded) per
 * unit over the events per unit.
 */
#include "config.h"
#include "clock.h"
#include "cyclesoak.h"
#include "log.h"
#include "series.h"
#include "sig.h"
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define COST_REPS 3	/* loaded/unloaded pairs, interleaved */
#define COST_MAXRUNS 16 /* events counted per cell, at most (one a pair) */

/* Two processes on cpu passing a byte through pipes for seconds: round
 * trips per second. */
static double pipe_pingpong(int cpu, double seconds)
{
	int ab[2], ba[2], res[2];
	double n = 0, t0;
	pid_t p[2], me = getpid();
	char c = 'x';

	if (pipe(ab) || pipe(ba) || pipe(res))
		die_errno("selftest pipe");
	p[0] = fork();
	if (p[0] == 0) { /* echo */
		sig_die_with_parent(SIGKILL, me);
		cs_pin(cpu);
		close(ab[1]);
		close(ba[0]);
		close(res[0]);
		close(res[1]);
		while (read(ab[0], &c, 1) == 1 && write(ba[1], &c, 1) == 1)
			;
		_exit(0);
	}
	p[1] = fork();
	if (p[1] == 0) {
		sig_die_with_parent(SIGKILL, me);
		cs_pin(cpu);
		close(ab[0]);
		close(ba[1]);
		close(res[0]);
		t0 = clock_now();
		while (clock_now() - t0 < seconds && write(ab[1], &c, 1) == 1 &&
		       read(ba[0], &c, 1) == 1)
			n++;
		cs_give_figure(res[1], n / (clock_now() - t0));
	}
	close(ab[0]);
	close(ab[1]);
	close(ba[0]);
	close(ba[1]);
	close(res[1]);
	return cs_take_figure(res[0], p, 2);
}

struct cost_load {
	const char *load;	/* case name */
	const char *what;	/* printed */
	const char *unit;	/* of the rate */
	int kind, a, b;		/* 0 pipe, 1 rr, 2 stream; CPUs */
};

struct cost {
	struct selftest *s;
	const struct cost_load *cl;
	struct meter *m;	/* loaded: the metered run of a pair */
	double secs;
	double ev[8][COST_MAXRUNS]; /* events per unit of work, per cell */
	int nev[8];
};

/* Before a run: the BPF program loaded (metered) or not there at all. */
static int cost_prepare(void *ctx, const struct series_run *r, char *err,
			size_t len)
{
	struct cost *c = ctx;
	struct meter_opts o = c->s->mo;

	if (!r->metered) {
		meter_close(c->m);
		c->m = NULL;
		return 0;
	}
	if (c->m)
		return 0;
	o.pid = 0;
	c->m = meter_open("sched", &o, err, len);
	return c->m ? 0 : -1;
}

static double run_load(const struct cost_load *l, double secs)
{
	switch (l->kind) {
	case 0:
		return pipe_pingpong(l->a, secs);
	case 1:
		return st_pingpong(l->a, l->b, secs);
	default:
		return st_stream(l->a, l->b, secs);
	}
}

/* A run; loaded, the meter counts its events per unit of work. */
static int cost_run(void *ctx, const struct series_run *r, double *rate,
		    char *err, size_t len)
{
	struct cost *c = ctx;
	const struct cost_load *l = &c->cl[r->cell];
	struct cpu_sample smp;
	double v, t0 = clock_now();

	if (c->m)
		meter_start(c->m);
	v = run_load(l, c->secs);
	if (c->m && !meter_stop(c->m, &smp) && smp.ok && v > 0 &&
	    c->nev[r->cell] < COST_MAXRUNS)
		c->ev[r->cell][c->nev[r->cell]++] =
			(double)sched_events(&smp.sched) /
			(v * (clock_now() - t0));
	if (!(v > 0)) {
		snprintf(err, len, "%s: the load failed", l->what);
		return SERIES_FAILED;
	}
	*rate = v;
	return SERIES_OK;
}

static const struct series_ops cost_runs = {
	.prepare = cost_prepare,
	.run = cost_run,
};

/* One load's line and case. */
static double one_cost(struct cost *c, const struct series *ser, int cell)
{
	const struct cost_load *l = &c->cl[cell];
	const double *wo, *wi;
	struct stats_ratio r;
	double mo, mi, ev, ns;
	int nwo, nwi;
	json_t *kase, *x;

	wo = series_results(ser, cell, &nwo);
	wi = series_metered(ser, cell, &nwi);
	if (series_perturbation(ser, cell, &r) || !nwo || !nwi)
		return NAN;
	mo = stats_median(wo, (size_t)nwo);
	mi = stats_median(wi, (size_t)nwi);
	ev = c->nev[cell] ? stats_median(c->ev[cell], (size_t)c->nev[cell])
			  : NAN;
	ns = ev > 0 ? (1 / mi - 1 / mo) / ev * 1e9 : NAN;
	fprintf(c->s->out, "  %-24s %10.0f %10.0f  %5.2fx (%.2f-%.2f) %8.1f %8.0f\n",
		l->what, mo, mi, r.ratio, r.min, r.max, ev, ns);
	fflush(c->s->out);
	if (!c->s->d)
		return r.ratio;
	kase = res_case(c->s->d, json_pack("{s:s, s:s}", "load", l->load,
					   "meter", "sched"));
	x = json_object();
	st_put_ratio(x, "ratio", &r);
	res_sample_set(x, "unloaded_rate", mo);
	res_sample_set(x, "loaded_rate", mi);
	res_sample_set(x, "events_per_unit", ev);
	res_sample_set(x, "ns_per_event", ns);
	json_object_set_new(x, "unit", json_string(l->unit));
	json_object_set_new(x, "reps", json_integer(nwo));
	res_sample(kase, x);
	return r.ratio;
}

void selftest_sched_cost(struct selftest *s)
{
	const struct cost_load loads[] = {
		{"sched-cost-pipe", "pipe ping-pong 1 CPU", "round trips/s", 0,
		 s->cpu[0], s->cpu[0]},
		{"sched-cost-rr-1cpu", "tcp 1-byte rr 1 CPU", "tps", 1, s->cpu[0],
		 s->cpu[0]},
		{"sched-cost-rr-2cpu", "tcp 1-byte rr 2 CPUs", "tps", 1,
		 s->cpu[0], s->cpu[1]},
		{"sched-cost-stream", "tcp stream 2 CPUs", "MB/s", 2, s->cpu[0],
		 s->cpu[1]},
	};
	struct cost c = {.s = s, .cl = loads, .secs = 1.0};
	struct series_cfg sc = {
		.ncells = (int)(sizeof(loads) / sizeof(loads[0])),
		.repeat = COST_REPS,
		.paired = 1,
		.paired_by = "sched",
		.stop = &sig_stop,
	};
	struct meter *probe;
	struct series ser;
	char err[512];
	double rr = NAN, v;
	int i;

	probe = meter_open("sched", &s->mo, err, sizeof(err));
	if (!probe) {
		fprintf(s->out, "\nsched meter's cost: not measured (%s)\n", err);
		return;
	}
	meter_close(probe);
	fprintf(s->out,
		"\nsched meter's cost (BPF program loaded and not, median of "
		"%d pairs, interleaved; events per unit of work as it counted "
		"them)\n  %-24s %10s %10s  %-18s %8s %8s\n",
		COST_REPS, "", "unloaded", "loaded", "ratio (min-max)",
		"ev/unit", "ns/ev");
	fflush(s->out);
	if (series_open(&ser, &sc, err, sizeof(err)))
		die("%s", err);
	if (series_run(&ser, &cost_runs, &c, err, sizeof(err)))
		log_warn("selftest: sched cost: %s", err);
	meter_close(c.m);
	for (i = 0; i < sc.ncells && !sig_stop; i++) {
		v = one_cost(&c, &ser, i);
		if (i == 1)
			rr = v;
	}
	if (isfinite(rr)) {
		struct stats_ratio r;

		series_perturbation(&ser, 1, &r);
		meter_perturbation_by(err, sizeof(err), "sched", &r);
		fprintf(s->out, "  on request/response (1 CPU): %s\n", err);
	}
	series_close(&ser);
	if (s->d) {
		res_metric(s->d, "events_per_unit", "events", RES_LOWER, 0);
		res_metric(s->d, "ns_per_event", "ns", RES_LOWER, 0);
		res_metric(s->d, "unloaded_rate", "", RES_HIGHER, 1);
		res_metric(s->d, "loaded_rate", "", RES_HIGHER, 1);
	}
}
