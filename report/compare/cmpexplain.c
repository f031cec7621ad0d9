/*
 * cmpexplain.c: what changed with a flagged row (cmpprint.h). Under the
 * tables, for each case whose rate or CPU row compare flagged (a
 * regression, or an improvement), what moved with it between the
 * baseline's cases of that key and the kernel's, so the likely cause is
 * on one screen: the host facts that differ (hostdiff.c: kernel,
 * sysctls, the interface, the CPU's power settings), TCP's facts of the
 * same case (ttcp-sf's "tcp" of both ends: retransmits, the limited
 * times, RTT, window) and, when the case was profiled, the profile's
 * families that moved most. Every string from a document is escaped.
 */
#include "config.h"
#include "cmpprint.h"
#include "esc.h"
#include "judge.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOST_FACTS    6	  /* facts named per case, then "and N more" */
#define PROF_FAMILIES 5	  /* families named per side, the largest moves */
#define PROF_MOVE     0.5 /* points: a family that moved less is left out */

struct emitter {
	void (*emit)(void *ctx, const char *line);
	void *ctx;
};

static void say(const struct emitter *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(const struct emitter *e, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	e->emit(e->ctx, line);
}

/* Whether a row is one whose change the block explains: a rate, or a
 * CPU figure (cpu_*, sd_*: CPU per unit of work). */
static int explained(const struct res_pool *s, const struct crow *r)
{
	return (r->flag || r->improved) &&
	       (res_pool_is_rate(s, r->metric) ||
		!strncmp(r->metric, "cpu_", 4) || !strncmp(r->metric, "sd_", 3));
}

/* A side's cases as a selection (its own copy of the cases). */
static void side_sel(const struct ckey *k, int side, struct res_sel *sel)
{
	size_t i;

	sel->n = sel->cap = k->n[side];
	sel->v = calloc(sel->n + 1, sizeof(*sel->v));
	if (!sel->v)
		abort();
	for (i = 0; i < sel->n; i++)
		sel->v[i] = *k->c[side][i];
}

struct facts {
	const struct emitter *e;
	size_t n;
};

static void host_fact(void *ctx, const char *name, const char *a,
		      const char *b)
{
	struct facts *f = ctx;

	if (f->n++ < HOST_FACTS)
		say(f->e, "    host: %s %s -> %s", name, a, b);
}

static void host_lines(const struct emitter *e, const struct ckey *k)
{
	struct res_sel sel[2];
	struct facts f = {e, 0};
	char unk[512];

	side_sel(k, 0, &sel[0]);
	side_sel(k, 1, &sel[1]);
	host_diff_each(&sel[0], &sel[1], host_fact, &f, unk, sizeof(unk));
	if (!f.n && unk[0])
		say(e, "    host: no recorded fact differs (not recorded on either side: %s)",
		    unk);
	else if (!f.n)
		say(e, "    host: no recorded fact differs");
	else if (f.n > HOST_FACTS)
		say(e, "    host: and %zu more facts (the host differences above)",
		    f.n - HOST_FACTS);
	free(sel[0].v);
	free(sel[1].v);
}

/* TCP's facts of one side of a key, the mean over its samples. */
enum { T_RETR, T_RWND, T_SNDBUF, T_SRTT, T_MINRTT, T_CWND, T_N };
static const char *const tcp_key[T_N] = {
	"retrans", "rwnd_limited_pct", "sndbuf_limited_pct", "srtt_us",
	"min_rtt_us", "cwnd"};

/* 1 when a sample of the side's cases had the object (remote: the
 * report's "remote.tcp", else "tcp"), its means into v. */
static int tcp_means(const struct ckey *k, int side, int remote, double *v)
{
	size_t i, j, n[T_N] = {0}, any = 0;
	json_t *s, *t, *x;
	int f;

	for (f = 0; f < T_N; f++)
		v[f] = 0;
	for (i = 0; i < k->n[side]; i++)
		json_array_foreach(json_object_get(k->c[side][i]->kase,
						   "samples"),
				   j, s)
		{
			t = remote ? json_object_get(json_object_get(s, "remote"),
						     "tcp")
				   : json_object_get(s, "tcp");
			if (!json_is_object(t))
				continue;
			any++;
			for (f = 0; f < T_N; f++) {
				x = json_object_get(t, tcp_key[f]);
				if (json_is_number(x)) {
					v[f] += json_number_value(x);
					n[f]++;
				}
			}
		}
	for (f = 0; f < T_N; f++)
		v[f] = n[f] ? v[f] / (double)n[f] : NAN;
	return any > 0;
}

static void tcp_side(const struct emitter *e, const struct ckey *k,
		     int remote)
{
	double a[T_N], b[T_N];
	int ha = tcp_means(k, 0, remote, a), hb = tcp_means(k, 1, remote, b);
	const char *who = remote ? "the other end" : "this end";

	if (!ha && !hb)
		return;
	if (!ha || !hb) {
		say(e, "    tcp (%s): recorded by the %s only", who,
		    ha ? "baseline" : "new kernel");
		return;
	}
	say(e, "    tcp (%s): retr %.0f -> %.0f, rwnd-limited %.1f%% -> %.1f%%, sndbuf-limited %.1f%% -> %.1f%%, srtt %.0f -> %.0f us, min rtt %.0f -> %.0f us, cwnd %.0f -> %.0f",
	    who, a[T_RETR], b[T_RETR], a[T_RWND], b[T_RWND], a[T_SNDBUF],
	    b[T_SNDBUF], a[T_SRTT], b[T_SRTT], a[T_MINRTT], b[T_MINRTT],
	    a[T_CWND], b[T_CWND]);
}

/* The profile's families of one side (prof_<side>_<family>_pct, not
 * the _self_ ones): each family's mean over the samples that carry it,
 * as an object family -> mean; NULL when none does. */
static json_t *families(const struct ckey *k, int side, const char *who)
{
	json_t *sum = json_object(), *cnt = json_object(), *s, *v, *out;
	char pre[32];
	const char *name;
	size_t i, j, plen;

	plen = (size_t)snprintf(pre, sizeof(pre), "prof_%s_", who);
	for (i = 0; i < k->n[side]; i++)
		json_array_foreach(json_object_get(k->c[side][i]->kase,
						   "samples"),
				   j, s)
			json_object_foreach(json_object_get(s, "metrics"), name,
					    v)
			{
				const char *fam = name + plen;
				size_t fl;

				if (strncmp(name, pre, plen) || !json_is_number(v))
					continue;
				fl = strlen(fam);
				if (!strncmp(fam, "self_", 5) || fl < 5 ||
				    strcmp(fam + fl - 4, "_pct"))
					continue;
				json_object_set_new(
					sum, name,
					json_real(json_number_value(
							  json_object_get(sum, name)) +
						  json_number_value(v)));
				json_object_set_new(
					cnt, name,
					json_integer(json_integer_value(
							     json_object_get(cnt, name)) +
						     1));
			}
	out = json_object_size(sum) ? json_object() : NULL;
	json_object_foreach(sum, name, v)
		json_object_set_new(out, name,
				    json_real(json_number_value(v) /
					      (double)json_integer_value(
						      json_object_get(cnt, name))));
	json_decref(sum);
	json_decref(cnt);
	return out;
}

struct move {
	const char *name; /* the metric (in a or b) */
	double a, b;
};

static int by_move(const void *x, const void *y)
{
	const struct move *p = x, *q = y;
	double dp = fabs(p->b - p->a), dq = fabs(q->b - q->a);

	return dp < dq ? 1 : dp > dq ? -1 : strcmp(p->name, q->name);
}

static void profile_side(const struct emitter *e, const struct ckey *k,
			 const char *who)
{
	json_t *a = families(k, 0, who), *b = families(k, 1, who), *v;
	struct move mv[64];
	char line[1024], en[96], ee[128];
	size_t n = 0, i, plen = strlen(who) + 6;
	const char *name;

	if (!a && !b)
		return;
	if (!a || !b) {
		say(e, "    profile (%s): profiled on the %s only", who,
		    a ? "baseline" : "new kernel");
		json_decref(a);
		json_decref(b);
		return;
	}
	json_object_foreach(a, name, v)
		if (n < 64 && json_object_get(b, name))
			mv[n++] = (struct move){name, json_number_value(v),
						json_number_value(
							json_object_get(b, name))};
	qsort(mv, n, sizeof(*mv), by_move);
	snprintf(line, sizeof(line), "    profile (%s):", who);
	for (i = 0; i < n && i < PROF_FAMILIES; i++) {
		size_t nl = strlen(mv[i].name);

		if (fabs(mv[i].b - mv[i].a) < PROF_MOVE)
			break;
		snprintf(en, sizeof(en), "%.*s", (int)(nl - plen - 4),
			 mv[i].name + plen);
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "%s %s %.1f%% -> %.1f%% (%+.1f)", i ? "," : "",
			 esc_text(ee, sizeof(ee), en), mv[i].a, mv[i].b,
			 mv[i].b - mv[i].a);
	}
	if (!i)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 " no family moved %.1f points or more", PROF_MOVE);
	e->emit(e->ctx, line);
	json_decref(a);
	json_decref(b);
}

/* The heading of a key: its name and each explained row's change. */
static void key_head(const struct emitter *e, const struct cmp_state *st,
		     size_t key, const struct res_pool *s)
{
	char name[512], line[1024], em[96];
	size_t i;

	esc_text(name, sizeof(name), st->keys[key].name);
	snprintf(line, sizeof(line), "  %s:", name);
	for (i = 0; i < st->nrows; i++) {
		const struct crow *r = &st->rows[i];

		if (r->key != key || !explained(s, r))
			continue;
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 " %s %+.1f%% %s;", esc_text(em, sizeof(em), r->metric),
			 r->change, cmp_verdict_word(r));
	}
	line[strlen(line) - 1] = 0;
	e->emit(e->ctx, line);
}

/* Whether any row of the key is explained. */
static int key_explained(const struct cmp_state *st, size_t key,
			 const struct res_pool *s)
{
	size_t i;

	for (i = 0; i < st->nrows; i++)
		if (st->rows[i].key == key && explained(s, &st->rows[i]))
			return 1;
	return 0;
}

void cmp_explain(const struct cmp_multi *m,
		 void (*emit)(void *ctx, const char *line), void *ctx)
{
	const struct emitter e = {emit, ctx};
	char la[256], lb[256];
	size_t k, key, said = 0;

	for (k = 0; k < m->nk; k++) {
		const struct cmp_state *st = &m->st[k];

		for (key = 0; key < st->nkeys; key++) {
			const struct ckey *ck = &st->keys[key];

			if (!key_explained(st, key, m->s))
				continue;
			if (!said++)
				say(&e, "What changed with the flagged rate and CPU rows (base -> new):");
			if (m->nk > 1)
				say(&e, " %s -> %s:",
				    esc_text(la, sizeof(la), m->base),
				    esc_text(lb, sizeof(lb), m->labels[k]));
			key_head(&e, st, key, m->s);
			host_lines(&e, ck);
			tcp_side(&e, ck, 0);
			tcp_side(&e, ck, 1);
			profile_side(&e, ck, "local");
			profile_side(&e, ck, "remote");
		}
	}
}
