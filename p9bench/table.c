/*
 * table.c: seed 000's two tables (WRITE, READ: IO SIZE, TOTAL SIZE,
 * No ZC, ZC in kb/s and mb/s), then per direction a second table with
 * ops/s, the ZC/No ZC ratio and CPU, from the sweep's cells. Rates are
 * pooled over the repeats (total bytes / total seconds: the harmonic
 * mean); units as lib/core/units.h units_fmt_seed_rate/total (kb/s = 1000
 * bytes/s; TOTAL SIZE binary), the same as zcbreport's p9 layout.
 * Paired runs (the soak meter): rates are the unmetered runs', and a
 * cell whose metered runs' rate is outside 0.95-1.05 of it gets a "*"
 * and a footnote under the table, so the seed's layout stays as it is.
 */
#include "config.h"
#include "p9bench.h"
#include "stats.h"
#include "units.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *table_rate(double bytes_per_s, char *buf, size_t len)
{
	return units_fmt_seed_rate(bytes_per_s, buf, len);
}

const char *table_total(double bytes, char *buf, size_t len)
{
	return units_fmt_seed_total(bytes, buf, len);
}

void table_note(FILE *f, const struct bench *b)
{
	if (b->bk == &bk_9p) {
		fprintf(f, "# %s, msize %u, qd %d.\n", b->where, b->c.msize,
			b->cfg->qd);
		fputs("# No ZC = copy path: each reply lands in a message buffer and its\n"
		      "# payload is copied (writes: copied into the message). ZC = direct path:\n"
		      "# header first, payload straight into or out of the caller's buffer by\n"
		      "# readv/writev, the userspace analogue of v9fs zero-copy.\n"
		      "# Linux v9fs over TCP always copies; its zero-copy runs only on virtio\n"
		      "# and only for IO above 1024 bytes.\n",
		      f);
	} else {
		fprintf(f, "# mounted: %s.\n", b->where);
		fputs("# buffered = read/write through the page cache as mounted; O_DIRECT =\n"
		      "# the same file opened O_DIRECT. Whether v9fs copies depends on its\n"
		      "# transport: zero-copy only with trans=virtio and IO above 1024 bytes.\n",
		      f);
	}
	fprintf(f, "# kb/s, mb/s: 1000 and 10^6 bytes per second; %d repeat%s,\n"
		   "# rates pooled over them.\n",
		b->cfg->repeat, b->cfg->repeat == 1 ? "" : "s");
	if (b->paired)
		fputs("# CPU meter soak: each repeat is a pair of runs, metered (soakers\n"
		      "# on) then unmetered (soakers parked). Rates are the unmetered runs';\n"
		      "# soak CPU is the metered runs' (and so is its service demand), other\n"
		      "# CPU figures the unmetered runs'. * marks a cell whose metered rate\n"
		      "# is outside 0.95-1.05 of its unmetered rate.\n",
		      f);
}

int table_perturbation(const struct cell *c, struct stats_ratio *r)
{
	if (!c->npairs)
		return 0;
	stats_ratio_paired(c->pair_m, c->pair_u, (size_t)c->npairs, r);
	return r->n > 0;
}

/* Does the cell get a "*" (its soak runs were perturbed)? */
static int marked(const struct cell *c)
{
	struct stats_ratio r;

	return table_perturbation(c, &r) && meter_perturbed(r.ratio);
}

/* Under a table: one footnote per marked cell of direction op. */
static void footnotes(FILE *f, const struct bench *b, int op)
{
	struct stats_ratio r;
	char note[256];
	int si, p;

	for (si = 0; si < b->cfg->nsizes; si++)
		for (p = 0; p < NPATHS; p++) {
			const struct cell *c = &b->cells[op][si][p];

			if (!table_perturbation(c, &r) ||
			    !meter_perturbed(r.ratio))
				continue;
			meter_perturbation_note(note, sizeof(note), &r);
			fprintf(f, "* %zu %s: %s\n", b->cfg->sizes[si],
				b->bk->col_name[p], note);
		}
}

static void cell_rate(const struct cell *c, char *buf, size_t len)
{
	if (!c->n || c->secs <= 0)
		snprintf(buf, len, "-");
	else
		table_rate(c->bytes / c->secs, buf, len);
}

/* The cell's rate with its footnote mark. */
static void cell_rate_marked(const struct cell *c, char *buf, size_t len)
{
	size_t n;

	cell_rate(c, buf, len);
	n = strlen(buf);
	if (marked(c) && n + 1 < len)
		snprintf(buf + n, len - n, "*");
}

static void seed_table(FILE *f, const struct bench *b, int op)
{
	const struct cfg *cfg = b->cfg;
	char tot[32], r0[32], r1[32];
	int si;

	fprintf(f, "%s\n\n", op ? "READ" : "WRITE");
	fprintf(f, "%-10s %-12s %-13s %s\n", "IO SIZE", "TOTAL SIZE",
		b->bk->col_name[0], b->bk->col_name[1]);
	for (si = 0; si < cfg->nsizes; si++) {
		const struct cell *c0 = &b->cells[op][si][0];
		const struct cell *c1 = &b->cells[op][si][1];
		const struct cell *c = c0->n ? c0 : c1;

		if (!c->n)
			continue;
		table_total(c->bytes / c->n, tot, sizeof(tot));
		cell_rate_marked(c0, r0, sizeof(r0));
		cell_rate_marked(c1, r1, sizeof(r1));
		fprintf(f, "%-10zu %-12s %-13s %s\n", cfg->sizes[si], tot, r0,
			r1);
	}
	footnotes(f, b, op);
	fputc('\n', f);
}

static void fmt_pct(char *buf, size_t len, double sum, int n)
{
	if (n)
		snprintf(buf, len, "%.1f%%", sum / n);
	else
		snprintf(buf, len, "-");
}

/* A line being built; printed without trailing blanks. */
struct line {
	char b[512];
	size_t n;
};

static void add(struct line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(l->b + l->n, sizeof(l->b) - l->n, fmt, ap);
	va_end(ap);
	if (r > 0)
		l->n = l->n + (size_t)r < sizeof(l->b) ? l->n + (size_t)r
						       : sizeof(l->b) - 1;
}

static void emit(FILE *f, struct line *l)
{
	while (l->n && l->b[l->n - 1] == ' ')
		l->n--;
	l->b[l->n] = '\0';
	fprintf(f, "%s\n", l->b);
	l->n = 0;
}

/* Which CPU columns the table has: local, server host, server process. */
static int cpu_cols(const struct bench *b, int op, int which)
{
	int si, p, any = 0;

	for (si = 0; si < b->cfg->nsizes; si++)
		for (p = 0; p < NPATHS; p++) {
			const struct cell *c = &b->cells[op][si][p];

			any |= (which == 0   ? c->cpu_n
				: which == 1 ? c->remote_n
					     : c->server_n) > 0;
		}
	return any;
}

/* Which runs a soak column comes from. */
static const char *soak_runs(const char *meter)
{
	return strcmp(meter, "soak") ? "" : ", metered runs";
}

static void extra_table(FILE *f, const struct bench *b, int op)
{
	static const char *const head[3] = {"CPU", "HOST CPU", "SRV CPU"};
	const struct cfg *cfg = b->cfg;
	const char *n[NPATHS] = {b->bk->col_name[0], b->bk->col_name[1]};
	int si, p, k, col[3];
	struct line l = {.n = 0};

	for (k = 0; k < 3; k++)
		col[k] = cpu_cols(b, op, k);
	if (b->same_box && col[0])
		col[1] = 0; /* the server's host is this box: printed once */
	add(&l, "%s: ops/s, %s/%s throughput ratio, spread over repeats",
	    op ? "READ" : "WRITE", n[1], n[0]);
	if (col[0] || col[1] || col[2]) {
		add(&l, "; CPU %% of all CPUs:");
		if (col[0])
			add(&l, " this box (%s%s)%s%s", b->cpu_meter,
			    soak_runs(b->cpu_meter),
			    b->same_box ? " = server host" : "",
			    col[1] || col[2] ? "," : "");
		if (col[1])
			add(&l, " server host (%s%s)%s", b->remote_meter,
			    soak_runs(b->remote_meter), col[2] ? "," : "");
		if (col[2])
			add(&l, " server process");
	}
	emit(f, &l);
	add(&l, "%-10s %-10s %-10s %-7s %-7s", "IO SIZE", "OPS/S", "OPS/S",
	    "RATIO", "SPREAD");
	for (k = 0; k < 3; k++)
		for (p = 0; p < NPATHS; p++)
			if (col[k])
				add(&l, " %-9s", head[k]);
	emit(f, &l);
	add(&l, "%-10s %-10s %-10s %-7s %-7s", "", n[0], n[1], "", "");
	for (k = 0; k < 3; k++)
		for (p = 0; p < NPATHS; p++)
			if (col[k])
				add(&l, " %-9s", n[p]);
	emit(f, &l);
	for (si = 0; si < cfg->nsizes; si++) {
		const struct cell *c[NPATHS] = {&b->cells[op][si][0],
						&b->cells[op][si][1]};
		char o[NPATHS][32], pct[32], ratio[16] = "-", spread[16] = "-";
		double worst = 0;

		if (!c[0]->n && !c[1]->n)
			continue;
		for (p = 0; p < NPATHS; p++) {
			const struct cell *x = c[p];
			double mean =
				x->secs > 0 ? x->bytes / x->secs / 1e6 : 0;

			snprintf(o[p], sizeof(o[p]), "-");
			if (x->n && x->secs > 0)
				snprintf(o[p], sizeof(o[p]), "%.0f%s",
					 x->ops / x->secs,
					 marked(x) ? "*" : "");
			if (x->n > 1 && mean > 0 &&
			    (x->mbps_max - x->mbps_min) / mean > worst)
				worst = (x->mbps_max - x->mbps_min) / mean;
		}
		if (c[0]->n && c[1]->n && c[0]->secs > 0 && c[1]->secs > 0 &&
		    c[0]->bytes > 0)
			snprintf(ratio, sizeof(ratio), "%.3f",
				 (c[1]->bytes / c[1]->secs) /
					 (c[0]->bytes / c[0]->secs));
		if (cfg->repeat > 1)
			snprintf(spread, sizeof(spread), "%.0f%%", worst * 100);
		add(&l, "%-10zu %-10s %-10s %-7s %-7s", cfg->sizes[si], o[0],
		    o[1], ratio, spread);
		for (k = 0; k < 3; k++)
			for (p = 0; p < NPATHS; p++) {
				const struct cell *x = c[p];

				if (!col[k])
					continue;
				if (k == 0)
					fmt_pct(pct, sizeof(pct), x->cpu_sum,
						x->cpu_n);
				else if (k == 1)
					fmt_pct(pct, sizeof(pct), x->remote_sum,
						x->remote_n);
				else
					fmt_pct(pct, sizeof(pct), x->server_sum,
						x->server_n);
				add(&l, " %-9s", pct);
			}
		emit(f, &l);
	}
	footnotes(f, b, op);
	fputc('\n', f);
}

void table_print(FILE *f, const struct bench *b)
{
	int op;

	table_note(f, b);
	fputc('\n', f);
	for (op = 0; op < 2; op++)
		if (b->cfg->ops_mask & (op ? OP_READ : OP_WRITE))
			seed_table(f, b, op);
	for (op = 0; op < 2; op++)
		if (b->cfg->ops_mask & (op ? OP_READ : OP_WRITE))
			extra_table(f, b, op);
}

void table_summary(FILE *f, const struct bench *b, const char *status)
{
	const struct cfg *cfg = b->cfg;
	int si = cfg->nsizes - 1, op, p;
	struct line l = {.n = 0};
	char r[32];

	add(&l, "p9bench: %s (%s), %d size%s x %d repeat%s, %s", b->where,
	    b->bk->mode, cfg->nsizes, cfg->nsizes == 1 ? "" : "s", cfg->repeat,
	    cfg->repeat == 1 ? "" : "s", status);
	if (si >= 0 && (b->cells[0][si][0].n || b->cells[0][si][1].n ||
			b->cells[1][si][0].n || b->cells[1][si][1].n))
		add(&l, "; at %zu bytes%s:", cfg->sizes[si],
		    b->paired ? " (unmetered runs)" : "");
	for (op = 0; op < 2 && si >= 0; op++)
		for (p = 0; p < NPATHS; p++) {
			const struct cell *c = &b->cells[op][si][p];

			if (!c->n || c->secs <= 0)
				continue;
			cell_rate(c, r, sizeof(r));
			add(&l, " %s %s %s,", op ? "read" : "write",
			    b->bk->col_name[p], r);
		}
	if (l.n && l.b[l.n - 1] == ',')
		l.n--;
	emit(f, &l);
}
