/* procstat.c: the procstat meter, /proc/stat deltas per CPU and in total. */
#include "config.h"
#include "procstat.h"
#include "clock.h"
#include "hostinfo.h"
#include "soak.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse_fields(const char *p, uint64_t *f)
{
	int i;

	for (i = 0; i < PS_NFIELDS; i++) {
		char *end;

		while (*p == ' ')
			p++;
		if (*p == '\n' || *p == '\0')
			break;
		f[i] = strtoull(p, &end, 10);
		if (end == p)
			return -EINVAL;
		p = end;
	}
	return i >= 4 ? 0 : -EINVAL; /* user nice system idle at least */
}

int procstat_parse(const char *text, struct procstat_snap *s)
{
	const char *line = text;
	int have_total = 0;

	memset(s, 0, sizeof(*s));
	while (line && *line) {
		if (!strncmp(line, "cpu ", 4)) {
			if (parse_fields(line + 4, s->total))
				return -EINVAL;
			have_total = 1;
		} else if (!strncmp(line, "cpu", 3) && line[3] >= '0' &&
			   line[3] <= '9') {
			char *end;
			long id = strtol(line + 3, &end, 10);

			if (s->ncpu < METER_MAX_CPUS) {
				if (parse_fields(end, s->cpu[s->ncpu]))
					return -EINVAL;
				s->cpu_id[s->ncpu++] = (int)id;
			}
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return have_total ? 0 : -EINVAL;
}

int procstat_read(const char *root, struct procstat_snap *s)
{
	char buf[1 << 16];
	long n;

	n = host_read_file(root ? root : host_root(), "/proc/stat", buf,
			   sizeof(buf));
	if (n < 0)
		return (int)n;
	return procstat_parse(buf, s);
}

static uint64_t sum(const uint64_t *f)
{
	/* guest time is already counted in user; don't count it twice */
	return f[PS_USER] + f[PS_NICE] + f[PS_SYSTEM] + f[PS_IDLE] +
	       f[PS_IOWAIT] + f[PS_IRQ] + f[PS_SOFTIRQ] + f[PS_STEAL];
}

static double d(const uint64_t *a, const uint64_t *b, int i)
{
	return b[i] >= a[i] ? (double)(b[i] - a[i]) : 0.0;
}

void procstat_delta(const struct procstat_snap *a,
		    const struct procstat_snap *b, struct cpu_sample *out)
{
	double tot = (double)(sum(b->total) - sum(a->total));
	int j, empty = tot <= 0;

	if (empty)
		tot = 1;
	/* one tick's share of this window; 0 for a window without a tick
	 * (which procstat_resolution marks unavailable) */
	out->resolution_pct = empty ? 0 : 100 / tot;
	out->user_pct = 100 * d(a->total, b->total, PS_USER) / tot;
	out->nice_pct = 100 * d(a->total, b->total, PS_NICE) / tot;
	out->sys_pct = 100 * d(a->total, b->total, PS_SYSTEM) / tot;
	out->irq_pct = 100 * d(a->total, b->total, PS_IRQ) / tot;
	out->softirq_pct = 100 * d(a->total, b->total, PS_SOFTIRQ) / tot;
	out->steal_pct = 100 * d(a->total, b->total, PS_STEAL) / tot;
	out->iowait_pct = 100 * d(a->total, b->total, PS_IOWAIT) / tot;
	out->idle_pct = 100 * d(a->total, b->total, PS_IDLE) / tot;
	/* busy: everything but idle and iowait (steal is lost to us too) */
	out->busy_pct = empty ? 0 : 100.0 - out->idle_pct - out->iowait_pct;
	if (out->busy_pct < 0)
		out->busy_pct = 0;
	out->ncpu = b->ncpu;
	out->have_percpu = a->ncpu == b->ncpu;
	for (j = 0; out->have_percpu && j < b->ncpu; j++) {
		double t = (double)(sum(b->cpu[j]) - sum(a->cpu[j]));
		double idle = d(a->cpu[j], b->cpu[j], PS_IDLE) +
			      d(a->cpu[j], b->cpu[j], PS_IOWAIT);

		out->percpu_busy[j] = t > 0 ? 100.0 * (t - idle) / t : 0;
	}
}

/*
 * While zcbench soakers run (SCHED_IDLE, nice 19) their time lands in
 * "nice" and would read as a busy box: take nice out of the load then.
 */
void procstat_exclude_nice(const struct procstat_snap *a,
			   const struct procstat_snap *b,
			   struct cpu_sample *out)
{
	int j;

	out->busy_pct -= out->nice_pct;
	if (out->busy_pct < 0)
		out->busy_pct = 0;
	out->nice_pct = 0;
	for (j = 0; out->have_percpu && j < b->ncpu; j++) {
		double t = (double)(sum(b->cpu[j]) - sum(a->cpu[j]));

		if (t > 0)
			out->percpu_busy[j] -= 100 * d(a->cpu[j], b->cpu[j],
						       PS_NICE) / t;
		if (out->percpu_busy[j] < 0)
			out->percpu_busy[j] = 0;
	}
	snprintf(out->note, sizeof(out->note),
		 "nice time not counted as load: zcbench soakers (nice 19) ran");
}

/* What a window's figures can tell apart (see procstat.h). */
int procstat_resolution(struct cpu_sample *out)
{
	double ticks = out->resolution_pct > 0 ? 100 / out->resolution_pct : 0;
	double busy = ticks * out->busy_pct / 100;
	size_t k = strlen(out->note);

	if (ticks < 1) {
		out->ok = 0;
		snprintf(out->why, sizeof(out->why),
			 "below its resolution: not one tick in a %.3f s "
			 "window (/proc/stat counts 1/%ld s ticks); run "
			 "longer (--duration)",
			 out->elapsed_s, sysconf(_SC_CLK_TCK));
		return 1;
	}
	if (busy < 0.5 && k + 2 < sizeof(out->note))
		snprintf(out->note + k, sizeof(out->note) - k,
			 "%sbelow its resolution: not one busy tick of %.0f in "
			 "this window (under %.1f%% of the box); no figure "
			 "per unit of work; run longer (--duration)",
			 k ? "; " : "", ticks, out->resolution_pct);
	else if (busy < 9.5 && k + 2 < sizeof(out->note))
		snprintf(out->note + k, sizeof(out->note) - k,
			 "%scoarse: %.0f busy tick%s of %.0f in this window, "
			 "each %.1f%% of the box; run longer (--duration)",
			 k ? "; " : "", busy, busy < 1.5 ? "" : "s", ticks,
			 out->resolution_pct);
	return 0;
}

/* The meter. */

struct ps_priv {
	char root[512];
	struct procstat_snap a;
	double t0;
	int soak;		/* soakers ran at the start */
};

static int ps_open(struct meter *m, const struct meter_opts *o, char *err,
		   size_t len)
{
	struct ps_priv *p = m->priv;
	struct procstat_snap s;
	int r;

	snprintf(p->root, sizeof(p->root), "%s",
		 o && o->proc_root ? o->proc_root : host_root());
	r = procstat_read(p->root, &s);
	if (r)
		snprintf(err, len, "cannot read %s/proc/stat: %s", p->root,
			 strerror(-r));
	return r;
}

static int ps_start(struct meter *m)
{
	struct ps_priv *p = m->priv;

	p->t0 = clock_now();
	p->soak = !p->root[0] && soak_host_alive();
	return procstat_read(p->root, &p->a);
}

static int ps_stop(struct meter *m, struct cpu_sample *out)
{
	struct ps_priv *p = m->priv;
	struct procstat_snap b;
	int r = procstat_read(p->root, &b);

	out->elapsed_s = clock_now() - p->t0;
	if (r) {
		snprintf(out->why, sizeof(out->why), "cannot read /proc/stat");
		return r;
	}
	procstat_delta(&p->a, &b, out);
	if (p->soak || (!p->root[0] && soak_host_alive()))
		procstat_exclude_nice(&p->a, &b, out);
	snprintf(out->scope, sizeof(out->scope), "box");
	out->ok = 1;
	procstat_resolution(out);
	return 0;
}

/* Its softirq share, a metric of its own. */
static void ps_metrics(struct res_doc *d, json_t *sample, const char *side,
		       const struct cpu_sample *s, int m)
{
	char name[64];

	snprintf(name, sizeof(name), "cpu_%s_softirq_pct", side);
	meter_put_metric(d, sample, "%", m, name, s->softirq_pct);
}

static void ps_print(FILE *f, const char *side, const struct cpu_sample *s)
{
	(void)side;
	fprintf(f, "  (usr %.1f sys %.1f irq %.1f sirq %.1f steal %.1f)",
		s->user_pct + s->nice_pct, s->sys_pct, s->irq_pct,
		s->softirq_pct, s->steal_pct);
}

METER_DEFINE(meter_procstat_ops, "procstat",
	     "/proc/stat deltas: user, system, irq, softirq, steal (box)",
	     .open = ps_open, .start = ps_start, .stop = ps_stop,
	     .metrics = ps_metrics, .print = ps_print,
	     .priv_size = sizeof(struct ps_priv));
