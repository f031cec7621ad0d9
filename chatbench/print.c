/*
 * print.c: chatbench's text output: a line per run (chat_c's "Average
 * throughput" line with the run's times) and, over repeats, seed 004's
 * table of Mean and Standard Deviation, then the suite's meters. With the
 * soak meter the runs go in pairs: the table's rows come from the
 * unmetered runs, the soak figure from the metered ones, and what the
 * soakers did to the throughput is a footnote when it matters.
 */
#include "config.h"
#include "bench.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void print_run(FILE *f, const struct sample *s, long i, long n)
{
	if (s->paired)
		fprintf(f,
			s->metered
				? "pair %d, metered run: soakers on (its CPU is the soak figure; its rate is not the result)\n"
				: "pair %d, unmetered run: soakers parked (this rate is the result)\n",
			s->pair + 1);
	if (n > 1)
		fprintf(f, "run %ld/%ld: ", i, n);
	fprintf(f, "Average throughput : %.0f messages per second\n",
		s->msgs_per_s);
	fprintf(f,
		"  %llu messages in %.3f s (connect %.3f s); real %.3f s, user %.3f s, system %.3f s, CPU %.1f%%\n",
		(unsigned long long)s->run.received, s->run.exchange_s,
		s->run.connect_s, s->real_s, s->user_s, s->sys_s, s->cpu_pct);
	if (isfinite(s->srv_user_s))
		fprintf(f,
			"  server (remote, its rusage): user %.3f s, system %.3f s\n",
			s->srv_user_s, s->srv_sys_s);
	if (n == 1 && s->ncs)
		meter_print(f, "box", s->cs, s->ncs, 0);
	if (n == 1 && s->nsrv)
		meter_print(f, "server", s->srv, s->nsrv, 0);
}

void chat_perturbation(const struct sample *s, long n, struct stats_ratio *r)
{
	double *num = calloc((size_t)n + 1, sizeof(*num));
	double *den = calloc((size_t)n + 1, sizeof(*den));
	long i, j, k = 0;

	if (!num || !den)
		abort();
	/* each metered run with the unmetered run of its pair */
	for (i = 0; i < n; i++) {
		if (!s[i].paired || !s[i].metered)
			continue;
		for (j = 0; j < n; j++) {
			if (!s[j].paired || s[j].metered ||
			    s[j].pair != s[i].pair)
				continue;
			num[k] = s[i].msgs_per_s;
			den[k++] = s[j].msgs_per_s;
			break;
		}
	}
	stats_ratio_paired(num, den, (size_t)k, r);
	free(num);
	free(den);
}

static void row(FILE *f, const char *name, const double *x, long n)
{
	fprintf(f, "%-12s%-18f%f\n", name, stats_mean(x, (size_t)n),
		n > 1 ? stats_stddev(x, (size_t)n) : 0.0);
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
		c = server ? &set[i]->srv[k] : &set[i]->cs[k];
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
	int nm = server ? s[0].nsrv : s[0].ncs, k, soak;
	long i, a = 0, b = 0;

	if (!met || !unm)
		abort();
	for (i = 0; i < n; i++) {
		if (s[i].metered)
			met[a++] = &s[i];
		else
			unm[b++] = &s[i];
	}
	for (k = 0; k < nm; k++) {
		soak = !strcmp(server ? s[0].srv[k].meter : s[0].cs[k].meter,
			       "soak");
		if (!s[0].paired) {
			meter_row(f, side, unm, b, k, server, "", x);
			continue;
		}
		meter_row(f, side, met, a, k, server, "metered ", x);
		if (!soak)
			meter_row(f, side, unm, b, k, server, "unmetered ", x);
	}
	free(met);
	free(unm);
}

void print_table(FILE *f, const char *label, const struct sample *s, long n)
{
	double *x = calloc((size_t)n + 1, sizeof(*x));
	const struct sample **u = calloc((size_t)n + 1, sizeof(*u));
	struct stats_ratio pr;
	char note[256];
	long i, nu = 0;

	if (!x || !u)
		abort();
	for (i = 0; i < n; i++) /* the results: unmetered (or all) runs */
		if (!s[i].metered)
			u[nu++] = &s[i];
	fprintf(f, "%-12s%-18s%s\n", "", "Mean", "Standard Deviation");
	fprintf(f, "==> %s <==\n", label);
#define ROW(name, field)                                                       \
	do {                                                                   \
		for (i = 0; i < nu; i++)                                       \
			x[i] = u[i]->field;                                    \
		row(f, name, x, nu);                                           \
	} while (0)
	ROW("Throughput", msgs_per_s);
	ROW("Real", real_s);
	ROW("System", sys_s);
	ROW("User", user_s);
	ROW("CPU", cpu_pct);
	if (nu && isfinite(u[0]->srv_user_s)) {
		fprintf(f, "server (remote, rusage):\n");
		ROW("  System", srv_sys_s);
		ROW("  User", srv_user_s);
	}
#undef ROW
	if (s[0].paired)
		fprintf(f,
			"  (rows above: the %ld unmetered runs; soak CPU: the metered runs)\n",
			nu);
	if (s[0].ncs)
		meter_rows(f, "box", s, n, 0, x);
	if (s[0].nsrv)
		meter_rows(f, "server", s, n, 1, x);
	if (s[0].paired) {
		chat_perturbation(s, n, &pr);
		if (pr.n && meter_perturbed(pr.ratio)) {
			meter_perturbation_note(note, sizeof(note), &pr);
			fprintf(f, "* %s\n", note);
		}
	}
	free(x);
	free(u);
}
