/*
 * fnotes.c: the marks and footnotes of a table (fnotes.h). A cell whose
 * cases ran perturbed (outside 0.95-1.05, lib/cpu/meter.h), with
 * soakers on but unpaired, or off their --rate target by more than 5%
 * is marked, and footnoted under its table (a perturbation with
 * meter_perturbation_by()); a line says which runs each kind of figure
 * came from. A table with none of these prints as it always did.
 */
#include "config.h"
#include "fnotes.h"
#include "meter.h"
#include "paired.h"
#include "resrate.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fn_init(struct fnotes *f)
{
	memset(f, 0, sizeof(*f));
}

void fn_free(struct fnotes *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->text[i]);
	free(f->text);
	free(f->why);
	free(f->mark);
	memset(f, 0, sizeof(*f));
}

/* How far a ratio is from 1, either way. */
static double distance(double ratio)
{
	return fabs(log(ratio));
}

/* The meter the paired cases' metered runs ran (res_case_paired_by):
 * "soak", "profile", or "metered" when they differ. */
static const char *cells_paired_by(struct res_pcase *const *cs, const int *has,
				   size_t n)
{
	const char *by = NULL, *b;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!has[i])
			continue;
		b = res_case_paired_by(cs[i]->kase);
		if (by && strcmp(by, b))
			return "metered";
		by = b;
	}
	return by ? by : meter_pairer();
}

/* What a metered run's figures are, by its meter (cells_paired_by:
 * "metered" for several). */
static const char *by_what(const char *by)
{
	return meter_find(by) ? meter_words_of(by)->figure
			      : "CPU and profile";
}

/* The footnote of a pooled cell's perturbation: each case's ratio, and
 * the worst one in full. */
static void pooled_note(FILE *m, struct res_pcase *const *cs,
			const struct stats_ratio *r, const int *has, size_t n,
			const char *by)
{
	size_t i, k = 0, npaired = 0, worst = n;
	char note[256];

	for (i = 0; i < n; i++) {
		if (!has[i])
			continue;
		npaired++;
		if (worst == n ||
		    distance(r[i].ratio) > distance(r[worst].ratio))
			worst = i;
	}
	fprintf(m, "pools %zu cases", n);
	if (npaired < n)
		fprintf(m, ", %zu of them paired,", npaired);
	fprintf(m, " whose %s runs reached ", by);
	for (i = 0; i < n; i++) {
		if (!has[i])
			continue;
		if (k++)
			fputs(k == npaired ? " and " : ", ", m);
		fprintf(m, "%.2fx", r[i].ratio);
	}
	meter_perturbation_by(note, sizeof(note),
			      res_case_paired_by(cs[worst]->kase), &r[worst]);
	fprintf(m, " of their unmetered rates; the worst: %s", note);
}

/* Of the cases behind a cell, the runs that missed their target rate:
 * how many, and the worst into *w; 0 when none did (or none was
 * paced). */
static size_t rate_misses(struct res_pcase *const *cs, size_t n,
			  const char *metric, size_t *runs, struct res_rate *w)
{
	struct res_rate r;
	size_t i, missed = 0;

	*runs = 0;
	for (i = 0; i < n; i++) {
		res_case_rate(cs[i]->kase, metric, &r);
		*runs += r.n;
		if (r.missed && (!missed || fabs(r.achieved - r.target) >
						    fabs(w->achieved - w->target)))
			*w = r;
		missed += r.missed;
	}
	return missed;
}

/* The footnote of the runs that missed their target. */
static void rate_note(FILE *m, size_t missed, size_t runs,
		      const struct res_rate *w)
{
	if (missed == 1 && runs == 1)
		fprintf(m, "missed its target rate by more than 5%%: %.1f MB/s of %.1f",
			w->achieved, w->target);
	else
		fprintf(m, "%zu of its %zu runs missed their target rate by more than 5%% (the worst: %.1f MB/s of %.1f)",
			missed, runs, w->achieved, w->target);
	fputs(": its figures are not those of the rate asked", m);
}

/* The footnote of the cases behind a cell, or NULL when none ran
 * perturbed, soaked unpaired or missed its rate; what it says into why,
 * and whether a case behind it was paired into *paired. */
static char *cell_note(struct res_pcase *const *cs, size_t n, const char *metric,
		       unsigned flags, struct fn_why *why, int *paired)
{
	struct stats_ratio *r = calloc(n + 1, sizeof(*r));
	int *has = calloc(n + 1, sizeof(*has));
	size_t i, nout = 0, nsoak = 0, size = 0, nrate = 0, rruns = 0;
	struct res_rate worst = {0};
	char *text = NULL, note[256];
	unsigned runs = 0;
	FILE *m;

	if (!r || !has)
		abort();
	for (i = 0; i < n; i++) {
		runs |= res_case_runs(cs[i]->kase, metric);
		has[i] = !res_read_perturbation(cs[i]->kase, &r[i]);
		nout += (flags & FN_PERTURBED) && has[i] &&
			meter_perturbed(r[i].ratio);
		nsoak += (flags & FN_SOAKED) &&
			 (res_case_runs(cs[i]->kase, metric) & RUN_SOAKED);
		*paired |= has[i];
	}
	if (flags & FN_RATE)
		nrate = rate_misses(cs, n, metric, &rruns, &worst);
	if (!nout && !nsoak && !nrate)
		goto out;
	*why = (struct fn_why){nout && n == 1 && !nsoak && !nrate, r[0].ratio,
			       r[0].n,
			       metric && runs == RUN_UNMETERED,
			       cells_paired_by(cs, has, n)};
	m = open_memstream(&text, &size);
	if (!m)
		abort();
	if (nout && n == 1) {
		meter_perturbation_by(note, sizeof(note),
				      res_case_paired_by(cs[0]->kase), &r[0]);
		fputs(note, m);
	} else if (nout) {
		pooled_note(m, cs, r, has, n, why->by);
	}
	if (nout && metric && runs == RUN_UNMETERED)
		fputs(" (the figure marked is from the unmetered runs)", m);
	if (nout && nsoak)
		fputs("; ", m);
	if (nsoak == 1 && n == 1)
		fputs("ran with soakers on, unpaired (no unmetered run beside "
		      "it): its figures describe a run the soakers may have "
		      "slowed, by an amount not measured",
		      m);
	else if (nsoak)
		fprintf(m,
			"%zu of the %zu cases pooled ran with soakers on, "
			"unpaired: their figures describe runs the soakers "
			"may have slowed, by an amount not measured",
			nsoak, n);
	if (nrate && (nout || nsoak))
		fputs("; ", m);
	if (nrate)
		rate_note(m, nrate, rruns, &worst);
	fclose(m);
out:
	free(r);
	free(has);
	return text;
}

int fn_cell(struct fnotes *f, size_t row, size_t col, struct res_pcase *const *cs,
	    size_t n, const char *metric, const char *param, const char *value,
	    unsigned flags)
{
	struct res_pcase **use = calloc(n + 1, sizeof(*use));
	struct fn_why why = {0};
	int paired = 0;
	size_t m, k;
	char *text;

	if (!use)
		abort();
	m = res_cell_cases(cs, n, metric, param, value, use);
	text = m ? cell_note(use, m, metric, flags, &why, &paired) : NULL;
	free(use);
	f->ncells += paired && (flags & FN_PERTURBED);
	if (!text)
		return 0;
	for (k = 0; k < f->n && strcmp(f->text[k], text); k++)
		;
	if (k == f->n) {
		f->text = res_grow(f->text, &f->cap, f->n, sizeof(*f->text));
		f->why = res_grow(f->why, &f->capwhy, f->n, sizeof(*f->why));
		f->why[f->n] = why;
		f->text[f->n++] = text;
	} else {
		free(text);
	}
	f->mark = res_grow(f->mark, &f->capmark, f->nmark, sizeof(*f->mark));
	f->mark[f->nmark++] = (struct fn_mark){row, col, k};
	return 1;
}

void fn_source(struct fnotes *f, const char *what, struct res_pcase *const *cs,
	       size_t n, const char *metric, const char *param,
	       const char *value)
{
	struct res_pcase **use = calloc(n + 1, sizeof(*use));
	unsigned runs = 0;
	size_t m, i;

	if (!use)
		abort();
	m = res_cell_cases(cs, n, metric, param, value, use);
	for (i = 0; i < m; i++)
		runs |= res_case_runs(use[i]->kase, metric);
	free(use);
	for (i = 0; i < f->nsrc && strcmp(f->src[i].what, what); i++)
		;
	if (i == FN_MAX_SRC)
		return;
	if (i == f->nsrc)
		f->src[f->nsrc++] = (struct fn_src){what, 0};
	f->src[i].runs |= runs;
}

/* Whether the footnotes are told as one: more than a few, each one
 * case's perturbation, all in the same direction and of the same runs. */
static int as_one(const struct fnotes *f)
{
	size_t i;

	if (f->n <= FN_FEW)
		return 0;
	for (i = 0; i < f->n; i++)
		if (!f->why[i].simple ||
		    f->why[i].unmetered != f->why[0].unmetered ||
		    (f->why[i].ratio < 1) != (f->why[0].ratio < 1))
			return 0;
	return 1;
}

/* The one footnote of as_one(): the range of ratios and of pairs. */
static void one_note(const struct fnotes *f, char *b, size_t len)
{
	double lo = f->why[0].ratio, hi = lo;
	size_t plo = f->why[0].pairs, phi = plo, i;
	const char *by = f->why[0].by;
	char range[64], pairs[64];

	for (i = 1; i < f->n; i++) {
		if (strcmp(f->why[i].by, by))
			by = "metered";
		lo = fmin(lo, f->why[i].ratio);
		hi = fmax(hi, f->why[i].ratio);
		plo = f->why[i].pairs < plo ? f->why[i].pairs : plo;
		phi = f->why[i].pairs > phi ? f->why[i].pairs : phi;
	}
	snprintf(range, sizeof(range), "%.2fx", lo);
	snprintf(pairs, sizeof(pairs), "%.2fx", hi);
	if (strcmp(range, pairs))
		snprintf(range, sizeof(range), "%.2fx-%.2fx", lo, hi);
	if (plo == phi)
		snprintf(pairs, sizeof(pairs), "%zu pair%s each", plo,
			 plo == 1 ? "" : "s");
	else
		snprintf(pairs, sizeof(pairs), "%zu-%zu pairs", plo, phi);
	snprintf(b, len,
		 "every marked cell (%zu of %zu): %s runs reached %s of the "
		 "unmetered rate (%s); their %s describes those %s runs%s",
		 f->nmark, f->ncells, by, range, pairs, by_what(by),
		 lo < 1 ? "slower" : "faster",
		 f->why[0].unmetered
			 ? " (the figures marked are from the unmetered runs)"
			 : "");
}

static void marker(char *b, size_t l, const struct fnotes *f, size_t note)
{
	if (f->n == 1 || as_one(f))
		snprintf(b, l, "*");
	else
		snprintf(b, l, "*%zu", note + 1);
}

void fn_marks(const struct fnotes *f, struct tbl *t)
{
	char b[32];
	size_t i;

	for (i = 0; i < f->nmark; i++) {
		marker(b, sizeof(b), f, f->mark[i].note);
		tbl_mark(t, f->mark[i].row, f->mark[i].col, b);
	}
}

void fn_value(struct fnotes *f, const struct cellv *v, const char *metric)
{
	size_t i;

	if (!v->nonpos || !metric)
		return;
	for (i = 0; i < f->nnonpos; i++)
		if (!strcmp(f->nonpos[i], metric))
			return;
	if (f->nnonpos < FN_MAX_SRC)
		f->nonpos[f->nnonpos++] = metric;
}

/* What "-" means in a cell fn_value was told of. */
static void nonpos_note(FILE *out, const struct fnotes *f, enum tbl_fmt fmt)
{
	char line[1024];
	size_t i;

	if (!f->nnonpos)
		return;
	snprintf(line, sizeof(line),
		 "-: no harmonic mean: a sample <= 0, "
		 "which a rate cannot be (");
	for (i = 0; i < f->nnonpos; i++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "%s%s", i ? ", " : "", f->nonpos[i]);
	strncat(line, ")", sizeof(line) - strlen(line) - 1);
	fn_note(out, fmt, line);
}

void fn_note(FILE *out, enum tbl_fmt fmt, const char *text)
{
	if (fmt == FMT_MARKDOWN)
		fputc('\n', out);
	tbl_note(out, fmt, text);
}

void fn_footnotes(FILE *out, const struct fnotes *f, enum tbl_fmt fmt)
{
	char b[32], line[1200], one[512];
	size_t i;
	int single = as_one(f);

	if (single)
		one_note(f, one, sizeof(one));
	for (i = 0; i < (single ? 1 : f->n); i++) {
		marker(b, sizeof(b), f, i);
		/* Markdown: a line starting "* " would be a list item */
		snprintf(line, sizeof(line), "%s%s %s",
			 fmt == FMT_MARKDOWN ? "\\" : "", b,
			 single ? one : f->text[i]);
		fn_note(out, fmt, line);
	}
	nonpos_note(out, f, fmt);
}

/* Which runs a figure came from, in words. */
static void runs_words(char *b, size_t l, unsigned runs)
{
	const char *un = (runs & RUN_SOAKED) && (runs & RUN_PLAIN)
				 ? "unpaired runs, some with soakers on"
			 : runs & RUN_SOAKED ? "unpaired runs with soakers on"
					     : "unpaired runs";

	if ((runs & RUN_PAIRED) == RUN_PAIRED)
		snprintf(b, l, "metered and unmetered runs");
	else if (runs & RUN_METERED)
		snprintf(b, l, "the metered runs of the same pairs");
	else if (runs & RUN_UNMETERED)
		snprintf(b, l, "the unmetered runs");
	else
		b[0] = 0;
	if (runs & (RUN_SOAKED | RUN_PLAIN))
		snprintf(b + strlen(b), l - strlen(b), "%s%s",
			 b[0] ? " and " : "", un);
}

void fn_sources(FILE *out, const struct fnotes *f, enum tbl_fmt fmt)
{
	char line[2048], words[128], other[128];
	size_t i, j, k = 0;
	unsigned paired = 0;
	int done[FN_MAX_SRC] = {0}, sd = 0;

	for (i = 0; i < f->nsrc; i++)
		paired |= f->src[i].runs & RUN_PAIRED;
	if (!paired)
		return;
	snprintf(line, sizeof(line), "(paired runs: ");
	/* whats that came from the same runs go together, in order */
	for (i = 0; i < f->nsrc; i++) {
		if (done[i] || !f->src[i].runs)
			continue;
		runs_words(words, sizeof(words), f->src[i].runs);
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 "%s%s", k++ ? "; " : "", f->src[i].what);
		for (j = i + 1; j < f->nsrc; j++) {
			runs_words(other, sizeof(other), f->src[j].runs);
			if (done[j] || strcmp(words, other))
				continue;
			done[j] = 1;
			snprintf(line + strlen(line),
				 sizeof(line) - strlen(line), ", %s",
				 f->src[j].what);
		}
		snprintf(line + strlen(line), sizeof(line) - strlen(line),
			 " from %s", words);
	}
	for (i = 0; i < f->nsrc; i++)
		sd |= !strncmp(f->src[i].what, "sd_", 3) ||
		      !strcmp(f->src[i].what, "service demand");
	snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s)",
		 sd ? "; service demand: the CPU and the bytes of one run"
		    : "");
	fn_note(out, fmt, line);
}
