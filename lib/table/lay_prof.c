/*
 * lay_prof.c: where the CPU went (the profile meter, lib/cpu/profile.h):
 * per tool (ttcp-sf, zcc), a row per size and method, so copy and
 * zero-copy methods of a size stand side by side: each family's share
 * of all samples of the box the tool ran on, the tool's own copy share
 * (for a transmitter: the send side's copies) and MB/s. A label is a key
 * when it varies (two kernels side by side). The figures are the
 * prof_local_* metrics of the profiled runs, so a statistic other than
 * the default (--stat) and the footnotes work as for every table.
 */
#include "config.h"
#include "lay_int.h"
#include "profile.h"

#include <math.h>
#include <string.h>

/* The families' columns, then the tool's copy, then the rate. */
#define COL_SELF PROF_NFAM
#define COL_RATE (PROF_NFAM + 1)

static void prof_row(struct lay *l, const struct res_group *g)
{
	size_t row = lay_row(l, g);
	char m[64], b[64];
	int f;

	for (f = 0; f < PROF_NFAM; f++) {
		snprintf(m, sizeof(m), "prof_local_%s_pct", prof_family_name(f));
		lay_figure(b, sizeof(b), l, g->cases, g->n, m, NULL, NULL,
			   fmt_pct1);
		lay_set(l, row, (size_t)f, b);
	}
	fn_source(&l->fn, "profile", g->cases, g->n, "prof_local_copy_pct",
		  NULL, NULL);
	if (lay_shown(l, COL_SELF)) {
		lay_figure(b, sizeof(b), l, g->cases, g->n,
			   "prof_local_self_copy_pct", NULL, NULL, fmt_pct1);
		lay_set(l, row, COL_SELF, b);
	}
	lay_figure(b, sizeof(b), l, g->cases, g->n, "throughput_MBps", NULL,
		   NULL, fmt_1f);
	lay_set(l, row, COL_RATE, b);
	lay_mark(l, row, COL_RATE, g->cases, g->n, "throughput_MBps", NULL,
		 NULL, FN_ANY);
	fn_source(&l->fn, "rates", g->cases, g->n, "throughput_MBps", NULL,
		  NULL);
}

static const char *const prof_need[] = {"method", NULL};
static const char *const prof_needm[] = {"prof_local_copy_pct", NULL};
static const char *const prof_ttcp_fixed[] = {"size", "method", NULL};
static const char *const prof_zcc_fixed[] = {"bytes_per_loop", "method",
					     NULL};
static const char *const prof_excl[] = {"method", "role", NULL};
/* in enum prof_family's order */
static const struct lay_col prof_cols[] = {
	{.head = "copy", .al = AL_RIGHT},
	{.head = "csum", .al = AL_RIGHT},
	{.head = "pcache", .al = AL_RIGHT},
	{.head = "stack", .al = AL_RIGHT},
	{.head = "drv", .al = AL_RIGHT},
	{.head = "sirq", .al = AL_RIGHT},
	{.head = "sched", .al = AL_RIGHT},
	{.head = "sys", .al = AL_RIGHT},
	{.head = "idle", .al = AL_RIGHT},
	{.head = "user", .al = AL_RIGHT},
	{.head = "other", .al = AL_RIGHT},
	{.head = "tool copy", .al = AL_RIGHT,
	 .if_metric = "prof_local_self_copy_pct"},
	{.head = "MB/s", .al = AL_RIGHT},
	{.head = NULL},
};

#define PROF_TABLE(name, fix)                                                  \
	{                                                                      \
		.tool = name, .need = prof_need, .need_metrics = prof_needm,   \
		.fixed = fix, .excl = prof_excl, .label_if_varies = 1,         \
		.key_cols = 1, .key_left = 0, .cols = prof_cols,               \
		.row = prof_row,                                               \
		.title = "Where the CPU went (% of all samples): " name,       \
		.underline = '=', .side = "local",                             \
	}

static const struct lay_table prof_ttcp = PROF_TABLE("ttcp-sf",
						     prof_ttcp_fixed);
static const struct lay_table prof_zcc = PROF_TABLE("zcc", prof_zcc_fixed);

const struct layout lay_profile = {
	"profile",
	"profiled ttcp-sf or zcc",
	"kernel profile by family, copy against zero-copy",
	(const struct lay_table *const[]){&prof_ttcp, &prof_zcc, NULL},
};
