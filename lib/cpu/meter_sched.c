/*
 * meter_sched.c: the "sched" meter (schedcpu.h): where every CPU's time
 * went, from the kernel's scheduler and interrupt events, counted by a
 * BPF program. No soakers and no sampling, so it runs unpaired; its
 * cost is one or two hundred ns per event (cyclesoak --selftest
 * measures it). The x86 vectors (the tick, the IPIs) are traced only
 * when $ZCB_SCHED_VECTORS asks (sched_vectors_parse).
 * The process told apart as "self" is o->pid (the command of cyclesoak
 * -- CMD, a self-test's load) or this process, the peers o->peers; both
 * with the children they fork. Where BPF cannot run (no BPF in this
 * build, not root, no BTF, the program refused) open says why in one
 * line and a meter set goes on with procstat (meterset_open).
 */
#include "config.h"
#include "clock.h"
#include "hostinfo.h"
#include "meter.h"
#include "schedcpu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sched_priv {
	struct sched_probe *p;
	int ncpu;		/* CPUs in a reading */
	struct zs_cpu *a;	/* the reading at start */
	struct zs_cpu *b;	/* at stop */
	double t0;
	int npeers;
};

static int sched_open(struct meter *m, const struct meter_opts *o, char *err,
		      size_t len)
{
	struct sched_priv *p = m->priv;
	struct sched_probe_cfg c = {0};
	int r;

	if (o) {
		c.self = o->pid;
		c.peers = o->peers;
		c.npeers = o->npeers;
	}
	r = sched_vectors_parse(getenv(SCHED_VECTORS_ENV), &c.vectors, err,
				len);
	if (!r)
		r = sched_probe_open(&p->p, &c, err, len);
	if (r)
		return r;
	p->npeers = c.npeers;
	p->ncpu = sched_probe_ncpu(p->p);
	p->a = calloc((size_t)p->ncpu, sizeof(*p->a));
	p->b = calloc((size_t)p->ncpu, sizeof(*p->b));
	if (!p->a || !p->b)
		abort();
	return 0;
}

static int sched_start(struct meter *m)
{
	struct sched_priv *p = m->priv;

	p->t0 = clock_now();
	return sched_probe_read(p->p, p->a);
}

/* The note: what is traced, and anything odd in the window. */
static void note(const struct sched_priv *p, struct cpu_sample *out)
{
	const struct sched_summary *s = &out->sched;
	char odd[128] = "";

	if (s->odd)
		snprintf(odd, sizeof(odd), "; %llu events out of order",
			 (unsigned long long)s->odd);
	if (s->missed)
		snprintf(odd + strlen(odd), sizeof(odd) - strlen(odd),
			 "; %llu untraced switches made good",
			 (unsigned long long)s->missed);
	if (s->nested)
		snprintf(odd + strlen(odd), sizeof(odd) - strlen(odd),
			 "; %llu hardirqs in its own update",
			 (unsigned long long)s->nested);
	if (s->unknown_pct > 0)
		snprintf(odd + strlen(odd), sizeof(odd) - strlen(odd),
			 "; %.2f%% on CPUs not yet seen", s->unknown_pct);
	snprintf(out->note, sizeof(out->note), "%.*s%s",
		 (int)(sizeof(out->note) - sizeof(odd)),
		 sched_probe_traced(p->p), odd);
}

static int sched_stop(struct meter *m, struct cpu_sample *out)
{
	struct sched_priv *p = m->priv;
	double *percpu = calloc((size_t)p->ncpu, sizeof(double));
	int i;

	if (!percpu)
		abort();
	out->elapsed_s = clock_now() - p->t0;
	snprintf(out->scope, sizeof(out->scope), "box");
	out->ncpu = host_online_cpus();
	if (sched_probe_read(p->p, p->b)) {
		free(percpu);
		snprintf(out->why, sizeof(out->why),
			 "the counters of a CPU kept changing while read");
		return -EAGAIN;
	}
	out->busy_pct = sched_summarize(p->a, p->b, p->ncpu, &out->sched,
					percpu);
	/* the window is what the readings cover (a reader held up between
	 * the clock and a CPU's copy stretches it): the figures are of it */
	if (out->sched.window_s > 0)
		out->elapsed_s = out->sched.window_s;
	out->sched.traced = sched_probe_traced_mask(p->p);
	out->sched.npeers = p->npeers;
	for (i = 0; i < p->ncpu && i < METER_MAX_CPUS; i++)
		out->percpu_busy[i] = percpu[i];
	free(percpu);
	out->have_percpu = 1;
	out->irq_pct = out->sched.hardirq_pct;
	out->softirq_pct = out->sched.softirq_pct;
	note(p, out);
	out->ok = 1;
	return 0;
}

static int sched_peer(struct meter *m, pid_t pid, char *err, size_t len)
{
	struct sched_priv *p = m->priv;
	int r = sched_probe_peer(p->p, pid, err, len);

	p->npeers += !r;
	return r;
}

static void sched_close(struct meter *m)
{
	struct sched_priv *p = m->priv;

	sched_probe_close(p->p);
	free(p->a);
	free(p->b);
}

/* Its words, for the line that states its cost (cyclesoak --selftest
 * runs loads with it loaded and not, in pairs). */
static const struct meter_words sched_words = {
	.title = "Sched",
	.metered_run = "metered run: the BPF program loaded",
	.unmetered_run = "unmetered run: the BPF program unloaded",
	.pairs = "sched runs in pairs: loaded, then unloaded",
	.agent = "BPF program",
	.figure = "figure",
	.from = "sched CPU",
	.from_all = "sched CPU",
};

METER_DEFINE(meter_sched_ops, "sched",
	     "exact: scheduler and interrupt events counted by BPF (box; this "
	     "process, peers, softirq by vector)",
	     .open = sched_open, .close = sched_close,
	     .flags = METER_OPTIONAL | METER_WITH_PROCSTAT | METER_SHARES |
		      METER_EXACT,
	     .words = &sched_words,
	     .json_key = "sched", .to_json = sched_sample_json,
	     .from_json = sched_sample_from_json,
	     .metrics = sched_add_metrics, .print_lines = sched_print,
	     .start = sched_start, .stop = sched_stop, .peer = sched_peer,
	     .priv_size = sizeof(struct sched_priv));
