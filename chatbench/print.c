/*
 * print.c: chatbench's text output: a line per run (chat_c's "Average
 * throughput" line with the run's times) and, over repeats, seed 004's
 * table of Mean and Standard Deviation, then the suite's meters. The
 * table is the table room's chat layout (lib/table/lay_chat.c) of this
 * run's own document, the text `zcbreport table --layout chat` prints of
 * it: with the soak meter the runs go in pairs, its rows come from the
 * unmetered runs, and what the soakers did to the throughput is a
 * footnote when it matters; the meter lines under it give the soak
 * figure of the metered runs.
 */
#include "config.h"
#include "bench.h"
#include "layout.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void print_run(FILE *f, const struct sample *s, const char *by, long i,
	       long n)
{
	if (s->paired)
		fprintf(f, "pair %d, %s\n", s->pair + 1,
			meter_pair_run(by, s->metered));
	if (n > 1)
		fprintf(f, "run %ld/%ld: ", i, n);
	fprintf(f, "Average throughput : %.0f messages per second\n",
		s->msgs_per_s);
	fprintf(f,
		"  %llu messages in %.3f s (connect %.3f s); real %.3f s, user %.3f s, system %.3f s, CPU %.1f%%\n",
		(unsigned long long)(s->run.received - s->run.omitted),
		s->run.exchange_s, s->run.connect_s, s->real_s, s->user_s,
		s->sys_s, s->cpu_pct);
	if (s->run.omitted_s > 0)
		fprintf(f, "  --omit: %llu messages of the first %.3f s left out\n",
			(unsigned long long)s->run.omitted, s->run.omitted_s);
	if (isfinite(s->srv_user_s))
		fprintf(f,
			"  server (remote, its rusage): user %.3f s, system %.3f s\n",
			s->srv_user_s, s->srv_sys_s);
	if (n == 1 && s->cpu.nlocal)
		meter_print(f, "box", s->cpu.local, s->cpu.nlocal, 0);
	if (n == 1 && s->cpu.npeer)
		meter_print(f, "server", s->cpu.peer, s->cpu.npeer, 0);
}

/*
 * Mean and deviation of meter k's box load over the runs in set (of
 * nset); which: "" unpaired, else "metered " or "unmetered ", said in
 * the line.
 */
static void meter_row(FILE *f, const char *side, const struct sample **set,
		      long nset, int k, int server, const char *which,
		      double *x)
{
	const struct cpu_sample *first = NULL, *c;
	long i, m = 0;

	for (i = 0; i < nset; i++) {
		c = server ? &set[i]->cpu.peer[k] : &set[i]->cpu.local[k];
		if (!first)
			first = c;
		if (c->ok)
			x[m++] = c->busy_pct;
	}
	if (!first)
		return;
	if (!m) {
		fprintf(f, "  cpu %-6s %-8s unavailable: %s\n", side,
			first->meter, first->why);
		return;
	}
	fprintf(f,
		"  cpu %-6s %-8s mean %5.1f%%  sd %.1f%%  of %d CPUs over %ld %sruns\n",
		side, first->meter, stats_mean(x, (size_t)m),
		m > 1 ? stats_stddev(x, (size_t)m) : 0.0, first->ncpu, m,
		which);
}

/* One side's meters. Paired: soak over the metered runs (the unmetered
 * ones had it parked), every other meter over each kind apart. */
static void meter_rows(FILE *f, const char *side, const struct sample *s,
		       long n, int server, double *x)
{
	const struct sample **met = calloc((size_t)n + 1, sizeof(*met));
	const struct sample **unm = calloc((size_t)n + 1, sizeof(*unm));
	int nm = server ? s[0].cpu.npeer : s[0].cpu.nlocal, k, prim;
	long i, a = 0, b = 0;

	if (!met || !unm)
		abort();
	for (i = 0; i < n; i++) {
		if (s[i].rerun) /* disturbed, made again: no result */
			continue;
		if (s[i].metered)
			met[a++] = &s[i];
		else
			unm[b++] = &s[i];
	}
	for (k = 0; k < nm; k++) {
		/* the primary meter (soak) measures the metered runs only */
		prim = meter_is_primary(server ? &s[0].cpu.peer[k]
					       : &s[0].cpu.local[k]);
		if (!s[0].paired) {
			meter_row(f, side, unm, b, k, server, "", x);
			continue;
		}
		meter_row(f, side, met, a, k, server, "metered ", x);
		if (!prim)
			meter_row(f, side, unm, b, k, server, "unmetered ", x);
	}
	free(met);
	free(unm);
}

void chat_print_table(FILE *f, struct res_doc *doc, const struct sample *s,
		 long n)
{
	struct layout_opts o = {.out = f, .fmt = FMT_TEXT, .stat = ST_AUTO};
	double *x = calloc((size_t)n + 1, sizeof(*x));

	if (!x)
		abort();
	layout_print_doc("chat", res_json(doc), &o);
	if (s[0].cpu.nlocal)
		meter_rows(f, "box", s, n, 0, x);
	if (s[0].cpu.npeer)
		meter_rows(f, "server", s, n, 1, x);
	free(x);
}
