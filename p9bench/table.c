/*
 * table.c: p9bench's text around seed 000's tables. The tables are the
 * table room's p9 layout (lib/table/lay_p9.c) of this run's own
 * document, the text `zcbreport table --layout p9` prints of it: WRITE
 * and READ (IO SIZE, TOTAL SIZE, No ZC and ZC in kb/s and mb/s), then
 * per direction ops/s, the ZC/No ZC ratio, the spread over repeats and
 * the CPU, with their marks and footnotes for paired runs. Here: the
 * notes above them (where the run went, what the paths are) and the
 * closing one-line summary from the sweep's cells.
 */
#include "config.h"
#include "layout.h"
#include "p9bench.h"
#include "result.h"
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
	if (b->paired && (meter_flags_of(b->paired_by) & METER_NO_LOAD))
		fputs("# CPU meter profile: each repeat is a pair of runs, profiled then\n"
		      "# unprofiled. Rates are the unprofiled runs'; the profile is the\n"
		      "# profiled runs', CPU figures the unprofiled runs'. * marks a cell\n"
		      "# whose profiled rate is outside 0.95-1.05 of its unprofiled rate.\n",
		      f);
	else if (b->paired)
		fputs("# CPU meter soak: each repeat is a pair of runs, metered (soakers\n"
		      "# on) then unmetered (soakers parked). Rates are the unmetered runs';\n"
		      "# soak CPU is the metered runs' (and so is its service demand), other\n"
		      "# CPU figures the unmetered runs'. * marks a cell whose metered rate\n"
		      "# is outside 0.95-1.05 of its unmetered rate.\n",
		      f);
}

static void cell_rate(const struct cell *c, char *buf, size_t len)
{
	if (!c->n || c->secs <= 0)
		snprintf(buf, len, "-");
	else
		table_rate(c->bytes / c->secs, buf, len);
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

void table_print(FILE *f, const struct bench *b, struct res_doc *doc)
{
	struct layout_opts o = {.out = f, .fmt = FMT_TEXT, .stat = ST_AUTO};

	table_note(f, b);
	fputc('\n', f);
	if (!layout_print_doc("p9", res_json(doc), &o))
		fputc('\n', f);
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
