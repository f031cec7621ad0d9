/*
 * print.c: chatbench's text output: a line per run (chat_c's "Average
 * throughput" line with the run's times) and, over repeats, seed 004's
 * table of Mean and Standard Deviation, then the suite's meters.
 */
#include "config.h"
#include "bench.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void print_run(FILE *f, const struct sample *s, long i, long n)
{
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

static void row(FILE *f, const char *name, const double *x, long n)
{
	fprintf(f, "%-12s%-18f%f\n", name, stats_mean(x, (size_t)n),
		n > 1 ? stats_stddev(x, (size_t)n) : 0.0);
}

/* Mean and deviation of each meter's box load over the runs. */
static void meter_rows(FILE *f, const char *side, const struct cpu_sample *cs,
		       size_t stride, int nmeters, long n, double *x)
{
	int k;
	long i;

	for (k = 0; k < nmeters; k++) {
		const struct cpu_sample *first = cs + k;
		long m = 0;

		for (i = 0; i < n; i++) {
			const struct cpu_sample *c =
				(const struct cpu_sample *)((const char *)cs +
							    i * stride) +
				k;

			if (c->ok)
				x[m++] = c->busy_pct;
		}
		if (!m) {
			fprintf(f, "  cpu %-6s %-8s unavailable: %s\n", side,
				first->meter, first->why);
			continue;
		}
		fprintf(f,
			"  cpu %-6s %-8s mean %5.1f%%  sd %.1f%%  of %d CPUs over %ld runs\n",
			side, first->meter, stats_mean(x, (size_t)m),
			m > 1 ? stats_stddev(x, (size_t)m) : 0.0, first->ncpu,
			m);
	}
}

void print_table(FILE *f, const char *label, const struct sample *s, long n)
{
	double *x = calloc((size_t)n + 1, sizeof(*x));
	long i;

	if (!x)
		abort();
	fprintf(f, "%-12s%-18s%s\n", "", "Mean", "Standard Deviation");
	fprintf(f, "==> %s <==\n", label);
#define ROW(name, field)                                                       \
	do {                                                                   \
		for (i = 0; i < n; i++)                                        \
			x[i] = s[i].field;                                     \
		row(f, name, x, n);                                            \
	} while (0)
	ROW("Throughput", msgs_per_s);
	ROW("Real", real_s);
	ROW("System", sys_s);
	ROW("User", user_s);
	ROW("CPU", cpu_pct);
#undef ROW
	if (isfinite(s[0].srv_user_s)) {
		for (i = 0; i < n; i++)
			x[i] = s[i].srv_sys_s;
		fprintf(f, "server (remote, rusage):\n");
		row(f, "  System", x, n);
		for (i = 0; i < n; i++)
			x[i] = s[i].srv_user_s;
		row(f, "  User", x, n);
	}
	if (s[0].ncs)
		meter_rows(f, "box", s[0].cs, sizeof(*s), s[0].ncs, n, x);
	if (s[0].nsrv)
		meter_rows(f, "server", s[0].srv, sizeof(*s), s[0].nsrv, n, x);
	free(x);
}
