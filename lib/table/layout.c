/*
 * layouts.c: the seed mails' tables as named layouts, and the generic
 * grid (--rows/--cols/--metric). Each layout picks its tool's cases,
 * groups them into the seed's rows and prints the seed's columns and
 * units; params that vary beyond the seed's keys become extra key
 * columns, so a fresh run's table never hides a difference.
 */
#include "config.h"
#include "fnotes.h"
#include "layout.h"
#include "paired.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const layout_names[] = {"p9",	   "nfs-rsize", "ttcp-cpu",
				    "nfs-clients", "chat",	"zc-vs-copy",
				    NULL};

typedef void (*numfmt)(char *buf, size_t len, double v);

static void fmt_1f(char *b, size_t l, double v)
{
	if (isfinite(v))
		snprintf(b, l, "%.1f", v);
	else
		snprintf(b, l, "-");
}

static void fmt_pct1(char *b, size_t l, double v)
{
	if (isfinite(v))
		snprintf(b, l, "%.1f%%", v);
	else
		snprintf(b, l, "-");
}

static void fmt_pct_trim(char *b, size_t l, double v)
{
	fmt_trim1(b, l, v);
	if (isfinite(v))
		strncat(b, "%", l - strlen(b) - 1);
}

static void fmt_6f(char *b, size_t l, double v)
{
	if (isfinite(v))
		snprintf(b, l, "%.6f", v);
	else
		snprintf(b, l, "-");
}

/* Selection with the layout options' --where filters. */
static void select_cases(const struct rl_set *s, const struct layout_opts *o,
			 const char *tool, const char *const *need_params,
			 const char *const *need_metrics,
			 const char *extra_where, struct rsel *out)
{
	const char *w[RPT_MAX_WHERE + 1];
	struct rfilter f = {.tool = tool,
			    .where = w,
			    .need_params = need_params,
			    .need_metrics = need_metrics};

	memcpy(w, o->where, o->nwhere * sizeof(*w));
	f.nwhere = o->nwhere;
	if (extra_where)
		w[f.nwhere++] = extra_where;
	sel_build(s, &f, out);
}

/* Whether param p has one value for each combination of keys[0..nk):
 * then it needs no column (nfsbench's iosize follows rsize). */
static int tied(const struct rsel *sel, const char **keys, size_t nk,
		const char *p)
{
	json_t *seen = json_object();
	char buf[256], combo[1024];
	size_t i, k;
	int ok = 1;

	for (i = 0; i < sel->n && ok; i++) {
		const char *v;
		json_t *had;

		combo[0] = 0;
		for (k = 0; k < nk; k++)
			snprintf(combo + strlen(combo),
				 sizeof(combo) - strlen(combo), "%s\x1f",
				 case_key(&sel->v[i], keys[k], buf,
					  sizeof(buf)));
		v = case_key(&sel->v[i], p, buf, sizeof(buf));
		had = json_object_get(seen, combo);
		if (!had)
			json_object_set_new(seen, combo, json_string(v));
		else
			ok = !strcmp(json_string_value(had), v);
	}
	json_decref(seen);
	return ok;
}

/* Keys: fixed ones, then label when it varies and is not fixed, then
 * every other varying param not excluded and not tied to the fixed
 * keys. Returns the count. */
static size_t make_keys(const struct rsel *sel, const char *const *fixed,
			const char *const *exclude, int label_if_varies,
			const char **keys)
{
	const char *extra[RPT_MAX_KEYS];
	size_t n = 0, m, i;

	for (; fixed && *fixed; fixed++)
		keys[n++] = *fixed;
	if (label_if_varies && sel_labels_vary(sel))
		keys[n++] = "label";
	m = sel_varying(sel, exclude, extra, RPT_MAX_KEYS - n);
	for (i = 0; i < m; i++)
		if (!tied(sel, keys, n, extra[i]))
			keys[n++] = extra[i];
	return n;
}

/* One param's value, the same in every selected case, or NULL. */
static const char *common_param(const struct rsel *sel, const char *p,
				char *buf, size_t len)
{
	char b1[256], b2[256];
	size_t i;

	if (!sel->n || !json_object_get(sel->v[0].params, p))
		return NULL;
	snprintf(buf, len, "%s", case_key(&sel->v[0], p, b1, sizeof(b1)));
	for (i = 1; i < sel->n; i++)
		if (strcmp(buf, case_key(&sel->v[i], p, b2, sizeof(b2))))
			return NULL;
	return buf;
}

/* "(mean of 3 runs per row; CPU by meter procstat)" below measured
 * tables; nothing under transcribed ones. With colparam, a row's cases
 * are split into columns by that param and the runs counted per cell.
 * A paired case counts its unmetered runs, those its rates come from. */
static void measured_note(const struct rgroups *g, const char *side,
			  const char *colparam, const struct layout_opts *o)
{
	const char *meter = NULL, *st = stat_name(NULL, NULL, o->stat);
	size_t r, i, j, nmin = (size_t)-1, nmax = 0;
	char line[256], key[8][64], buf[64];
	size_t cnt[8];
	int measured = 0, nkey;

	for (r = 0; r < g->n; r++) {
		nkey = 0;
		for (i = 0; i < g->g[r].n; i++) {
			const struct rcase *c = g->g[r].cases[i];
			const char *k = colparam ? case_key(c, colparam, buf,
							    sizeof(buf)) :
						   "";

			if (c->doc->transcribed)
				continue;
			measured = 1;
			for (j = 0; j < (size_t)nkey && strcmp(key[j], k); j++)
				;
			if (j == (size_t)nkey) {
				if (nkey == 8)
					continue;
				snprintf(key[nkey], sizeof(key[0]), "%s", k);
				cnt[nkey++] = 0;
			}
			cnt[j] += case_result_runs(c->kase);
			if (!meter && side)
				meter = case_meter(c->kase, side);
		}
		for (j = 0; j < (size_t)nkey; j++) {
			nmin = cnt[j] < nmin ? cnt[j] : nmin;
			nmax = cnt[j] > nmax ? cnt[j] : nmax;
		}
	}
	if (!measured)
		return;
	if (nmin == nmax)
		snprintf(line, sizeof(line), "(%s of %zu run%s per %s", st,
			 nmin, nmin == 1 ? "" : "s", colparam ? "cell" : "row");
	else
		snprintf(line, sizeof(line), "(%s of %zu-%zu runs per %s", st,
			 nmin, nmax, colparam ? "cell" : "row");
	if (side)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "; CPU by meter %s", meter ? meter : "(none usable)");
	strncat(line, ")", sizeof(line) - strlen(line) - 1);
	fn_note(o->out, o->fmt, line);
}

/* Print a table with its marks, then what goes under it: the
 * footnotes, the measured-runs note (side and colparam as
 * measured_note's) and where paired figures came from. */
static void print_marked(struct tbl *t, struct fnotes *fn,
			 const struct rgroups *g, const char *side,
			 const char *colparam, const struct layout_opts *o)
{
	fn_marks(fn, t);
	tbl_print(o->out, t, o->fmt);
	fn_footnotes(o->out, fn, o->fmt);
	measured_note(g, side, colparam, o);
	fn_sources(o->out, fn, o->fmt);
}

/* Fill the key cells of a row; returns the next column. */
static size_t put_keys(struct tbl *t, size_t row, const struct rgroup *g,
		       const char *const *keys, size_t nkeys)
{
	size_t k;

	for (k = 0; k < nkeys; k++) {
		if (!strcmp(keys[k], "total_bytes")) {
			char b[64];

			fmt_bin_size(b, sizeof(b), strtod(g->vals[k], NULL));
			tbl_set(t, row, k, "%s",
				g->vals[k][0] == '-' ? "-" : b);
		} else {
			tbl_set(t, row, k, "%s", g->vals[k]);
		}
	}
	return nkeys;
}

/* Head of a key column: the seed's names for the seed's keys. */
static const char *key_head(const char *key)
{
	static const struct {
		const char *key, *head;
	} names[] = {{"label", "Kernel"},
		     {"iosize", "IO SIZE"},
		     {"total_bytes", "TOTAL SIZE"},
		     {NULL, NULL}};
	int i;

	for (i = 0; names[i].key; i++)
		if (!strcmp(names[i].key, key))
			return names[i].head;
	return key;
}

static void cell(char *b, size_t l, struct rcase *const *cs, size_t n,
		 const char *metric, const struct layout_opts *o,
		 const char *param, const char *value, numfmt f)
{
	struct cellv v;

	cell_value(cs, n, metric, o->stat, param, value, &v);
	f(b, l, v.ok ? v.v : NAN);
}

/* ---- seed 000: 9P WRITE / READ by IO size, No ZC against ZC ---- */
static int lay_p9(const struct rl_set *s, const struct layout_opts *o)
{
	static const char *const need[] = {"op", "iosize", NULL};
	static const char *const needm[] = {"throughput_MBps", NULL};
	static const char *const fixed[] = {"iosize", "total_bytes", NULL};
	static const char *const excl[] = {"op", "iosize", "total_bytes",
					   "path", NULL};
	static const char *const ops[] = {"write", "read", NULL};
	static const char *const paths[] = {"copy", "direct"}; /* No ZC, ZC */
	int printed = 0, i;

	for (i = 0; ops[i]; i++) {
		const char *keys[RPT_MAX_KEYS];
		char w[32], title[32], b[64];
		struct fnotes fn;
		struct rgroups g;
		struct rsel sel;
		struct tbl *t;
		size_t nk, r, k;
		int p;

		snprintf(w, sizeof(w), "op=%s", ops[i]);
		select_cases(s, o, "p9bench", need, needm, w, &sel);
		if (!sel.n) {
			sel_free(&sel);
			continue;
		}
		nk = make_keys(&sel, fixed, excl, 1, keys);
		grp_build(&sel, keys, nk, &g);
		t = tbl_new(nk + 2);
		for (k = 0; k < nk; k++)
			tbl_col(t, k, key_head(keys[k]), AL_LEFT);
		tbl_col(t, nk, "No ZC", AL_RIGHT);
		tbl_col(t, nk + 1, "ZC", AL_RIGHT);
		fn_init(&fn);
		for (r = 0; r < g.n; r++) {
			size_t row = tbl_add_row(t);

			put_keys(t, row, &g.g[r], keys, nk);
			for (p = 0; p < 2; p++) {
				cell(b, sizeof(b), g.g[r].cases, g.g[r].n,
				     "throughput_MBps", o, "path", paths[p],
				     fmt_p9_rate);
				tbl_set(t, row, nk + (size_t)p, "%s", b);
				fn_cell(&fn, row, nk + (size_t)p, g.g[r].cases,
					g.g[r].n, "throughput_MBps", "path",
					paths[p], FN_ANY);
				fn_source(&fn, "rates", g.g[r].cases, g.g[r].n,
					  "throughput_MBps", "path", paths[p]);
			}
		}
		snprintf(title, sizeof(title), "%s", ops[i]);
		for (k = 0; title[k]; k++)
			title[k] = (char)(title[k] - 32 * (title[k] >= 'a' &&
							   title[k] <= 'z'));
		if (printed)
			fputc('\n', o->out);
		tbl_title(o->out, o->fmt, title, 0);
		print_marked(t, &fn, &g, NULL, "path", o);
		fn_free(&fn);
		tbl_free(t);
		grp_free(&g);
		sel_free(&sel);
		printed = 1;
	}
	return !printed;
}

/*
 * The two NFS seed layouts share one shape: rows keyed by label and the
 * size or client count, a throughput column and a CPU column, a title
 * "NFS/PROTO ..." (proto upper-cased) and the measured-runs note.
 */
struct nfs_tab {
	const char *need[2];	/* param a case must have */
	const char *fixed[4];	/* row keys, in order */
	const char *excl[3];	/* keys never added as extra columns */
	const char *tput_head;	/* "mbyte/sec" or "MB/sec" */
	numfmt tput_fmt;
	const char *cpu_head, *cpu_metric;
	numfmt cpu_fmt;
	const char *what;	/* title after "NFS/PROTO " */
	const char *side;	/* the CPU's side for the note */
	int cpu_optional;	/* 1: rows without the CPU metric stay */
};

static int nfs_table(const struct rl_set *s, const struct layout_opts *o,
		     const struct nfs_tab *nt, int sep)
{
	const char *needm[] = {"throughput_MBps",
			       nt->cpu_optional ? NULL : nt->cpu_metric, NULL};
	const char *keys[RPT_MAX_KEYS], *proto;
	char title[96], pbuf[64], b[64];
	struct fnotes fn;
	struct rgroups g;
	struct rsel sel;
	struct tbl *t;
	size_t nk, r, k;

	select_cases(s, o, "nfsbench", nt->need, needm, NULL, &sel);
	if (!sel.n) {
		sel_free(&sel);
		return 1;
	}
	nk = make_keys(&sel, nt->fixed, nt->excl, 0, keys);
	grp_build(&sel, keys, nk, &g);
	t = tbl_new(nk + 2);
	for (k = 0; k < nk; k++)
		tbl_col(t, k, key_head(keys[k]), k ? AL_RIGHT : AL_LEFT);
	tbl_col(t, nk, nt->tput_head, AL_RIGHT);
	tbl_col(t, nk + 1, nt->cpu_head, AL_RIGHT);
	fn_init(&fn);
	for (r = 0; r < g.n; r++) {
		struct rcase **cs = g.g[r].cases;
		size_t row = tbl_add_row(t), n = g.g[r].n;

		put_keys(t, row, &g.g[r], keys, nk);
		cell(b, sizeof(b), cs, n, "throughput_MBps", o, NULL, NULL,
		     nt->tput_fmt);
		tbl_set(t, row, nk, "%s", b);
		cell(b, sizeof(b), cs, n, nt->cpu_metric, o, NULL, NULL,
		     nt->cpu_fmt);
		tbl_set(t, row, nk + 1, "%s", b);
		/* a perturbation is about the CPU: the rate carries it only
		 * when the row has no CPU */
		fn_cell(&fn, row, nk, cs, n, "throughput_MBps", NULL, NULL,
			cell_cases(cs, n, nt->cpu_metric, NULL, NULL, NULL)
				? FN_SOAKED
				: FN_ANY);
		fn_cell(&fn, row, nk + 1, cs, n, nt->cpu_metric, NULL, NULL,
			FN_ANY);
		fn_source(&fn, "rates", cs, n, "throughput_MBps", NULL, NULL);
		fn_source(&fn, "CPU", cs, n, nt->cpu_metric, NULL, NULL);
	}
	proto = common_param(&sel, "proto", pbuf, sizeof(pbuf));
	snprintf(title, sizeof(title), "NFS%s%s %s", proto ? "/" : "",
		 proto ? proto : "", nt->what);
	for (k = 0; title[k] && title[k] != ' '; k++)
		if (title[k] >= 'a' && title[k] <= 'z')
			title[k] = (char)(title[k] - 32);
	if (sep)
		fputc('\n', o->out);
	tbl_title(o->out, o->fmt, title, '=');
	print_marked(t, &fn, &g, nt->side, NULL, o);
	fn_free(&fn);
	tbl_free(t);
	grp_free(&g);
	sel_free(&sel);
	return 0;
}

/* ---- seed 001: NFS client and server tables by rsize/wsize ---- */
static int lay_nfs_rsize(const struct rl_set *s, const struct layout_opts *o)
{
	static const struct nfs_tab client = {
		{"rsize", NULL}, {"label", "rsize", "wsize", NULL},
		{"rsize", "wsize", NULL}, "mbyte/sec", fmt_1f,
		"CPU", "cpu_local_pct", fmt_pct1, "client results", "local", 0
	};
	static const struct nfs_tab server = {
		{"rsize", NULL}, {"label", "rsize", "wsize", NULL},
		{"rsize", "wsize", NULL}, "mbyte/sec", fmt_1f,
		"CPU", "cpu_remote_pct", fmt_pct1, "server results", "remote", 0
	};
	int a = nfs_table(s, o, &client, 0);
	int b = nfs_table(s, o, &server, !a);

	return a && b;
}

/* ---- seed 002: many NFS clients against one server ---- */
static int lay_nfs_clients(const struct rl_set *s, const struct layout_opts *o)
{
	static const struct nfs_tab clients = {
		{"clients", NULL}, {"label", "clients", NULL},
		{"clients", NULL}, "MB/sec", fmt_trim1,
		"server CPU", "cpu_remote_pct", fmt_pct_trim,
		"server, many clients", "remote", 1
	};

	return nfs_table(s, o, &clients, 0);
}

/* The cases and metric a direction's CPU figure came from. */
struct dir_src {
	struct rcase **cs; /* owned */
	size_t n;
	const char *metric;
};

/*
 * The CPU of the sending or receiving box over a row's cases: a
 * ttcp-sf transmitter's local figure is the sender's, its remote the
 * receiver's, and the other way round for a receiver; zcc sends the
 * files (its local CPU is the sender's), zcs receives them. used says
 * which cases and metric gave it (free used->cs).
 */
static void direction_cpu(struct rcase *const *cs, size_t n, int sending,
			  const struct layout_opts *o, struct cellv *v,
			  struct dir_src *used)
{
	struct rcase **loc = calloc(n + 1, sizeof(*loc));
	struct rcase **rem = calloc(n + 1, sizeof(*rem));
	size_t i, nl = 0, nr = 0;
	char buf[64];

	if (!loc || !rem)
		abort();
	for (i = 0; i < n; i++) {
		const char *role = case_key(cs[i], "role", buf, sizeof(buf));
		int sender_is_local;

		if (!strcmp(cs[i]->doc->tool, "zcc"))
			sender_is_local = 1;
		else if (!strcmp(cs[i]->doc->tool, "zcs"))
			sender_is_local = 0;
		else
			sender_is_local = strcmp(role, "receive") != 0;
		if (sender_is_local == sending)
			loc[nl++] = cs[i];
		else
			rem[nr++] = cs[i];
	}
	cell_value(loc, nl, "cpu_local_pct", o->stat, NULL, NULL, v);
	*used = (struct dir_src){loc, nl, "cpu_local_pct"};
	if (!v->ok) {
		cell_value(rem, nr, "cpu_remote_pct", o->stat, NULL, NULL, v);
		*used = (struct dir_src){rem, nr, "cpu_remote_pct"};
		free(loc);
	} else {
		free(rem);
	}
}

/* Mark a direction's CPU cell and note where it came from; frees u.
 * Returns how many cases gave the figure. */
static size_t direction_mark(struct fnotes *fn, size_t row, size_t col,
			     struct dir_src *u)
{
	size_t n = cell_cases(u->cs, u->n, u->metric, NULL, NULL, NULL);

	fn_cell(fn, row, col, u->cs, u->n, u->metric, NULL, NULL, FN_ANY);
	fn_source(fn, "CPU", u->cs, u->n, u->metric, NULL, NULL);
	free(u->cs);
	return n;
}

/* Extra params of a group as " (k=v k=v)", or "". */
static void qualifier(char *b, size_t l, const struct rgroup *g,
		      const char *const *keys, size_t from, size_t nk)
{
	size_t k;

	b[0] = 0;
	for (k = from; k < nk; k++)
		snprintf(b + strlen(b), l - strlen(b), "%s%s=%s",
			 k == from ? " (" : " ", keys[k], g->vals[k]);
	if (nk > from)
		strncat(b, ")", l - strlen(b) - 1);
}

/* ---- seed 001: ttcp-sf CPU lines ---- */
static int lay_ttcp_cpu(const struct rl_set *s, const struct layout_opts *o)
{
	static const char *const fixed[] = {"label", NULL};
	static const char *const excl[] = {"role", NULL};
	const char *keys[RPT_MAX_KEYS];
	struct fnotes fn;
	struct rgroups g;
	struct rsel sel;
	struct tbl *t;
	size_t nk, r;
	int dir;

	select_cases(s, o, "ttcp-sf", NULL, NULL, NULL, &sel);
	if (!sel.n) {
		sel_free(&sel);
		return 1;
	}
	nk = make_keys(&sel, fixed, excl, 0, keys);
	grp_build(&sel, keys, nk, &g);
	t = tbl_new(2);
	tbl_col(t, 0, "", AL_LEFT);
	tbl_col(t, 1, "CPU", AL_RIGHT);
	fn_init(&fn);
	for (r = 0; r < g.n; r++) {
		char q[256], b[64];

		qualifier(q, sizeof(q), &g.g[r], keys, 1, nk);
		for (dir = 1; dir >= 0; dir--) {
			struct dir_src u;
			struct cellv v;
			size_t row;

			direction_cpu(g.g[r].cases, g.g[r].n, dir, o, &v, &u);
			if (!v.ok) {
				free(u.cs);
				continue;
			}
			row = tbl_add_row(t);
			tbl_set(t, row, 0,
				"%s, %s with ttcp-sf%s:", g.g[r].vals[0],
				dir ? "sending" : "receiving", q);
			fmt_pct1(b, sizeof(b), v.v);
			tbl_set(t, row, 1, "%s", b);
			direction_mark(&fn, row, 1, &u);
		}
	}
	tbl_title(o->out, o->fmt, "ttcp-sf Results", '=');
	print_marked(t, &fn, &g, "local", NULL, o);
	fn_free(&fn);
	tbl_free(t);
	grp_free(&g);
	sel_free(&sel);
	return 0;
}

/* ---- seed 004: chat Mean / Standard Deviation blocks ---- */
static int lay_chat(const struct rl_set *s, const struct layout_opts *o)
{
	static const char *const needm[] = {"msgs_per_s", NULL};
	static const char *const fixed[] = {"label", NULL};
	static const struct {
		const char *name, *metric;
	} rows[] = {{"Throughput", "msgs_per_s"}, {"Real", "real_s"},
		    {"System", "system_s"},	  {"User", "user_s"},
		    {"CPU", "time_cpu_pct"},	  {NULL, NULL}};
	const char *keys[RPT_MAX_KEYS];
	struct fnotes fn;
	struct rgroups g;
	struct rsel sel;
	struct tbl *t;
	size_t nk, r;
	int i;

	select_cases(s, o, "chatbench", NULL, needm, NULL, &sel);
	if (!sel.n) {
		sel_free(&sel);
		return 1;
	}
	nk = make_keys(&sel, fixed, NULL, 0, keys);
	grp_build(&sel, keys, nk, &g);
	t = tbl_new(3);
	tbl_col(t, 0, "", AL_LEFT);
	tbl_col(t, 1, "Mean", AL_RIGHT);
	tbl_col(t, 2, "Standard Deviation", AL_RIGHT);
	fn_init(&fn);
	for (r = 0; r < g.n; r++) {
		char q[256];

		qualifier(q, sizeof(q), &g.g[r], keys, 1, nk);
		if (r && o->fmt == FMT_TEXT)
			tbl_section(t, "%s", "");
		tbl_section(t, "==> %s%s <==", g.g[r].vals[0], q);
		for (i = 0; rows[i].name; i++) {
			struct cellv v;
			size_t row = tbl_add_row(t);
			char b[64];

			cell_value(g.g[r].cases, g.g[r].n, rows[i].metric,
				   o->stat, NULL, NULL, &v);
			tbl_set(t, row, 0, "%s", rows[i].name);
			fmt_6f(b, sizeof(b), v.ok ? v.v : NAN);
			tbl_set(t, row, 1, "%s", b);
			fmt_6f(b, sizeof(b), v.ok ? v.sd : NAN);
			tbl_set(t, row, 2, "%s", b);
			/* no figure here is the soak CPU: the rate's mean
			 * carries the mark */
			if (!i)
				fn_cell(&fn, row, 1, g.g[r].cases, g.g[r].n,
					rows[i].metric, NULL, NULL, FN_ANY);
			fn_source(&fn, rows[i].name, g.g[r].cases, g.g[r].n,
				  rows[i].metric, NULL, NULL);
		}
	}
	print_marked(t, &fn, &g, NULL, NULL, o);
	fn_free(&fn);
	tbl_free(t);
	grp_free(&g);
	sel_free(&sel);
	return 0;
}

/* ---- copy against zero-copy: method, both boxes' CPU, MB/s ---- */
static int zc_table(const struct rl_set *s, const struct layout_opts *o,
		    const char *tool, int sep)
{
	static const char *const need[] = {"method", NULL};
	static const char *const fixed[] = {"label", "method", NULL};
	static const char *const excl[] = {"method", "role", NULL};
	const char *keys[RPT_MAX_KEYS];
	struct fnotes fn;
	struct rgroups g;
	struct rsel sel;
	struct tbl *t;
	size_t nk, r, k;
	char title[64];

	select_cases(s, o, tool, need, NULL, NULL, &sel);
	if (!sel.n) {
		sel_free(&sel);
		return 1;
	}
	nk = make_keys(&sel, fixed, excl, 0, keys);
	grp_build(&sel, keys, nk, &g);
	t = tbl_new(nk + 3);
	for (k = 0; k < nk; k++)
		tbl_col(t, k, key_head(keys[k]), k > 1 ? AL_RIGHT : AL_LEFT);
	tbl_col(t, nk, "sending CPU", AL_RIGHT);
	tbl_col(t, nk + 1, "receiving CPU", AL_RIGHT);
	tbl_col(t, nk + 2, "MB/s", AL_RIGHT);
	fn_init(&fn);
	for (r = 0; r < g.n; r++) {
		size_t row = tbl_add_row(t);
		struct dir_src u;
		struct cellv v;
		size_t cpu_cases = 0;
		char b[64];
		int dir;

		put_keys(t, row, &g.g[r], keys, nk);
		fn_source(&fn, "rates", g.g[r].cases, g.g[r].n,
			  "throughput_MBps", NULL, NULL);
		for (dir = 1; dir >= 0; dir--) {
			size_t col = nk + (size_t)(1 - dir);

			direction_cpu(g.g[r].cases, g.g[r].n, dir, o, &v, &u);
			fmt_pct1(b, sizeof(b), v.ok ? v.v : NAN);
			tbl_set(t, row, col, "%s", b);
			cpu_cases += direction_mark(&fn, row, col, &u);
		}
		cell(b, sizeof(b), g.g[r].cases, g.g[r].n, "throughput_MBps", o,
		     NULL, NULL, fmt_1f);
		tbl_set(t, row, nk + 2, "%s", b);
		/* a perturbation marks the CPU; the rate only without one */
		fn_cell(&fn, row, nk + 2, g.g[r].cases, g.g[r].n,
			"throughput_MBps", NULL, NULL,
			cpu_cases ? FN_SOAKED : FN_ANY);
	}
	if (sep)
		fputc('\n', o->out);
	snprintf(title, sizeof(title), "Copy against zero-copy: %s", tool);
	tbl_title(o->out, o->fmt, title, '=');
	print_marked(t, &fn, &g, "local", NULL, o);
	fn_free(&fn);
	tbl_free(t);
	grp_free(&g);
	sel_free(&sel);
	return 0;
}

static int lay_zc_vs_copy(const struct rl_set *s, const struct layout_opts *o)
{
	int a = zc_table(s, o, "ttcp-sf", 0);
	int b = zc_table(s, o, "zcc", !a);

	return a && b;
}

static const struct {
	const char *name; /* --layout NAME */
	const char *tool; /* what it needs, for the skip note */
	const char *what; /* one line: which seed table */
	int (*print)(const struct rl_set *s, const struct layout_opts *o);
} layouts[] = {
	{"p9", "p9bench", "9P WRITE/READ by IO size, No ZC vs ZC (seed 000)",
	 lay_p9},
	{"nfs-rsize", "nfsbench",
	 "NFS client and server by rsize/wsize (seed 001)", lay_nfs_rsize},
	{"ttcp-cpu", "ttcp-sf", "ttcp-sf sending/receiving CPU (seed 001)",
	 lay_ttcp_cpu},
	{"nfs-clients", "nfsbench", "NFS server with many clients (seed 002)",
	 lay_nfs_clients},
	{"chat", "chatbench", "chat Mean / Standard Deviation (seed 004)",
	 lay_chat},
	{"zc-vs-copy", "ttcp-sf or zcc",
	 "copy vs zero-copy: CPU of both boxes and MB/s", lay_zc_vs_copy},
	{NULL, NULL, NULL, NULL},
};

const char *layout_tool(const char *name)
{
	int i;

	for (i = 0; layouts[i].name; i++)
		if (!strcmp(name, layouts[i].name))
			return layouts[i].tool;
	return NULL;
}

int layout_print(const char *name, const struct rl_set *s,
		 const struct layout_opts *lo)
{
	struct layout_opts oo = *lo, *o = &oo;
	int i, printed = 0, r;

	if (!o->out)
		o->out = stdout;

	for (i = 0; layouts[i].name; i++) {
		if (!o->all && strcmp(name, layouts[i].name))
			continue;
		if (o->all) {
			char line[160];

			if (i)
				fputc('\n', o->out);
			snprintf(line, sizeof(line), "--- %s: %s",
				 layouts[i].name, layouts[i].what);
			tbl_note(o->out, o->fmt, line);
			fputc('\n', o->out);
		}
		r = layouts[i].print(s, o);
		if (r && o->all) {
			char line[160];

			snprintf(line, sizeof(line),
				 "(skipped: no %s results for this layout)",
				 layouts[i].tool);
			tbl_note(o->out, o->fmt, line);
		}
		printed += !r;
		if (!o->all)
			return r;
	}
	if (!o->all)
		return -1;
	return !printed;
}
