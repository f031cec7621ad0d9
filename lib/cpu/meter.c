/* meter.c: the meter table, meter sets, service demand, JSON and print. */
#include "config.h"
#include "meter.h"
#include "result.h"
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const struct meter_ops *const meter_table[] = {
	&meter_soak_ops, &meter_procstat_ops, &meter_rusage_ops,
	&meter_perf_ops, &meter_profile_ops, &meter_sched_ops, NULL
};

const struct meter_ops *meter_find(const char *name)
{
	int i;

	for (i = 0; name && meter_table[i]; i++)
		if (!strcmp(meter_table[i]->name, name))
			return meter_table[i];
	return NULL;
}

int meter_index(const char *name)
{
	int i;

	for (i = 0; name && meter_table[i]; i++)
		if (!strcmp(meter_table[i]->name, name))
			return i;
	return -1;
}

unsigned meter_flags_of(const char *name)
{
	const struct meter_ops *o = meter_find(name);

	return o ? o->flags : 0;
}

const char *meter_names(char *buf, size_t len, const char *sep)
{
	size_t k = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; meter_table[i] && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? sep : "",
				      meter_table[i]->name);
	return buf;
}

/* The primary paired meter's ops (soak's). */
static const struct meter_ops *pairer(void)
{
	int i;

	for (i = 0; meter_table[i]; i++)
		if ((meter_table[i]->flags & (METER_PAIRED | METER_PRIMARY)) ==
			    (METER_PAIRED | METER_PRIMARY) &&
		    meter_table[i]->words)
			return meter_table[i];
	return meter_table[0];
}

const char *meter_pairer(void)
{
	return pairer()->name;
}

const struct meter_words *meter_words_of(const char *by)
{
	const struct meter_ops *o = meter_find(by);

	return o && o->words ? o->words : pairer()->words;
}

int meter_is_primary(const struct cpu_sample *s)
{
	return (meter_flags_of(s->meter) & METER_PRIMARY) != 0;
}

int meter_primary(const struct cpu_sample *s, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (meter_is_primary(&s[i]) && (s[i].ok || s[i].paused))
			return s[i].ok ? i : -1;
	for (i = 0; i < n; i++)
		if (s[i].ok && !(meter_flags_of(s[i].meter) & METER_NO_LOAD))
			return i;
	return -1;
}

struct meter *meter_open(const char *name, const struct meter_opts *o,
			 char *err, size_t len)
{
	const struct meter_ops *ops = meter_find(name);
	struct meter *m;
	int r;

	if (!ops) {
		char names[160];

		snprintf(err, len, "unknown CPU meter \"%s\" (%s)", name,
			 meter_names(names, sizeof(names), ", "));
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		abort();
	m->ops = ops;
	m->priv = ops->priv_size ? calloc(1, ops->priv_size) : NULL;
	if (ops->priv_size && !m->priv)
		abort();
	if (ops->open) {
		r = ops->open(m, o, err, len);
		if (r) {
			free(m->priv);
			free(m);
			return NULL;
		}
	}
	return m;
}

int meter_start(struct meter *m)
{
	return m->ops->start ? m->ops->start(m) : 0;
}

int meter_stop(struct meter *m, struct cpu_sample *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->meter, sizeof(out->meter), "%s", m->ops->name);
	return m->ops->stop(m, out);
}

void meter_close(struct meter *m)
{
	if (!m)
		return;
	if (m->ops->close)
		m->ops->close(m);
	free(m->priv);
	free(m);
}

/* Is name one of the comma-separated words of list? */
static int list_has(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name))) {
		if ((p == list || p[-1] == ',') && (p[n] == ',' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

/* A meter of the list has a flag of flags. */
static int list_any(const char *list, unsigned flags)
{
	int i;

	for (i = 0; meter_table[i]; i++)
		if ((meter_table[i]->flags & flags) &&
		    list_has(list, meter_table[i]->name))
			return 1;
	return 0;
}

static int count_words(const char *list)
{
	int n = 1;

	for (; *list; list++)
		n += *list == ',';
	return n;
}

int meterset_open(struct meterset *s, const char *list,
		  const struct meter_opts *o, char *err, size_t len)
{
	char buf[256], *tok, *save = NULL;
	int usable = 0, asked, prof;

	memset(s, 0, sizeof(*s));
	snprintf(buf, sizeof(buf), "%s", list ? list : meter_default_list(o));
	/* soak runs paired; /proc/stat costs nothing and describes both
	 * runs of a pair, so it always comes along */
	asked = count_words(buf);
	/* a profile or a sched meter that cannot run here is one line, not
	 * the end of the run: any other meter of the set (procstat at
	 * least) will do */
	prof = list_any(buf, METER_OPTIONAL);
	if (list_any(buf, METER_WITH_PROCSTAT) &&
	    !list_has(buf, meter_procstat_ops.name) &&
	    strlen(buf) + 1 + strlen(meter_procstat_ops.name) < sizeof(buf))
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ",%s",
			 meter_procstat_ops.name);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (s->n == METER_MAX) {
			snprintf(err, len, "too many CPU meters (at most %d)",
				 METER_MAX);
			meterset_close(s);
			return -EINVAL;
		}
		if (!meter_find(tok)) {
			char names[160];

			snprintf(err, len, "unknown CPU meter \"%s\" (%s)",
				 tok, meter_names(names, sizeof(names), ", "));
			meterset_close(s);
			return -EINVAL;
		}
		snprintf(s->name[s->n], sizeof(s->name[0]), "%s", tok);
		s->m[s->n] = meter_open(tok, o, s->why[s->n],
					sizeof(s->why[0]));
		if (s->m[s->n] && (s->n < asked || prof))
			usable++; /* one the caller named */
		s->n++;
	}
	if (!s->n) {
		snprintf(err, len, "no CPU meter named");
		return -EINVAL;
	}
	if (!usable) {
		snprintf(err, len, "CPU meter %s unavailable: %s", s->name[0],
			 s->why[0]);
		meterset_close(s);
		return -ENODEV;
	}
	return 0;
}

int meterset_peer(struct meterset *s, pid_t pid, char *err, size_t len)
{
	int i, r;

	for (i = 0; i < s->n; i++) {
		if (!s->m[i] || !s->m[i]->ops->peer)
			continue;
		r = s->m[i]->ops->peer(s->m[i], pid, err, len);
		if (r)
			return r;
	}
	return 0;
}

const char *meterset_names(const struct meterset *s, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < s->n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i ? "," : "", s->name[i]);
	return buf;
}

int meterset_start(struct meterset *s)
{
	int i, r = 0;

	/* process meters last, so their window is the tightest */
	for (i = 0; i < s->n; i++)
		if (s->m[i] && meter_start(s->m[i]))
			r = -EIO;
	return r;
}

int meterset_stop(struct meterset *s, struct cpu_sample *out)
{
	int i;

	for (i = s->n - 1; i >= 0; i--) {
		if (s->m[i]) {
			if (meter_stop(s->m[i], &out[i]) && !out[i].why[0])
				snprintf(out[i].why, sizeof(out[i].why),
					 "meter failed to stop");
		} else {
			memset(&out[i], 0, sizeof(out[i]));
			snprintf(out[i].meter, sizeof(out[i].meter), "%s",
				 s->name[i]);
			snprintf(out[i].why, sizeof(out[i].why), "%s",
				 s->why[i]);
		}
	}
	return s->n;
}

void meterset_close(struct meterset *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		meter_close(s->m[i]);
	memset(s, 0, sizeof(*s));
}

int meterset_paired(const struct meterset *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->m[i] && (s->m[i]->ops->flags & METER_PAIRED))
			return 1;
	return 0;
}

const char *meterset_paired_by(const struct meterset *s)
{
	const char *by = NULL;
	int i;

	/* the ops' name: static, it outlives the set (a tool keeps it) */
	for (i = 0; i < s->n; i++)
		if (s->m[i] && (s->m[i]->ops->flags & METER_PAIRED) &&
		    (!by || (s->m[i]->ops->flags & METER_PRIMARY)))
			by = s->m[i]->ops->name;
	return by;
}

int meterset_metered(struct meterset *s, int metered, char *err,
		     size_t len)
{
	int i, r;

	for (i = 0; i < s->n; i++) {
		if (!s->m[i] || !s->m[i]->ops->pause)
			continue;
		r = s->m[i]->ops->pause(s->m[i], !metered, err, len);
		if (r)
			return r;
	}
	return 0;
}

int meter_soak_ran(const struct cpu_sample *s, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (s[i].ok && (meter_flags_of(s[i].meter) & METER_LOADS_BOX))
			return 1;
	return 0;
}

void meter_old_server(FILE *out, struct res_doc *doc,
		      const struct meter_old_server *w, int metered,
		      const struct cpu_sample *peer, int npeer, long run,
		      int *told)
{
	if (!(*told)++) {
		fprintf(out,
			"%s: the server is a %s from before paired runs: it cannot park its soakers, its side runs unpaired\n",
			w->tool, w->server);
		res_warn(
			doc,
			"the server is a %s from before paired runs: its side runs unpaired",
			w->server);
	}
	if (!metered && meter_soak_ran(peer, npeer)) {
		fprintf(out,
			"%s: the server's soakers ran during unmetered run %ld: that rate is perturbed\n",
			w->tool, run);
		res_warn(
			doc,
			"the server's soakers ran during unmetered run %ld: that rate is perturbed (a %s of this version parks them)",
			run, w->parker);
	}
}

int meter_perturbed(double ratio)
{
	return isfinite(ratio) &&
	       (ratio < METER_PERTURB_LO || ratio > METER_PERTURB_HI);
}

const char *meter_pair_run(const char *by, int metered)
{
	const struct meter_words *w = meter_words_of(by);

	return metered ? w->metered_run : w->unmetered_run;
}

const char *meter_pairs_words(const char *by)
{
	return meter_words_of(by)->pairs;
}

void meter_perturbation_by(char *buf, size_t len, const char *meter,
			   const struct stats_ratio *r)
{
	const struct meter_words *w = meter_words_of(meter);
	char ci[48] = "", tail[96];

	if (isfinite(r->lo))
		snprintf(ci, sizeof(ci), "%.2f-%.2f, ", r->lo, r->hi);
	if (!meter_perturbed(r->ratio))
		snprintf(tail, sizeof(tail),
			 "within 5%%: the %s did not change the rate",
			 w->agent);
	else
		snprintf(tail, sizeof(tail), "its %s describes that %s run",
			 w->figure, r->ratio < 1 ? "slower" : "faster");
	snprintf(buf, len,
		 "%s run reached %.2fx (%s%zu pair%s) of the unmetered rate; %s",
		 meter, r->ratio, ci, r->n, r->n == 1 ? "" : "s", tail);
}

int meter_runs(int paired, int repeat)
{
	return paired ? 2 * repeat : repeat;
}

int meter_run_metered(int paired, int i)
{
	return paired && i % 2 == 0;
}

double meter_cpu_s(const struct cpu_sample *s)
{
	if (!s->ok || (s->resolution_pct > 0 &&
		       s->busy_pct < s->resolution_pct / 2))
		return NAN;
	return s->busy_pct / 100.0 * s->ncpu * s->elapsed_s;
}

double meter_service_demand(const struct cpu_sample *s, double bytes)
{
	double cpu_s = meter_cpu_s(s);

	if (!isfinite(cpu_s) || bytes <= 0)
		return NAN;
	return cpu_s * 1e6 / (bytes / 1024.0);
}

double meter_per_cpu_s(const struct cpu_sample *s, double work)
{
	double cpu_s = meter_cpu_s(s);

	if (!(cpu_s > 0) || work <= 0)
		return NAN;
	return work / cpu_s;
}

/* Declare and set one figure, prefixed metered_ when it describes a
 * slowed (metered) run. */
static void put(struct res_doc *d, json_t *sample, const char *unit,
		int metered, const char *fmt, const char *side,
		const char *meter, double v)
{
	char name[96], full[112];

	snprintf(name, sizeof(name), fmt, side, meter);
	snprintf(full, sizeof(full), "%s%s", metered ? "metered_" : "", name);
	res_metric(d, full, unit, RES_LOWER, 0);
	res_sample_set(sample, full, v);
}

void meter_add_metrics(struct res_doc *d, json_t *sample, const char *side,
		       const struct cpu_sample *s, int n, double bytes,
		       int metered)
{
	const struct meter_ops *o;
	int i, prim = meter_primary(s, n), m;

	for (i = 0; i < n; i++) {
		if (!s[i].ok)
			continue;
		o = meter_find(s[i].meter);
		/* the primary meter's own figures stay plain */
		m = metered && !meter_is_primary(&s[i]);
		if (o && (o->flags & METER_NO_LOAD)) {
			/* its own figures, plain in the run it made */
			o->metrics(d, sample, side, &s[i], 0);
			continue;
		}
		put(d, sample, "%", m, "cpu_%s_%s_pct", side, s[i].meter,
		    s[i].busy_pct);
		if (bytes > 0)
			put(d, sample, "us/KB", m, "sd_%s_%s_us_per_kb", side,
			    s[i].meter, meter_service_demand(&s[i], bytes));
		if (i == prim) {
			put(d, sample, "%", m, "cpu_%s_pct%s", side, "",
			    s[i].busy_pct);
			if (bytes > 0)
				put(d, sample, "us/KB", m,
				    "sd_%s_us_per_kb%s", side, "",
				    meter_service_demand(&s[i], bytes));
		}
		if (i == prim && bytes > 0)
			meter_put_per_cpu(d, sample, side, s, n, "MB",
					  "MB/CPU-s", bytes / 1e6, metered);
		if (o && o->metrics)
			o->metrics(d, sample, side, &s[i], m);
	}
}

void meter_put_per_cpu(struct res_doc *d, json_t *sample, const char *side,
		       const struct cpu_sample *s, int n, const char *what,
		       const char *unit, double work, int metered)
{
	int prim = meter_primary(s, n);
	char name[96];

	if (prim < 0 || work <= 0)
		return;
	snprintf(name, sizeof(name), "%s%s_per_cpu_s_%s",
		 metered && !meter_is_primary(&s[prim]) ? "metered_" : "",
		 what, side);
	res_metric(d, name, unit, RES_HIGHER, 1);
	res_sample_set(sample, name, meter_per_cpu_s(&s[prim], work));
}

const char *meter_sd_text(char *buf, size_t len, double sd)
{
	if (isfinite(sd))
		snprintf(buf, len, "%.3f", sd);
	else
		snprintf(buf, len, "-");
	return buf;
}

void meter_put_metric(struct res_doc *d, json_t *sample, const char *unit,
		      int metered, const char *name, double v)
{
	put(d, sample, unit, metered, "%s%s", name, "", v);
}

void meter_print(FILE *f, const char *side, const struct cpu_sample *s,
		 int n, double bytes)
{
	const struct meter_ops *o;
	char sdb[32];
	int i, k;

	for (i = 0; i < n; i++) {
		if (!s[i].ok) {
			fprintf(f, "  cpu %-6s %-8s unavailable: %s\n", side,
				s[i].meter, s[i].why);
			continue;
		}
		o = meter_find(s[i].meter);
		if (o && (o->flags & METER_NO_LOAD)) {
			o->print(f, side, &s[i]);
			continue;
		}
		fprintf(f, "  cpu %-6s %-8s %5.1f%% of %d CPU%s", side,
			s[i].meter, s[i].busy_pct, s[i].ncpu,
			s[i].ncpu == 1 ? "" : "s");
		if (bytes > 0)
			fprintf(f, "  sd %s us/KB",
				meter_sd_text(sdb, sizeof(sdb),
					      meter_service_demand(&s[i],
								   bytes)));
		if (o && o->print)
			o->print(f, side, &s[i]);
		fputc('\n', f);
		if (o && o->print_lines)
			o->print_lines(f, side, &s[i]);
		for (k = 0; k < s[i].ncounters; k++) {
			const struct meter_counter *c = &s[i].ctr[k];

			if (c->ok)
				fprintf(f, "      %-24s %16.0f  (%.0f/s)\n",
					c->name, c->value, c->per_sec);
			else
				fprintf(f, "      %-24s %16s  %s\n", c->name,
					"unavailable", c->why);
		}
		if (s[i].note[0])
			fprintf(f, "      note: %s\n", s[i].note);
	}
}
