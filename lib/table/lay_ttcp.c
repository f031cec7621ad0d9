/*
 * lay_ttcp.c: seed 001's ttcp-sf tables: "LABEL, sending with ttcp-sf:
 * 10.5%" lines, and copy against zero-copy (ttcp-sf and zcc): method,
 * the CPU of the sending and of the receiving box, MB/s. Which box
 * sends: a ttcp-sf transmitter's local figure is the sender's, its
 * remote the receiver's, and the other way round for a receiver; zcc
 * sends the files (its local CPU is the sender's), zcs receives them.
 * Measured runs add, where they have them, the share of MSG_ZEROCOPY
 * sends the kernel copied anyway ("zc copied") and each box's service
 * demand (CPU microseconds per KB moved). Runs taken at a --rate say it
 * in the title (one rate) or a rate column (several: the driver's); a
 * run that missed its target marks its cells.
 */
#include "config.h"
#include "lay_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The cases and metric a direction's figure came from. */
struct dir_src {
	struct res_pcase **cs; /* owned */
	size_t n;
	const char *metric;
};

/* Whether a case's local side is the sending box. */
static int sender_is_local(const struct res_pcase *c)
{
	char buf[64];

	if (!strcmp(c->doc->tool, "zcc"))
		return 1;
	if (!strcmp(c->doc->tool, "zcs"))
		return 0;
	return strcmp(res_case_key(c, "role", buf, sizeof(buf)), "receive") != 0;
}

/*
 * A figure of the sending (or receiving) box over a row's cases: the
 * local metric of the cases whose local side is that box, else the
 * remote metric of the others. used says which cases and metric gave
 * it (free used->cs).
 */
static void direction_fig(const struct lay *l, struct res_pcase *const *cs,
			  size_t n, int sending, const char *const metric[2],
			  struct cellv *v, struct dir_src *used)
{
	struct res_pcase **loc = calloc(n + 1, sizeof(*loc));
	struct res_pcase **rem = calloc(n + 1, sizeof(*rem));
	size_t i, nl = 0, nr = 0;

	if (!loc || !rem)
		abort();
	for (i = 0; i < n; i++) {
		if (sender_is_local(cs[i]) == sending)
			loc[nl++] = cs[i];
		else
			rem[nr++] = cs[i];
	}
	res_cell_value(loc, nl, metric[0], l->o->stat, NULL, NULL, v);
	*used = (struct dir_src){loc, nl, metric[0]};
	if (!v->ok) {
		res_cell_value(rem, nr, metric[1], l->o->stat, NULL, NULL, v);
		*used = (struct dir_src){rem, nr, metric[1]};
		free(loc);
	} else {
		free(rem);
	}
}

static const char *const cpu_metrics[2] = {"cpu_local_pct", "cpu_remote_pct"};

/* Mark a direction's CPU cell and note where it came from; frees u.
 * Returns how many cases gave the figure. */
static size_t direction_mark(struct lay *l, size_t row, size_t c,
			     struct dir_src *u)
{
	size_t n = res_cell_cases(u->cs, u->n, u->metric, NULL, NULL, NULL);

	lay_mark(l, row, c, u->cs, u->n, u->metric, NULL, NULL, FN_ANY);
	fn_source(&l->fn, "CPU", u->cs, u->n, u->metric, NULL, NULL);
	free(u->cs);
	return n;
}

/* seed 001: one line per direction that has a figure */
static void ttcp_row(struct lay *l, const struct res_group *g)
{
	char q[256], b[64];
	int dir;

	lay_qualifier(q, sizeof(q), l, g, 1);
	for (dir = 1; dir >= 0; dir--) {
		struct dir_src u;
		struct cellv v;
		size_t row;

		direction_fig(l, g->cases, g->n, dir, cpu_metrics, &v, &u);
		if (!v.ok) {
			free(u.cs);
			continue;
		}
		row = lay_row(l, g);
		snprintf(b, sizeof(b), "%s", dir ? "sending" : "receiving");
		tbl_set(l->tb, row, 0, "%s, %s with ttcp-sf%s:", g->vals[0], b,
			q);
		fmt_pct1(b, sizeof(b), v.v);
		lay_set(l, row, 1, b);
		direction_mark(l, row, 1, &u);
	}
}

static const char *const ttcp_fixed[] = {"label", NULL};
static const char *const ttcp_excl[] = {"role", NULL};
static const struct lay_col ttcp_cols[] = {
	{.head = "", .al = AL_LEFT},
	{.head = "CPU", .al = AL_RIGHT},
	{.head = NULL},
};
static const struct lay_table ttcp_cpu = {
	.tool = "ttcp-sf",
	.fixed = ttcp_fixed,
	.excl = ttcp_excl,
	.cols = ttcp_cols,
	.row = ttcp_row,
	.title = "ttcp-sf Results",
	.underline = '=',
	.side = "local",
};

const struct layout lay_ttcp_cpu = {
	"ttcp-cpu",
	"ttcp-sf",
	"ttcp-sf sending/receiving CPU (seed 001)",
	(const struct lay_table *const[]){&ttcp_cpu, NULL},
};

static const char *const sd_metrics[2] = {"sd_local_us_per_kb",
					  "sd_remote_us_per_kb"};

/* Each box's service demand, in columns c and c + 1. */
static void zc_demand(struct lay *l, const struct res_group *g, size_t row,
		      size_t c)
{
	struct dir_src u;
	struct cellv v;
	char b[64];
	int dir;

	for (dir = 1; dir >= 0; dir--) {
		direction_fig(l, g->cases, g->n, dir, sd_metrics, &v, &u);
		fmt_3f(b, sizeof(b), v.ok ? v.v : NAN);
		lay_set(l, row, c + (size_t)(1 - dir), b);
		fn_source(&l->fn, "service demand", u.cs, u.n, u.metric, NULL,
			  NULL);
		free(u.cs);
	}
}

/* copy against zero-copy: both boxes' CPU, then MB/s */
static void zc_row(struct lay *l, const struct res_group *g)
{
	size_t row = lay_row(l, g), cpu_cases = 0;
	struct dir_src u;
	struct cellv v;
	char b[64];
	int dir;

	fn_source(&l->fn, "rates", g->cases, g->n, "throughput_MBps", NULL,
		  NULL);
	for (dir = 1; dir >= 0; dir--) {
		size_t c = (size_t)(1 - dir);

		direction_fig(l, g->cases, g->n, dir, cpu_metrics, &v, &u);
		fmt_pct1(b, sizeof(b), v.ok ? v.v : NAN);
		lay_set(l, row, c, b);
		cpu_cases += direction_mark(l, row, c, &u);
	}
	lay_figure(b, sizeof(b), l, g->cases, g->n, "throughput_MBps", NULL,
		   NULL, fmt_1f);
	lay_set(l, row, 2, b);
	/* a perturbation marks the CPU; the rate only without one */
	lay_mark(l, row, 2, g->cases, g->n, "throughput_MBps", NULL, NULL,
		 cpu_cases ? FN_SOAKED | FN_RATE : FN_ANY);
	if (lay_shown(l, 3)) {
		lay_figure(b, sizeof(b), l, g->cases, g->n, "zc_copied_pct",
			   NULL, NULL, fmt_pct1);
		lay_set(l, row, 3, b);
	}
	if (lay_shown(l, 4))
		zc_demand(l, g, row, 4);
}

static int sd_shown(const struct lay *l, const struct lay_col *c)
{
	(void)c;
	return lay_any_metric(l, sd_metrics[0]) ||
	       lay_any_metric(l, sd_metrics[1]);
}

static const char *const zc_need[] = {"method", NULL};
static const char *const zc_fixed[] = {"label", "method", NULL};
static const char *const zc_excl[] = {"method", "role", NULL};
static const struct lay_col zc_cols[] = {
	{.head = "sending CPU", .al = AL_RIGHT},
	{.head = "receiving CPU", .al = AL_RIGHT},
	{.head = "MB/s", .al = AL_RIGHT},
	{.head = "zc copied", .al = AL_RIGHT, .if_metric = "zc_copied_pct"},
	{.head = "send us/KB", .al = AL_RIGHT, .shown = sd_shown},
	{.head = "recv us/KB", .al = AL_RIGHT, .shown = sd_shown},
	{.head = NULL},
};

#define ZC_TABLE(name)                                                         \
	{                                                                      \
		.tool = name, .need = zc_need, .fixed = zc_fixed,              \
		.excl = zc_excl, .key_cols = 1, .key_left = 2,                 \
		.cols = zc_cols, .row = zc_row,                                \
		.title = "Copy against zero-copy: " name, .underline = '=',    \
		.side = "local",                                               \
	}

static const struct lay_table zc_ttcp = ZC_TABLE("ttcp-sf");
static const struct lay_table zc_zcc = ZC_TABLE("zcc");

const struct layout lay_zc_vs_copy = {
	"zc-vs-copy",
	"ttcp-sf or zcc",
	"copy vs zero-copy: CPU of both boxes and MB/s",
	(const struct lay_table *const[]){&zc_ttcp, &zc_zcc, NULL},
};
