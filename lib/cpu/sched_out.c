/*
 * sched_out.c: a sched sample's outputs: its "sched" object in a CPU
 * sample's JSON (and back, checked, from a peer's report), its metrics
 * (sched_<side>_<figure>_pct, so tables and compare treat a share or a
 * softirq vector like any figure) and its lines in the CPU block.
 */
#include "config.h"
#include "meter.h"
#include "result.h"
#include "schedcpu.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <string.h>

/* The time figures of a summary by their JSON and metric names. */
#define SCHED_NFIG 13
static void figures(const struct sched_summary *s, const char **name,
		    const double **v)
{
	static const char *const n[SCHED_NFIG] = {
		"self_pct",	    "self_task_pct",	"self_softirq_pct",
		"peer_pct",	    "peer_task_pct",	"peer_softirq_pct",
		"other_pct",	    "idle_softirq_pct", "hardirq_pct",
		"softirq_pct",	    "idle_pct",		"soaker_pct",
		"unknown_pct",
	};
	const double *f[SCHED_NFIG] = {
		&s->self_pct,	 &s->self_task_pct,    &s->self_softirq_pct,
		&s->peer_pct,	 &s->peer_task_pct,    &s->peer_softirq_pct,
		&s->other_pct,	 &s->idle_softirq_pct, &s->hardirq_pct,
		&s->softirq_pct, &s->idle_pct,	       &s->soaker_pct,
		&s->unknown_pct,
	};
	int i;

	for (i = 0; i < SCHED_NFIG; i++) {
		name[i] = n[i];
		v[i] = f[i];
	}
}

static json_t *part(double pct, uint64_t n)
{
	return json_pack("{s:f, s:I}", "pct", pct, "count", (json_int_t)n);
}

json_t *sched_sample_json(const struct cpu_sample *cs)
{
	const struct sched_summary *s = &cs->sched;
	json_t *j = json_object(), *sirq = json_object(), *hirq = json_object();
	const char *name[SCHED_NFIG];
	const double *v[SCHED_NFIG];
	int i;

	figures(s, name, v);
	for (i = 0; i < SCHED_NFIG; i++)
		json_object_set_new(j, name[i], json_real(*v[i]));
	for (i = 0; i < SCHED_NVEC; i++)
		json_object_set_new(sirq, sched_vec_name(i),
				    part(s->vec_pct[i], s->vec_n[i]));
	for (i = 0; i < SCHED_NHI; i++)
		if (s->traced & (1u << i))
			json_object_set_new(hirq, sched_hirq_name(i),
					    part(s->hi_pct[i], s->hi_n[i]));
	json_object_set_new(j, "steal_pct", json_real(s->steal_pct));
	json_object_set_new(j, "softirq", sirq);
	json_object_set_new(j, "hardirq", hirq);
	json_object_set_new(j, "switches", json_integer((json_int_t)s->switches));
	json_object_set_new(j, "odd", json_integer((json_int_t)s->odd));
	json_object_set_new(j, "missed", json_integer((json_int_t)s->missed));
	json_object_set_new(j, "peers", json_integer(s->npeers));
	return j;
}

static int pct_ok(json_t *v)
{
	double x = json_number_value(v);

	return json_is_number(v) && x >= 0 && x <= 100.5;
}

static int count_of(json_t *v, uint64_t *n)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return -EINVAL;
	*n = (uint64_t)json_integer_value(v);
	return 0;
}

/* {"NET_RX": {"pct": x, "count": n}, ...}: by find, into pct[] and n[];
 * *seen gets a bit per name. */
static int parts_from_json(json_t *o, int (*find)(const char *), double *pct,
			   uint64_t *n, unsigned *seen)
{
	const char *k;
	json_t *e;
	int i;

	if (!json_is_object(o))
		return -EINVAL;
	json_object_foreach(o, k, e)
	{
		i = find(k);
		if (i < 0 || !pct_ok(json_object_get(e, "pct")) ||
		    count_of(json_object_get(e, "count"), &n[i]))
			return -EINVAL;
		pct[i] = json_number_value(json_object_get(e, "pct"));
		*seen |= 1u << i;
	}
	return 0;
}

int sched_sample_from_json(json_t *j, struct cpu_sample *cs, char *err,
			   size_t len)
{
	struct sched_summary *s = &cs->sched;
	const char *name[SCHED_NFIG];
	const double *v[SCHED_NFIG];
	unsigned vecs = 0;
	json_t *x;
	int i;

	memset(s, 0, sizeof(*s));
	if (!json_is_object(j))
		goto bad;
	figures(s, name, v);
	for (i = 0; i < SCHED_NFIG; i++) {
		x = json_object_get(j, name[i]);
		if (!pct_ok(x))
			goto bad;
		*(double *)v[i] = json_number_value(x);
	}
	if (parts_from_json(json_object_get(j, "softirq"), sched_vec_find,
			    s->vec_pct, s->vec_n, &vecs) ||
	    parts_from_json(json_object_get(j, "hardirq"), sched_hirq_find,
			    s->hi_pct, s->hi_n, &s->traced) ||
	    count_of(json_object_get(j, "switches"), &s->switches))
		goto bad;
	x = json_object_get(j, "odd");
	if (x && count_of(x, &s->odd))
		goto bad;
	x = json_object_get(j, "missed");
	if (x && count_of(x, &s->missed))
		goto bad;
	x = json_object_get(j, "steal_pct"); /* none from an older peer */
	if (x && !pct_ok(x))
		goto bad;
	s->steal_pct = x ? json_number_value(x) : 0;
	x = json_object_get(j, "peers");
	s->npeers = json_is_integer(x) && json_integer_value(x) >= 0 &&
				    json_integer_value(x) <= SCHED_MAX_PIDS ?
			    (int)json_integer_value(x) : 0;
	return 0;
bad:
	snprintf(err, len, "CPU report: malformed sched figures");
	memset(s, 0, sizeof(*s));
	return -EINVAL;
}

static void put(struct res_doc *d, json_t *sample, int metered,
		const char *side, const char *what, double v)
{
	char name[112];

	snprintf(name, sizeof(name), "%ssched_%s_%s", metered ? "metered_" : "",
		 side, what);
	res_metric(d, name, "%", RES_LOWER, 0);
	res_sample_set(sample, name, v);
}

/* "softirq_net_rx_pct" */
static void lower_name(char *buf, size_t len, const char *pre,
		       const char *name)
{
	size_t i, n = (size_t)snprintf(buf, len, "%s_", pre);

	for (i = 0; name[i] && n + 1 < len; i++)
		buf[n++] = (char)tolower((unsigned char)name[i]);
	snprintf(buf + n, len - n, "_pct");
}

void sched_add_metrics(struct res_doc *d, json_t *sample, const char *side,
		       const struct cpu_sample *s, int metered)
{
	static const int shown[] = {0, 3, 6, 7, 8, 9}; /* of figures() */
	const struct sched_summary *x = &s->sched;
	const char *name[SCHED_NFIG];
	const double *v[SCHED_NFIG];
	char what[64];
	size_t i;

	figures(x, name, v);
	for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		put(d, sample, metered, side, name[shown[i]], *v[shown[i]]);
	put(d, sample, metered, side, "steal_pct", x->steal_pct);
	for (i = 0; i < SCHED_NVEC; i++) {
		lower_name(what, sizeof(what), "softirq", sched_vec_name((int)i));
		put(d, sample, metered, side, what, x->vec_pct[i]);
	}
	for (i = 0; i < SCHED_NHI; i++) {
		if (!(x->traced & (1u << i)))
			continue;
		lower_name(what, sizeof(what), "hardirq", sched_hirq_name((int)i));
		put(d, sample, metered, side, what, x->hi_pct[i]);
	}
}

/* "NET_RX 2.1% (12345)" for each part that ran, after the label. */
static void print_parts(FILE *f, const char *label, double total,
			const double *pct, const uint64_t *n, int count,
			const char *(*name)(int), unsigned traced)
{
	int i;

	fprintf(f, "      %s %.1f%%:", label, total);
	for (i = 0; i < count; i++) {
		if (!(traced & (1u << i)))
			continue;
		if (n[i] || pct[i] > 0)
			fprintf(f, " %s %.2f%% (%llu)", name(i), pct[i],
				(unsigned long long)n[i]);
	}
	fputc('\n', f);
}

void sched_print(FILE *f, const char *side, const struct cpu_sample *s)
{
	const struct sched_summary *x = &s->sched;

	fprintf(f,
		"      shares: self %.1f%% (task %.1f, softirq %.1f)  peer %.1f%%",
		x->self_pct, x->self_task_pct, x->self_softirq_pct, x->peer_pct);
	if (x->npeers)
		fprintf(f, " (task %.1f, softirq %.1f)", x->peer_task_pct,
			x->peer_softirq_pct);
	fprintf(f, "  other %.1f%%  hardirq %.1f%%  softirq while idle %.1f%%\n",
		x->other_pct, x->hardirq_pct, x->idle_softirq_pct);
	print_parts(f, "softirq", x->softirq_pct, x->vec_pct, x->vec_n,
		    SCHED_NVEC, sched_vec_name, ~0u);
	print_parts(f, "hardirq", x->hardirq_pct, x->hi_pct, x->hi_n, SCHED_NHI,
		    sched_hirq_name, x->traced);
	fprintf(f,
		"      %llu switches; soakers %.1f%% (idle to sched); steal %.1f%% (not busy)\n",
		(unsigned long long)x->switches, x->soaker_pct, x->steal_pct);
}
