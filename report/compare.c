/*
 * compare.c: zcbreport compare: two sets of runs, per case and metric,
 * in mmtests' layout (Hmean  case  value (  +x.xx%), the baseline at
 * 0.00%) with lkp's +- stddev%, judged by Welch's t-test on log values,
 * Mann-Whitney U as a second opinion, Benjamini-Hochberg over every row,
 * and flagged only when significant, larger than max(threshold, the
 * baseline's own noise) and in the metric's bad direction. --paired
 * compares interleaved runs sample by sample (paired t on log ratios,
 * Wilcoxon signed-rank). A figure of runs with soakers on is never
 * judged against one of runs without (a paired case's metered and
 * unmetered runs, an unpaired soaked run): such a row says why it is not
 * comparable. A case whose soak meter slowed it (perturbation outside
 * 0.95-1.05) says so on its rows and under the tables. Exit 1 when a
 * regression is flagged, 2 on bad input, else 0.
 */
#include "config.h"
#include "cmpstats.h"
#include "cli.h"
#include "esc.h"
#include "log.h"
#include "meter.h"
#include "report.h"
#include "stats.h"
#include "units.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cmp_cfg {
	double threshold; /* percent: smaller changes never flagged */
	double alpha;	  /* significance level after BH */
	double max_cov;	  /* percent: noisier baselines not judged */
	long min_n;	  /* fewer samples a side: not judged */
	int paired;	  /* interleaved runs, pair by sample order */
	char *split;	  /* PARAM=A,B: both sides from one set */
	const char *split_param, *split_a, *split_b;
	const char *metrics[32]; /* --metric; none = all shared */
	size_t nmetrics;
	const char *where[RPT_MAX_WHERE];
	size_t nwhere;
	char **paths;
	int npaths;
};

struct ckey {
	char *name;	     /* "ttcp-sf method=sendfile size=65536" */
	struct rcase **c[2]; /* cases of base [0] and new [1] */
	size_t n[2], cap[2];
	struct stats_ratio pert[2]; /* each side's worst perturbation */
	size_t npert[2];	    /* its cases with a perturbation */
};

struct crow {
	size_t key; /* index into keys */
	const char *metric;
	double v[2], cov[2]; /* statistic and cov of each side */
	size_t n[2];
	double change;		/* percent, new against base */
	struct cmp_result t, u; /* t-test and rank test */
	int have_t, have_u;
	double q;	  /* BH-adjusted p of the t-test */
	const char *note; /* why not judged, or the verdict */
	char why[160];	  /* not comparable: why (else "") */
	int flag;	  /* a regression */
};

struct cmp_state {
	struct ckey *keys;
	size_t nkeys, capkeys;
	json_t *index; /* key string -> index */
	struct crow *rows;
	size_t nrows, caprows;
	size_t only[2]; /* keys seen on one side only */
	size_t incomparable; /* rows of soaked against unsoaked runs */
};

static void usage(void)
{
	printf("usage: zcbreport compare [options] BASE NEW\n"
	       "       zcbreport compare --split PARAM=A,B [options] PATH...\n"
	       "  -t, --threshold PCT  smallest change flagged (default 2)\n"
	       "  -a, --alpha A        significance after Benjamini-Hochberg "
	       "(default 0.05)\n"
	       "      --max-cov PCT    baseline noisier than this is not "
	       "judged (default 25)\n"
	       "      --min-n N        fewer samples a side is not judged "
	       "(default 3)\n"
	       "  -p, --paired         runs interleaved: pair samples by "
	       "order\n"
	       "  -s, --split P=A,B    base = cases with P=A, new = P=B, "
	       "matched on the rest\n"
	       "  -m, --metric M[,M]   only these metrics\n"
	       "  -w, --where P=V      only cases whose param P is V\n"
	       "  -v / -q              more / fewer diagnostics\n"
	       "Exit: 1 a regression flagged, 2 bad input, else 0.\n");
}

static void parse_opts(int argc, char **argv, struct cmp_cfg *c)
{
	static const struct option opts[] = {
		{"threshold", required_argument, NULL, 't'},
		{"alpha", required_argument, NULL, 'a'},
		{"max-cov", required_argument, NULL, 'C'},
		{"min-n", required_argument, NULL, 'N'},
		{"paired", no_argument, NULL, 'p'},
		{"split", required_argument, NULL, 's'},
		{"metric", required_argument, NULL, 'm'},
		{"where", required_argument, NULL, 'w'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	char *tok, *save = NULL, *comma;
	int o;

	while ((o = getopt_long(argc, argv, "t:a:ps:m:w:hvq", opts, NULL)) !=
	       -1) {
		switch (o) {
		case 't':
			c->threshold =
				cli_double("--threshold", optarg, 0, 1000);
			break;
		case 'a':
			c->alpha = cli_double("--alpha", optarg, 1e-9, 0.5);
			break;
		case 'C':
			c->max_cov = cli_double("--max-cov", optarg, 0, 1e6);
			break;
		case 'N':
			if (units_parse_long(optarg, 2, 1000000, &c->min_n))
				die_usage("--min-n: \"%s\" is not an integer "
					  ">= 2",
					  optarg);
			break;
		case 'p':
			c->paired = 1;
			break;
		case 's':
			c->split = optarg;
			break;
		case 'm':
			for (tok = strtok_r(optarg, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save))
				if (c->nmetrics < 32)
					c->metrics[c->nmetrics++] = tok;
			break;
		case 'w':
			if (!strchr(optarg, '=') || c->nwhere == RPT_MAX_WHERE)
				die_usage("--where: \"%s\" is not PARAM=VALUE",
					  optarg);
			c->where[c->nwhere++] = optarg;
			break;
		case 'h':
			usage();
			exit(0);
		case 'v':
			log_level++;
			break;
		case 'q':
			log_level = LOG_QUIET;
			break;
		default:
			die_usage("see zcbreport compare --help");
		}
	}
	c->paths = argv + optind;
	c->npaths = argc - optind;
	if (c->split) {
		char *eq = strchr(c->split, '=');

		comma = eq ? strchr(eq, ',') : NULL;
		if (!eq || !comma || eq == c->split || comma == eq + 1 ||
		    !comma[1] || strchr(comma + 1, ','))
			die_usage("--split: \"%s\" is not PARAM=A,B", c->split);
		*eq = *comma = 0;
		c->split_param = c->split;
		c->split_a = eq + 1;
		c->split_b = comma + 1;
		if (c->npaths < 1)
			die_usage("compare --split: no result files given");
	} else if (c->npaths != 2) {
		die_usage("compare: give exactly BASE and NEW (files or "
			  "directories), or --split");
	}
}

/* The case key without the split param, and a readable name. */
static void case_name(const struct rcase *rc, const char *skip, char *key,
		      size_t klen, char *name, size_t nlen)
{
	json_t *p = json_deep_copy(rc->params);
	const char *k;
	json_t *v;
	char *d, buf[256];

	if (skip)
		json_object_del(p, skip);
	d = json_dumps(p, JSON_COMPACT | JSON_SORT_KEYS);
	snprintf(key, klen, "%s|%s", rc->doc->tool, d ? d : "");
	free(d);
	snprintf(name, nlen, "%s", rc->doc->tool);
	json_object_foreach(p, k, v)
		snprintf(name + strlen(name), nlen - strlen(name), " %s=%s", k,
			 rl_param_str(p, k, buf, sizeof(buf)));
	json_decref(p);
}

static void add_case(struct cmp_state *st, struct rcase *rc, int side,
		     const char *skip)
{
	char key[2048], name[512];
	json_t *ix;
	struct ckey *k;

	case_name(rc, skip, key, sizeof(key), name, sizeof(name));
	ix = json_object_get(st->index, key);
	if (!ix) {
		if (st->nkeys == st->capkeys) {
			st->capkeys = st->capkeys ? 2 * st->capkeys : 64;
			st->keys = realloc(st->keys,
					   st->capkeys * sizeof(*st->keys));
			if (!st->keys)
				abort();
		}
		k = &st->keys[st->nkeys];
		memset(k, 0, sizeof(*k));
		k->name = strdup(name);
		if (!k->name)
			abort();
		json_object_set_new(st->index, key,
				    json_integer((json_int_t)st->nkeys++));
	} else {
		k = &st->keys[json_integer_value(ix)];
	}
	if (k->n[side] == k->cap[side]) {
		k->cap[side] = k->cap[side] ? 2 * k->cap[side] : 4;
		k->c[side] =
			realloc(k->c[side], k->cap[side] * sizeof(*k->c[side]));
		if (!k->c[side])
			abort();
	}
	k->c[side][k->n[side]++] = rc;
}

static const char *side_label(const struct rsel *sel, const char *dflt)
{
	if (!sel->n || sel_labels_vary(sel))
		return dflt;
	return sel->v[0].doc->label;
}

static int all_positive(const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(x[i] > 0))
			return 0;
	return 1;
}

/* The statistic of one side: hmean for rates (when defined), else mean. */
static double side_stat(const double *x, size_t n, int rate)
{
	double h = rate ? stats_hmean(x, n) : NAN;

	return isfinite(h) ? h : stats_mean(x, n);
}

static void judge_row(const struct cmp_cfg *c, struct crow *r, const double *x,
		      size_t nx, const double *y, size_t ny)
{
	int logs = all_positive(x, nx) && all_positive(y, ny);
	size_t np = nx < ny ? nx : ny;

	if ((long)nx < c->min_n || (long)ny < c->min_n) {
		r->note = "too few samples: not judged";
		return;
	}
	if (r->cov[0] * 100 > c->max_cov) {
		r->note = "baseline too noisy: not judged";
		return;
	}
	if (c->paired) {
		r->have_t = !cmp_paired_t(x, y, np, logs, 0.95, &r->t);
		r->have_u = np >= 5 && !cmp_signed_rank(x, y, np, &r->u);
	} else {
		r->have_t = !cmp_welch(x, nx, y, ny, logs, 0.95, &r->t);
		r->have_u = nx >= 5 && ny >= 5 &&
			    !cmp_mann_whitney(x, nx, y, ny, &r->u);
	}
	if (!logs && r->v[0] != 0)
		r->t.ratio = r->v[1] / r->v[0];
}

/* The runs (RUN_* bits) behind a metric on one side of a key. */
static unsigned side_runs(const struct ckey *k, int side, const char *metric)
{
	unsigned runs = 0;
	size_t i;

	for (i = 0; i < k->n[side]; i++)
		runs |= case_runs(k->c[side][i]->kase, metric);
	return runs;
}

#define RUNS_SOAKED   (RUN_METERED | RUN_SOAKED)
#define RUNS_UNSOAKED (RUN_UNMETERED | RUN_PLAIN)

static const char *runs_desc(unsigned runs)
{
	if ((runs & RUNS_SOAKED) && (runs & RUNS_UNSOAKED))
		return "runs with and without soakers";
	if (runs == RUN_METERED)
		return "metered runs";
	if (runs == RUN_UNMETERED)
		return "unmetered runs";
	if (runs & RUNS_SOAKED)
		return "runs with soakers on (unpaired)";
	return "runs without soakers";
}

/*
 * A metered figure is never compared with an unmetered one: the runs
 * behind a row must all have had soakers on, or all off. Names keep a
 * paired case's apart (metered_*); this catches an unpaired soaked run
 * (an older document, cyclesoak -- CMD) against a paired or unmetered
 * one, and a side that pools both. 1 (why filled) when not comparable.
 */
static int incomparable(const struct ckey *k, const char *metric, char *why,
			size_t len)
{
	unsigned a = side_runs(k, 0, metric), b = side_runs(k, 1, metric);
	int mixed = ((a & RUNS_SOAKED) && (a & RUNS_UNSOAKED)) ||
		    ((b & RUNS_SOAKED) && (b & RUNS_UNSOAKED));

	if (!mixed && !!(a & RUNS_SOAKED) == !!(b & RUNS_SOAKED))
		return 0;
	snprintf(why, len, "not comparable: base from %s, new from %s",
		 runs_desc(a), runs_desc(b));
	return 1;
}

static void build_row(const struct cmp_cfg *c, const struct rl_set *s,
		      struct cmp_state *st, size_t ki, const char *metric)
{
	struct ckey *k = &st->keys[ki];
	double *x[2] = {NULL, NULL};
	size_t n[2] = {0, 0}, cap[2] = {0, 0}, i;
	int side, rate = rl_is_rate(s, metric);
	struct crow *r;

	for (side = 0; side < 2; side++)
		for (i = 0; i < k->n[side]; i++)
			rl_case_values(k->c[side][i]->kase, metric, &x[side],
				       &n[side], &cap[side]);
	if (!n[0] || !n[1])
		goto out;
	if (st->nrows == st->caprows) {
		st->caprows = st->caprows ? 2 * st->caprows : 64;
		st->rows = realloc(st->rows, st->caprows * sizeof(*st->rows));
		if (!st->rows)
			abort();
	}
	r = &st->rows[st->nrows++];
	memset(r, 0, sizeof(*r));
	r->key = ki;
	r->metric = metric;
	r->q = NAN;
	for (side = 0; side < 2; side++) {
		double m = stats_mean(x[side], n[side]);

		r->n[side] = n[side];
		r->v[side] = side_stat(x[side], n[side], rate);
		r->cov[side] =
			n[side] > 1 && m != 0
				? stats_stddev(x[side], n[side]) / fabs(m)
				: NAN;
	}
	r->change =
		r->v[0] != 0 ? (r->v[1] - r->v[0]) / fabs(r->v[0]) * 100 : NAN;
	r->t.ratio = r->t.ratio_lo = r->t.ratio_hi = NAN;
	if (incomparable(k, metric, r->why, sizeof(r->why))) {
		r->change = NAN;
		st->incomparable++;
	} else {
		judge_row(c, r, x[0], n[0], x[1], n[1]);
	}
out:
	free(x[0]);
	free(x[1]);
}

static int metric_rank(const char *m)
{
	static const char *const first[] = {"throughput_MBps", "msgs_per_s",
					    "ops_per_s", NULL};
	int i;

	for (i = 0; first[i]; i++)
		if (!strcmp(first[i], m))
			return i;
	return i;
}

static int cmp_metric(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int rx = metric_rank(x), ry = metric_rank(y);

	return rx != ry ? rx - ry : strcmp(x, y);
}

/* Metrics to compare: --metric, else every metric of the set. */
static size_t metric_list(const struct cmp_cfg *c, const struct rl_set *s,
			  const char **out, size_t max)
{
	const char *name;
	json_t *v;
	size_t n = 0;

	if (c->nmetrics) {
		memcpy(out, c->metrics, c->nmetrics * sizeof(*out));
		return c->nmetrics;
	}
	json_object_foreach(s->units, name, v) if (n < max) out[n++] = name;
	qsort(out, n, sizeof(*out), cmp_metric);
	return n;
}

/* BH over every judged row, then the verdicts. Returns flagged rows. */
static size_t verdicts(const struct cmp_cfg *c, const struct rl_set *s,
		       struct cmp_state *st)
{
	double *p = malloc((st->nrows + 1) * sizeof(*p));
	size_t i, flagged = 0;

	if (!p)
		abort();
	for (i = 0; i < st->nrows; i++)
		p[i] = st->rows[i].have_t ? st->rows[i].t.p : NAN;
	cmp_bh_adjust(p, st->nrows, p);
	for (i = 0; i < st->nrows; i++) {
		struct crow *r = &st->rows[i];
		int better = rl_better(s, r->metric);
		double need = fmax(c->threshold,
				   isfinite(r->cov[0]) ? r->cov[0] * 100 : 0);
		int sig, big, bad;

		r->q = p[i];
		if (!r->have_t)
			continue;
		sig = r->q < c->alpha && (!r->have_u || r->u.p < c->alpha);
		big = fabs(r->change) > need;
		bad = better > 0 ? r->change < 0 : r->change > 0;
		if (sig && big && bad) {
			r->flag = 1;
			r->note = "REGRESSION";
			flagged++;
		} else if (sig && big) {
			r->note = "improved";
		}
	}
	free(p);
	return flagged;
}

/* p-values: 4 decimals, small ones as 1.2e-05. */
static void fmt_p(char *b, size_t l, double p)
{
	if (p < 0.0001)
		snprintf(b, l, "%.1e", p);
	else
		snprintf(b, l, "%.4f", p);
}

static void fmt_pct_paren(char *b, size_t l, double v, int base)
{
	char in[32];

	if (base)
		snprintf(in, sizeof(in), "0.00%%");
	else if (isfinite(v))
		snprintf(in, sizeof(in), "%+.2f%%", v);
	else
		snprintf(in, sizeof(in), "-");
	snprintf(b, l, "(%8s)", in);
}

/* Each side's worst perturbation over a key's cases. */
static void key_perturbation(struct ckey *k)
{
	struct stats_ratio r;
	size_t i;
	int side;

	for (side = 0; side < 2; side++)
		for (i = 0; i < k->n[side]; i++) {
			if (case_perturbation(k->c[side][i]->kase, &r))
				continue;
			if (!k->npert[side]++ ||
			    fabs(log(r.ratio)) > fabs(log(k->pert[side].ratio)))
				k->pert[side] = r;
		}
}

static int key_perturbed(const struct ckey *k)
{
	return (k->npert[0] && meter_perturbed(k->pert[0].ratio)) ||
	       (k->npert[1] && meter_perturbed(k->pert[1].ratio));
}

/* " soak base 0.32x, new 0.98x" on a row of a perturbed case, else "". */
static void pert_words(char *b, size_t l, const struct ckey *k)
{
	int side;

	b[0] = 0;
	if (!key_perturbed(k))
		return;
	snprintf(b, l, " soak");
	for (side = 0; side < 2; side++) {
		if (!k->npert[side])
			continue;
		snprintf(b + strlen(b), l - strlen(b), "%s %s %.2fx%s",
			 strlen(b) > 5 ? "," : "", side ? "new" : "base",
			 k->pert[side].ratio,
			 k->npert[side] > 1 ? " (worst)" : "");
	}
}

/* Under the tables: each perturbed case, both sides in full. */
static void print_perturbations(const struct cmp_state *st)
{
	char note[256];
	size_t k, any = 0;
	int side;

	for (k = 0; k < st->nkeys; k++) {
		const struct ckey *key = &st->keys[k];
		char en[512];

		if (!key->n[0] || !key->n[1] || !key_perturbed(key))
			continue;
		if (!any++)
			printf("Soak meter perturbation outside %.2f-%.2f "
			       "(\"soak\" on a row: the metered rate over the "
			       "unmetered rate of each side; rates come from "
			       "the unmetered runs, soak CPU and service demand "
			       "from the metered ones):\n",
			       METER_PERTURB_LO, METER_PERTURB_HI);
		printf("  %s\n", esc_text(en, sizeof(en), key->name));
		for (side = 0; side < 2; side++) {
			if (!key->npert[side])
				continue;
			meter_perturbation_note(note, sizeof(note),
						&key->pert[side]);
			printf("    %s: %s%s\n", side ? "new" : "base", note,
			       key->npert[side] > 1
				       ? " (the worst of its cases)"
				       : "");
		}
	}
	if (any)
		printf("\n");
}

static void print_metric(const struct cmp_cfg *c, const struct rl_set *s,
			 const struct cmp_state *st, const char *metric,
			 const char *la, const char *lb)
{
	struct tbl *t = tbl_new(12);
	size_t i, row;
	int better = rl_better(s, metric), any = 0;
	char b[128], pw[96];

	tbl_col(t, 2, la, AL_RIGHT);
	tbl_col(t, 5, lb, AL_RIGHT);
	tbl_col(t, 9, c->paired ? "q (t/signed-rank p)" : "q (t/U p)", AL_LEFT);
	tbl_col(t, 10, "ratio [95% CI]", AL_LEFT);
	for (i = 0; i < st->nrows; i++) {
		const struct crow *r = &st->rows[i];
		int side;

		if (strcmp(r->metric, metric))
			continue;
		any = 1;
		row = tbl_add_row(t);
		tbl_set(t, row, 0, "%s",
			rl_is_rate(s, metric) ? "Hmean" : "Amean");
		tbl_set(t, row, 1, "%s", st->keys[r->key].name);
		for (side = 0; side < 2; side++) {
			fmt_auto(b, sizeof(b), r->v[side]);
			tbl_set(t, row, 2 + 3 * side, "%s", b);
			if (isfinite(r->cov[side]))
				tbl_set(t, row, 3 + 3 * side, "+- %.1f%%",
					r->cov[side] * 100);
			else
				tbl_set(t, row, 3 + 3 * side, "+- -");
			fmt_pct_paren(b, sizeof(b), r->change, !side);
			tbl_set(t, row, 4 + 3 * side, "%s", b);
		}
		tbl_set(t, row, 8, "%s", r->flag ? "*" : "");
		if (r->have_t) {
			char q[32], p1[32], p2[32] = "n<5";

			fmt_p(q, sizeof(q), r->q);
			fmt_p(p1, sizeof(p1), r->t.p);
			if (r->have_u)
				fmt_p(p2, sizeof(p2), r->u.p);
			tbl_set(t, row, 9, "%s (%s/%s)", q, p1, p2);
		}
		if (isfinite(r->t.ratio_lo))
			tbl_set(t, row, 10, "%.3f [%.3f, %.3f]", r->t.ratio,
				r->t.ratio_lo, r->t.ratio_hi);
		else if (isfinite(r->t.ratio))
			tbl_set(t, row, 10, "%.3f", r->t.ratio);
		pert_words(pw, sizeof(pw), &st->keys[r->key]);
		if (r->why[0] || r->note)
			tbl_set(t, row, 11, "%s (n=%zu/%zu)%s",
				r->why[0] ? r->why : r->note, r->n[0], r->n[1],
				pw);
		else
			tbl_set(t, row, 11, "(n=%zu/%zu)%s", r->n[0], r->n[1],
				pw);
	}
	if (any) {
		char em[256], eu[256];

		printf("%s (%s, %s is better)\n",
		       esc_text(em, sizeof(em), metric),
		       esc_text(eu, sizeof(eu), rl_unit(s, metric)),
		       better > 0   ? "higher"
		       : better < 0 ? "lower"
				    : "?");
		tbl_print(stdout, t, FMT_TEXT);
		printf("\n");
	}
	tbl_free(t);
}

static void split_sides(const struct cmp_cfg *c, const struct rl_set *s,
			struct rsel *sel)
{
	struct rfilter f = {.where = c->where, .nwhere = c->nwhere};
	const char *w[RPT_MAX_WHERE + 1];
	char wa[256], wb[256];
	int side;

	memcpy(w, c->where, c->nwhere * sizeof(*w));
	f.where = w;
	snprintf(wa, sizeof(wa), "%s=%s", c->split_param, c->split_a);
	snprintf(wb, sizeof(wb), "%s=%s", c->split_param, c->split_b);
	for (side = 0; side < 2; side++) {
		w[c->nwhere] = side ? wb : wa;
		f.nwhere = c->nwhere + 1;
		sel_build(s, &f, &sel[side]);
	}
}

int cmd_compare(int argc, char **argv)
{
	struct cmp_cfg c = {
		.threshold = 2, .alpha = 0.05, .max_cov = 25, .min_n = 3};
	struct cmp_state st = {0};
	struct rl_set set[2];
	struct rsel sel[2];
	const char *metrics[256], *la, *lb;
	char sa[300], sb[300], el[2][1024];
	size_t nm, i, k, flagged, nbad, judged = 0;
	int side, nsets;

	parse_opts(argc, argv, &c);
	nsets = c.split ? 1 : 2;
	for (side = 0; side < nsets; side++)
		load_inputs(&set[side], c.split ? c.paths : c.paths + side,
			    c.split ? c.npaths : 1);
	nbad = set[0].nbad + (nsets > 1 ? set[1].nbad : 0);
	if (c.split) {
		split_sides(&c, &set[0], sel);
	} else {
		struct rfilter f = {.where = c.where, .nwhere = c.nwhere};

		for (side = 0; side < 2; side++)
			sel_build(&set[side], &f, &sel[side]);
	}
	if (!sel[0].n || !sel[1].n) {
		log_err("nothing to compare: %s has no usable cases",
			!sel[0].n ? "BASE" : "NEW");
		for (side = 0; side < 2; side++)
			sel_free(&sel[side]);
		for (side = 0; side < nsets; side++)
			rl_free(&set[side]);
		return 2;
	}
	st.index = json_object();
	for (side = 0; side < 2; side++)
		for (i = 0; i < sel[side].n; i++)
			add_case(&st, &sel[side].v[i], side, c.split_param);
	if (c.split) {
		snprintf(sa, sizeof(sa), "%s=%s", c.split_param, c.split_a);
		snprintf(sb, sizeof(sb), "%s=%s", c.split_param, c.split_b);
		la = sa;
		lb = sb;
	} else {
		la = side_label(&sel[0], "base");
		lb = side_label(&sel[1], "new");
		print_host_diff(&sel[0], &sel[1]);
	}
	/* units agree within each set; the new set's must match the base */
	nm = metric_list(&c, &set[0], metrics, 256);
	for (i = k = 0; i < nm; i++) {
		const char *ua = rl_unit(&set[0], metrics[i]);
		const char *ub = rl_unit(&set[nsets - 1], metrics[i]);

		if (*ua && *ub && strcmp(ua, ub)) {
			char em[256], ea[256], eb[256];

			log_err("metric %s is in %s in BASE but in %s in NEW: "
				"not compared",
				esc_text(em, sizeof(em), metrics[i]),
				esc_text(ea, sizeof(ea), ua),
				esc_text(eb, sizeof(eb), ub));
			nbad++;
			continue;
		}
		metrics[k++] = metrics[i];
	}
	nm = k;
	for (k = 0; k < st.nkeys; k++) {
		key_perturbation(&st.keys[k]);
		for (side = 0; side < 2; side++)
			st.only[side] += !st.keys[k].n[1 - side];
		if (!st.keys[k].n[0] || !st.keys[k].n[1])
			continue;
		for (i = 0; i < nm; i++)
			build_row(&c, &set[0], &st, k, metrics[i]);
	}
	flagged = verdicts(&c, &set[0], &st);
	for (i = 0; i < nm; i++)
		print_metric(&c, &set[0], &st, metrics[i], la, lb);
	print_perturbations(&st);
	for (i = 0; i < st.nrows; i++)
		judged += st.rows[i].have_t;
	if (st.incomparable)
		printf("%zu row%s not comparable: figures of runs with soakers "
		       "on against runs without (not judged)\n",
		       st.incomparable, st.incomparable == 1 ? "" : "s");
	if (st.only[0] || st.only[1])
		printf("cases only in base: %zu, only in new: %zu\n",
		       st.only[0], st.only[1]);
	printf("zcbreport compare: %s -> %s: %zu rows, %zu judged, %zu "
	       "regression%s flagged (alpha %g after Benjamini-Hochberg, "
	       "threshold %g%%)%s\n",
	       esc_text(el[0], sizeof(el[0]), la),
	       esc_text(el[1], sizeof(el[1]), lb), st.nrows, judged, flagged,
	       flagged == 1 ? "" : "s", c.alpha, c.threshold,
	       nbad ? "; some input was refused (see stderr)" : "");
#ifndef __SANITIZE_ADDRESS__
	/* thousands of parsed documents: exit() returns their memory far
	 * faster than freeing them node by node (a quarter of the run) */
	if (st.nkeys > 1000 || set[0].ndocs > 1000)
		exit(flagged ? 1 : nbad ? 2 : 0);
#endif
	for (k = 0; k < st.nkeys; k++) {
		free(st.keys[k].name);
		free(st.keys[k].c[0]);
		free(st.keys[k].c[1]);
	}
	free(st.keys);
	free(st.rows);
	json_decref(st.index);
	for (side = 0; side < 2; side++)
		sel_free(&sel[side]);
	for (side = 0; side < nsets; side++)
		rl_free(&set[side]);
	if (flagged)
		return 1;
	return nbad ? 2 : 0;
}
