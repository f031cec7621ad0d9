/*
 * lay_chat.c: seed 004's table: chat-1.0.1's "==> LABEL <==" blocks of
 * Throughput (msgs_per_s), Real, System, User and CPU (time_cpu_pct),
 * each with its Mean and Standard Deviation to 6 decimals (the mean of
 * the runs, as chat-1.0.1 took it, unless another statistic is asked
 * for); and, when chatbench measured a server on another host, that
 * server's system and user time (its rusage).
 */
#include "config.h"
#include "lay_int.h"

#include <math.h>

static const struct {
	const char *name, *metric;
	int optional; /* only when a case has it */
} chat_rows[] = {
	{"Throughput", "msgs_per_s", 0},
	{"Real", "real_s", 0},
	{"System", "system_s", 0},
	{"User", "user_s", 0},
	{"CPU", "time_cpu_pct", 0},
	{"server System", "server_system_s", 1},
	{"server User", "server_user_s", 1},
	{NULL, NULL, 0},
};

/* A label's block: its heading, then a row per figure. */
static void chat_row(struct lay *l, const struct res_group *g)
{
	char q[256], b[64];
	int i;

	lay_qualifier(q, sizeof(q), l, g, 1);
	if (g != l->g.g && l->o->fmt == FMT_TEXT)
		tbl_section(l->tb, "%s", "");
	tbl_section(l->tb, "==> %s%s <==", g->vals[0], q);
	for (i = 0; chat_rows[i].name; i++) {
		struct cellv v;
		size_t row;

		if (chat_rows[i].optional &&
		    !lay_any_metric(l, chat_rows[i].metric))
			continue;
		row = lay_row(l, g);
		res_cell_value(g->cases, g->n, chat_rows[i].metric, l->o->stat,
			   NULL, NULL, &v);
		fn_value(&l->fn, &v, chat_rows[i].metric);
		lay_set(l, row, 0, chat_rows[i].name);
		fmt_6f(b, sizeof(b), v.ok ? v.v : NAN);
		lay_set(l, row, 1, b);
		fmt_6f(b, sizeof(b), v.ok ? v.sd : NAN);
		lay_set(l, row, 2, b);
		/* no figure here is the soak CPU: the rate's mean carries
		 * the mark */
		if (!i)
			lay_mark(l, row, 1, g->cases, g->n, chat_rows[i].metric,
				 NULL, NULL, FN_ANY);
		fn_source(&l->fn, chat_rows[i].name, g->cases, g->n,
			  chat_rows[i].metric, NULL, NULL);
	}
}

static const char *const chat_needm[] = {"msgs_per_s", NULL};
static const char *const chat_fixed[] = {"label", NULL};
static const struct lay_col chat_cols[] = {
	{.head = "", .al = AL_LEFT},
	{.head = "Mean", .al = AL_RIGHT},
	{.head = "Standard Deviation", .al = AL_RIGHT},
	{.head = NULL},
};
static const struct lay_table chat_table = {
	.tool = "chatbench",
	.need_metrics = chat_needm,
	.fixed = chat_fixed,
	.cols = chat_cols,
	.row = chat_row,
	.mean = 1,
};

const struct layout lay_chat = {
	"chat",
	"chatbench",
	"chat Mean / Standard Deviation (seed 004)",
	(const struct lay_table *const[]){&chat_table, NULL},
};
