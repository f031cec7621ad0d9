/*
 * stmeasure.c: what the self-test's parts (selftest.c, perturb.c,
 * schedcost.c, judge.c) measure with: a load held at a pipe measured by
 * every meter, a meter's figure as a sample, and a paired ratio's three
 * names (cyclesoak.h).
 */
#include "config.h"
#include "cyclesoak.h"
#include "log.h"
#include "sig.h"
#include "stats.h"

#include <signal.h>
#include <stdio.h>
#include <unistd.h>

json_t *st_meter_sample(struct selftest *s, const char *load,
			const struct cpu_sample *m, json_t **kase)
{
	json_t *x = json_object();
	char name[64];

	*kase = res_case(s->d, json_pack("{s:s, s:s}", "load", load, "meter",
					 m->meter));
	snprintf(name, sizeof(name), "cpu_box_%.15s_pct", m->meter);
	res_metric(s->d, name, "%", RES_LOWER, 0);
	res_sample_set(x, "cpu_box_pct", m->busy_pct);
	res_sample_set(x, name, m->busy_pct);
	return x;
}

/* A paired ratio's three names: the geometric mean, the smallest and the
 * largest of the pairs' ratios. */
static const char *const ratio_sfx[] = {"", "_min", "_max"};

void st_put_ratio(json_t *x, const char *name, const struct stats_ratio *r)
{
	const double v[] = {r->ratio, r->min, r->max};
	char n[64];
	int i;

	for (i = 0; i < 3; i++) {
		snprintf(n, sizeof(n), "%s%s", name, ratio_sfx[i]);
		res_sample_set(x, n, v[i]);
	}
}

void st_ratio_metric(struct res_doc *d, const char *name,
		     enum res_better better)
{
	char n[64];
	int i;

	for (i = 0; i < 3; i++) {
		snprintf(n, sizeof(n), "%s%s", name, ratio_sfx[i]);
		res_metric(d, n, "x", better, 0);
	}
}

int st_measure_held(struct selftest *s, struct meter_opts *mo, pid_t leader,
		    int go, int res, double *v, struct cpu_sample *smp)
{
	struct meterset set;
	char err[512];
	int n;

	mo->pid = leader;
	if (meterset_open(&set, s->meters, mo, err, sizeof(err))) {
		kill(leader, SIGKILL);
		die("%s", err);
	}
	meterset_start(&set);
	if (write(go, "g", 1) != 1)
		die_errno("start the load");
	close(go);
	*v = cs_take_figure(res, &leader, 1);
	n = meterset_stop(&set, smp);
	meterset_close(&set);
	return sig_stop ? -1 : n;
}
