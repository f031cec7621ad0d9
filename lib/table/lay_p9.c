/*
 * lay_p9.c: seed 000's tables: p9bench's IO-size sweep, a WRITE and a
 * READ table of IO SIZE, TOTAL SIZE and the rate of each path, No ZC
 * (path=copy) against ZC (path=direct), or a mounted file system's
 * buffered against O_DIRECT, in the seed's units (kb/s and mb/s, 1000
 * and 10^6 bytes per second; TOTAL SIZE binary). Then, for measured
 * runs (they carry ops/s), a table per direction of what the seed's
 * discussion needs: ops/s, the throughput ratio of the paths, the
 * spread over repeats and the CPU of this box, of the server's host
 * and of the server process.
 */
#include "config.h"
#include "lay_int.h"
#include "meter.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NPATH 4 /* copy, direct (9P); buffered, odirect (mounted) */

static const char *const p9_paths[NPATH] = {"copy", "direct", "buffered",
					    "odirect"};
static const char *const p9_need[] = {"op", "iosize", NULL};
static const char *const p9_needm[] = {"throughput_MBps", NULL};
static const char *const p9_fixed[] = {"iosize", "total_bytes", NULL};
static const char *const p9_excl[] = {"op", "iosize", "total_bytes", "path",
				      NULL};

/* A path's column: shown when the selection has its pair of paths. */
#define PATH_COL(h, pair)                                                      \
	{                                                                      \
		.head = h, .al = AL_RIGHT, .if_param = "path",                 \
		.if_values = pair                                              \
	}
#define NINE	"copy|direct"
#define MOUNTED "buffered|odirect"

static const struct lay_col p9_cols[] = {
	PATH_COL("No ZC", NINE),
	PATH_COL("ZC", NINE),
	PATH_COL("buffered", MOUNTED),
	PATH_COL("O_DIRECT", MOUNTED),
	{.head = NULL},
};

/* One IO size: each path's rate, marked when its case ran perturbed
 * (the table has no CPU: the rate carries the mark). */
static void p9_row(struct lay *l, const struct res_group *g)
{
	size_t row = lay_row(l, g), p;
	char b[64];

	for (p = 0; p < NPATH; p++) {
		if (!lay_shown(l, p))
			continue;
		lay_figure(b, sizeof(b), l, g->cases, g->n, "throughput_MBps",
			   "path", p9_paths[p], fmt_p9_rate);
		lay_set(l, row, p, b);
		lay_mark(l, row, p, g->cases, g->n, "throughput_MBps", "path",
			 p9_paths[p], FN_ANY);
		fn_source(&l->fn, "rates", g->cases, g->n, "throughput_MBps",
			  "path", p9_paths[p]);
	}
}

/* A WRITE or READ table of p9bench's: rows by IO size (and the label,
 * and what else varies). */
#define P9_TABLE(op, needm, keys, columns, rowfn, tfn, txt)                    \
	{                                                                      \
		.tool = "p9bench", .need = p9_need, .need_metrics = needm,     \
		.where = "op=" op, .fixed = keys, .excl = p9_excl,             \
		.label_if_varies = 1, .key_cols = 1, .key_left = RPT_MAX_KEYS, \
		.cols = columns, .row = rowfn, .title = txt, .title_fn = tfn,  \
		.colparam = "path", .arg = txt,                                \
	}
#define P9_SEED(op, OP)                                                        \
	P9_TABLE(op, p9_needm, p9_fixed, p9_cols, p9_row, NULL, OP)

static const struct lay_table p9_write = P9_SEED("write", "WRITE");
static const struct lay_table p9_read = P9_SEED("read", "READ");

/*
 * The second table: ops/s per path (columns 0-3), the ratio of each
 * pair of paths (4, 5), the spread (6), then CPU per path: this box
 * (7-10), the server's host (11-14), the server process (15-18).
 */
enum { OPS = 0, RATIO = 4, SPREAD = 6, CPU = 7 };
#define NCPU 3
static const char *const cpu_metric[NCPU] = {"cpu_local_pct", "cpu_remote_pct",
					     "cpu_server_pct"};
static const char *const cpu_what[NCPU] = {"CPU", "host CPU", "server CPU"};

/* Whether the selection has a sample of a run whose server's host
 * answered from this box ("same_box"). */
static int same_box(const struct lay *l)
{
	size_t i, j;
	json_t *s;

	for (i = 0; i < l->sel.n; i++)
		json_array_foreach(json_object_get(l->sel.v[i].kase, "samples"),
				   j, s)
		{
			if (json_is_true(json_object_get(s, "same_box")))
				return 1;
		}
	return 0;
}

/* The server's host, when it is this box and this box has its own CPU
 * columns, is printed once. */
static int host_shown(const struct lay *l, const struct lay_col *c)
{
	(void)c;
	return !(same_box(l) && lay_any_metric(l, "cpu_local_pct"));
}

#define OPS_COL(h, pair, metric)                                               \
	{                                                                      \
		.head = h, .al = AL_RIGHT, .if_metric = metric,                \
		.if_param = "path", .if_values = pair                          \
	}
#define HOST_COL(h, pair)                                                      \
	{                                                                      \
		.head = h, .al = AL_RIGHT, .if_metric = "cpu_remote_pct",      \
		.if_param = "path", .if_values = pair, .shown = host_shown     \
	}

static const struct lay_col ops_cols[] = {
	OPS_COL("OPS/S No ZC", NINE, NULL),
	OPS_COL("OPS/S ZC", NINE, NULL),
	OPS_COL("OPS/S buffered", MOUNTED, NULL),
	OPS_COL("OPS/S O_DIRECT", MOUNTED, NULL),
	OPS_COL("RATIO", NINE, NULL),
	OPS_COL("RATIO", MOUNTED, NULL),
	{.head = "SPREAD", .al = AL_RIGHT},
	OPS_COL("CPU No ZC", NINE, "cpu_local_pct"),
	OPS_COL("CPU ZC", NINE, "cpu_local_pct"),
	OPS_COL("CPU buffered", MOUNTED, "cpu_local_pct"),
	OPS_COL("CPU O_DIRECT", MOUNTED, "cpu_local_pct"),
	HOST_COL("HOST CPU No ZC", NINE),
	HOST_COL("HOST CPU ZC", NINE),
	HOST_COL("HOST CPU buffered", MOUNTED),
	HOST_COL("HOST CPU O_DIRECT", MOUNTED),
	OPS_COL("SRV CPU No ZC", NINE, "cpu_server_pct"),
	OPS_COL("SRV CPU ZC", NINE, "cpu_server_pct"),
	OPS_COL("SRV CPU buffered", MOUNTED, "cpu_server_pct"),
	OPS_COL("SRV CPU O_DIRECT", MOUNTED, "cpu_server_pct"),
	{.head = NULL},
};

static void fmt_0f(char *b, size_t l, double v)
{
	if (isfinite(v))
		snprintf(b, l, "%.0f", v);
	else
		snprintf(b, l, "-");
}

/* (max - min) / mean of a path's rates over its runs, or -1 with one
 * run. */
static double spread(const struct lay *l, const struct res_group *g,
		     const char *path)
{
	struct res_pcase **use = calloc(g->n + 1, sizeof(*use));
	size_t m, i, n = 0, cap = 0;
	double *x = NULL, lo, hi, r = -1;
	struct cellv v;

	if (!use)
		abort();
	m = res_cell_cases(g->cases, g->n, "throughput_MBps", "path", path, use);
	for (i = 0; i < m; i++)
		res_case_values(use[i]->kase, "throughput_MBps", &x, &n, &cap);
	res_cell_value(g->cases, g->n, "throughput_MBps", l->o->stat, "path", path,
		   &v);
	if (n > 1 && v.ok && v.v > 0) {
		for (lo = hi = x[0], i = 1; i < n; i++) {
			lo = fmin(lo, x[i]);
			hi = fmax(hi, x[i]);
		}
		r = (hi - lo) / v.v;
	}
	free(x);
	free(use);
	return r;
}

/* Path p's ops/s and CPU figures, with their marks: the perturbation
 * marks this box's CPU, or ops/s where that has no column. */
static void ops_path(struct lay *l, const struct res_group *g, size_t row,
		     size_t p)
{
	const char *path = p9_paths[p];
	char b[64];
	size_t k;

	lay_figure(b, sizeof(b), l, g->cases, g->n, "ops_per_s", "path", path,
		   fmt_0f);
	lay_set(l, row, OPS + p, b);
	lay_mark(l, row, OPS + p, g->cases, g->n, "ops_per_s", "path", path,
		 lay_shown(l, CPU + p) ? FN_SOAKED : FN_ANY);
	fn_source(&l->fn, "ops/s", g->cases, g->n, "ops_per_s", "path", path);
	for (k = 0; k < NCPU; k++) {
		size_t c = CPU + 4 * k + p;

		if (!lay_shown(l, c))
			continue;
		lay_figure(b, sizeof(b), l, g->cases, g->n, cpu_metric[k],
			   "path", path, fmt_pct1);
		lay_set(l, row, c, b);
		lay_mark(l, row, c, g->cases, g->n, cpu_metric[k], "path", path,
			 k ? FN_SOAKED : FN_ANY);
		fn_source(&l->fn, cpu_what[k], g->cases, g->n, cpu_metric[k],
			  "path", path);
	}
}

static void ops_row(struct lay *l, const struct res_group *g)
{
	size_t row = lay_row(l, g), p;
	double worst = -1;
	char b[64];

	for (p = 0; p < NPATH; p++) {
		if (!lay_shown(l, OPS + p))
			continue;
		ops_path(l, g, row, p);
		worst = fmax(worst, spread(l, g, p9_paths[p]));
	}
	for (p = 0; p < NPATH; p += 2) {
		struct cellv a, z;

		if (!lay_shown(l, RATIO + p / 2))
			continue;
		res_cell_value(g->cases, g->n, "throughput_MBps", l->o->stat,
			   "path", p9_paths[p], &a);
		res_cell_value(g->cases, g->n, "throughput_MBps", l->o->stat,
			   "path", p9_paths[p + 1], &z);
		fn_value(&l->fn, &a, "throughput_MBps");
		fn_value(&l->fn, &z, "throughput_MBps");
		fmt_3f(b, sizeof(b), a.ok && z.ok && a.v > 0 ? z.v / a.v : NAN);
		lay_set(l, row, RATIO + p / 2, b);
	}
	if (worst >= 0)
		snprintf(b, sizeof(b), "%.0f%%", worst * 100);
	else
		snprintf(b, sizeof(b), "-");
	lay_set(l, row, SPREAD, b);
}

/* A side's meter for the title: "soak, metered runs" or "procstat". */
static void meter_words(const struct lay *l, const char *side, char *b,
			size_t len)
{
	const char *m = NULL;
	size_t i;

	for (i = 0; i < l->sel.n && !m; i++)
		m = res_case_meter(l->sel.v[i].kase, side);
	/* a paired meter that has a load of its own measures the metered
	 * runs (soak); every other meter the unmetered ones */
	snprintf(b, len, "%s%s", m ? m : "none",
		 (meter_flags_of(m) & (METER_PAIRED | METER_NO_LOAD)) ==
				 METER_PAIRED
			 ? ", metered runs"
			 : "");
}

/* "READ: ops/s, ZC/No ZC throughput ratio, spread over repeats; CPU %
 * of all CPUs: this box (soak, metered runs), server process". */
static void ops_title(const struct lay *l, char *buf, size_t len)
{
	int local = lay_shown(l, CPU) || lay_shown(l, CPU + 2);
	int host = lay_shown(l, CPU + 4) || lay_shown(l, CPU + 6);
	int srv = lay_shown(l, CPU + 8) || lay_shown(l, CPU + 10);
	char m[64];

	snprintf(buf, len,
		 "%s: ops/s, %s%s%s throughput ratio, spread over "
		 "repeats",
		 (const char *)l->t->arg, lay_shown(l, RATIO) ? "ZC/No ZC" : "",
		 lay_shown(l, RATIO) && lay_shown(l, RATIO + 1) ? " and " : "",
		 lay_shown(l, RATIO + 1) ? "O_DIRECT/buffered" : "");
	if (!local && !host && !srv)
		return;
	snprintf(buf + strlen(buf), len - strlen(buf), "; CPU %% of all CPUs:");
	if (local) {
		meter_words(l, "local", m, sizeof(m));
		snprintf(buf + strlen(buf), len - strlen(buf),
			 " this box (%s)%s%s", m,
			 same_box(l) ? " = server host" : "",
			 host || srv ? "," : "");
	}
	if (host) {
		meter_words(l, "remote", m, sizeof(m));
		snprintf(buf + strlen(buf), len - strlen(buf),
			 " server host (%s)%s", m, srv ? "," : "");
	}
	if (srv)
		snprintf(buf + strlen(buf), len - strlen(buf),
			 " server process");
}

static const char *const ops_needm[] = {"throughput_MBps", "ops_per_s", NULL};
static const char *const ops_fixed[] = {"iosize", NULL};

#define P9_OPS(op, OP)                                                         \
	P9_TABLE(op, ops_needm, ops_fixed, ops_cols, ops_row, ops_title, OP)

static const struct lay_table ops_write = P9_OPS("write", "WRITE");
static const struct lay_table ops_read = P9_OPS("read", "READ");

const struct layout lay_p9 = {
	"p9",
	"p9bench",
	"9P WRITE/READ by IO size, No ZC vs ZC (seed 000)",
	(const struct lay_table *const[]){&p9_write, &p9_read, &ops_write,
					  &ops_read, NULL},
};
