/*
 * lay_p9.c: seed 000's tables: p9bench's IO-size sweep, a WRITE and a
 * READ table of IO SIZE, TOTAL SIZE and the rate of each path, No ZC
 * (path=copy) against ZC (path=direct), in the seed's units (kb/s and
 * mb/s, 1000 and 10^6 bytes per second; TOTAL SIZE binary).
 */
#include "config.h"
#include "lay_int.h"

static const char *const p9_need[] = {"op", "iosize", NULL};
static const char *const p9_needm[] = {"throughput_MBps", NULL};
static const char *const p9_fixed[] = {"iosize", "total_bytes", NULL};
static const char *const p9_excl[] = {"op", "iosize", "total_bytes", "path",
				      NULL};
static const char *const p9_paths[] = {"copy", "direct"};

static const struct lay_col p9_cols[] = {
	{.head = "No ZC", .al = AL_RIGHT},
	{.head = "ZC", .al = AL_RIGHT},
	{.head = NULL},
};

/* One IO size: each path's rate, marked when its case ran perturbed
 * (the table has no CPU: the rate carries the mark). */
static void p9_row(struct lay *l, const struct rgroup *g)
{
	size_t row = lay_row(l, g), p;
	char b[64];

	for (p = 0; p < 2; p++) {
		lay_figure(b, sizeof(b), l, g->cases, g->n, "throughput_MBps",
			   "path", p9_paths[p], fmt_p9_rate);
		lay_set(l, row, p, b);
		lay_mark(l, row, p, g->cases, g->n, "throughput_MBps", "path",
			 p9_paths[p], FN_ANY);
		fn_source(&l->fn, "rates", g->cases, g->n, "throughput_MBps",
			  "path", p9_paths[p]);
	}
}

#define P9_SEED(op, OP)                                                        \
	{                                                                      \
		.tool = "p9bench", .need = p9_need, .need_metrics = p9_needm,  \
		.where = "op=" op, .fixed = p9_fixed, .excl = p9_excl,         \
		.label_if_varies = 1, .key_cols = 1, .key_left = RPT_MAX_KEYS, \
		.cols = p9_cols, .row = p9_row, .title = OP,                   \
		.colparam = "path",                                            \
	}

static const struct lay_table p9_write = P9_SEED("write", "WRITE");
static const struct lay_table p9_read = P9_SEED("read", "READ");

const struct layout lay_p9 = {
	"p9",
	"p9bench",
	"9P WRITE/READ by IO size, No ZC vs ZC (seed 000)",
	(const struct lay_table *const[]){&p9_write, &p9_read, NULL},
};
