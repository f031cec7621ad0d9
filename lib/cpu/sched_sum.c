/*
 * sched_sum.c: the sched meter's figures from two readings of its
 * per-CPU counters (schedcpu.h), and the names of what it counts. Plain
 * arithmetic over struct zs_cpu, so the unit test feeds it readings made
 * by canned events.
 */
#include "config.h"
#include "schedcpu.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const vec_names[SCHED_NVEC] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK",
	"IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};

static const char *const hirq_names[SCHED_NHI] = {
	"device", "local_timer", "reschedule", "call_function",
	"call_function_single",
};

/* The index of name among n names, -1 when it is not one. */
static int find_name(const char *const *names, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

const char *sched_vec_name(int v)
{
	return v >= 0 && v < SCHED_NVEC ? vec_names[v] : NULL;
}

int sched_vec_find(const char *name)
{
	return find_name(vec_names, SCHED_NVEC, name);
}

const char *sched_hirq_name(int k)
{
	return k >= 0 && k < SCHED_NHI ? hirq_names[k] : NULL;
}

int sched_hirq_find(const char *name)
{
	return find_name(hirq_names, SCHED_NHI, name);
}

int sched_vectors_parse(const char *s, unsigned *mask, char *err, size_t len)
{
	char buf[128], *tok, *save = NULL;
	int k;

	*mask = 0;
	if (!s || !*s || !strcmp(s, "none"))
		return 0;
	if (!strcmp(s, "all")) {
		for (k = ZS_HI_DEVICE + 1; k < SCHED_NHI; k++)
			*mask |= 1u << k;
		return 0;
	}
	if (strlen(s) >= sizeof(buf)) {
		snprintf(err, len, "%s: too long", SCHED_VECTORS_ENV);
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		k = sched_hirq_find(tok);
		if (k <= ZS_HI_DEVICE) {
			snprintf(err, len,
				 "%s: \"%.32s\" is not a vector (all, none, or of local_timer, reschedule, call_function, call_function_single)",
				 SCHED_VECTORS_ENV, tok);
			return -EINVAL;
		}
		*mask |= 1u << k;
	}
	return 0;
}

uint64_t sched_events(const struct sched_summary *s)
{
	uint64_t n = s->switches;
	int i;

	for (i = 0; i < SCHED_NVEC; i++)
		n += s->vec_n[i];
	for (i = 0; i < SCHED_NHI; i++)
		n += s->hi_n[i];
	return n;
}

/* b - a, never below 0 (a counter never goes back). */
static double dn(zs_u64 b, zs_u64 a)
{
	return b > a ? (double)(b - a) : 0;
}

/* The ns one CPU's window put in each figure (before the percent). */
static void add_cpu(const struct zs_cpu *a, const struct zs_cpu *b,
		    struct sched_summary *s)
{
	int i;

	s->self_task_pct += dn(b->task_ns[ZS_SELF], a->task_ns[ZS_SELF]);
	s->self_softirq_pct += dn(b->sirq_ns[ZS_SELF], a->sirq_ns[ZS_SELF]);
	s->peer_task_pct += dn(b->task_ns[ZS_PEER], a->task_ns[ZS_PEER]);
	s->peer_softirq_pct += dn(b->sirq_ns[ZS_PEER], a->sirq_ns[ZS_PEER]);
	s->other_pct += dn(b->task_ns[ZS_OTHER], a->task_ns[ZS_OTHER]) +
			dn(b->sirq_ns[ZS_OTHER], a->sirq_ns[ZS_OTHER]);
	s->idle_softirq_pct += dn(b->sirq_ns[ZS_IDLE], a->sirq_ns[ZS_IDLE]) +
			       dn(b->sirq_ns[ZS_SOAKER], a->sirq_ns[ZS_SOAKER]);
	for (i = 0; i < ZS_NCLASS; i++)
		s->hardirq_pct += dn(b->hirq_ns[i], a->hirq_ns[i]);
	s->idle_pct += dn(b->task_ns[ZS_IDLE], a->task_ns[ZS_IDLE]);
	s->soaker_pct += dn(b->task_ns[ZS_SOAKER], a->task_ns[ZS_SOAKER]);
	s->unknown_pct += dn(b->unknown_ns, a->unknown_ns);
	s->steal_pct += dn(b->steal_ns, a->steal_ns);
	for (i = 0; i < SCHED_NVEC; i++) {
		s->vec_pct[i] += dn(b->vec_ns[i], a->vec_ns[i]);
		s->vec_n[i] += (uint64_t)dn(b->vec_n[i], a->vec_n[i]);
	}
	for (i = 0; i < SCHED_NHI; i++) {
		s->hi_pct[i] += dn(b->hi_ns[i], a->hi_ns[i]);
		s->hi_n[i] += (uint64_t)dn(b->hi_n[i], a->hi_n[i]);
	}
	s->switches += (uint64_t)dn(b->switches, a->switches);
	s->odd += (uint64_t)dn(b->odd, a->odd);
	s->nested += (uint64_t)dn(b->nested, a->nested);
	s->missed += (uint64_t)dn(b->missed, a->missed);
}

/* Every time figure from ns to percent of all ns. */
static void to_pct(struct sched_summary *s, double all)
{
	double *f[] = {&s->self_task_pct, &s->self_softirq_pct,
		       &s->peer_task_pct, &s->peer_softirq_pct,
		       &s->other_pct,	  &s->idle_softirq_pct,
		       &s->hardirq_pct,	  &s->idle_pct,
		       &s->soaker_pct,	  &s->unknown_pct,
		       &s->steal_pct};
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		*f[i] = all > 0 ? 100.0 * *f[i] / all : 0;
	for (i = 0; i < SCHED_NVEC; i++)
		s->vec_pct[i] = all > 0 ? 100.0 * s->vec_pct[i] / all : 0;
	for (i = 0; i < SCHED_NHI; i++)
		s->hi_pct[i] = all > 0 ? 100.0 * s->hi_pct[i] / all : 0;
	s->self_pct = s->self_task_pct + s->self_softirq_pct;
	s->peer_pct = s->peer_task_pct + s->peer_softirq_pct;
	s->softirq_pct = 0;
	for (i = 0; i < SCHED_NVEC; i++)
		s->softirq_pct += s->vec_pct[i];
}

double sched_summarize(const struct zs_cpu *a, const struct zs_cpu *b, int n,
		       struct sched_summary *s, double *percpu)
{
	double all = 0, t, notbusy;
	int i, seen = 0;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		t = dn(zs_total(&b[i]), zs_total(&a[i]));
		notbusy = dn(b[i].task_ns[ZS_IDLE], a[i].task_ns[ZS_IDLE]) +
		       dn(b[i].task_ns[ZS_SOAKER], a[i].task_ns[ZS_SOAKER]) +
		       dn(b[i].steal_ns, a[i].steal_ns);
		if (percpu)
			percpu[i] = t > 0 ? 100.0 * (t - notbusy) / t : 0;
		if (t <= 0)
			continue;
		all += t;
		seen++;
		add_cpu(&a[i], &b[i], s);
	}
	to_pct(s, all);
	s->window_s = seen ? all / 1e9 / seen : 0;
	return 100.0 - s->idle_pct - s->soaker_pct - s->unknown_pct -
	       s->steal_pct;
}
