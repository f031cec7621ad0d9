/*
 * cmppert.c: the perturbation block under compare's tables (cmpprint.h):
 * each case whose metered runs ran outside 0.95-1.05 of its unmetered
 * rate (lib/cpu/meter.h), with each side's figure in full, under one
 * line that says what the block is (the soak meter's, the profiler's, or
 * both). Two-sided compare prints it as it always did; compare BASE A
 * B... prints one block over every kernel, each case's baseline and each
 * kernel by its label.
 */
#include "config.h"
#include "cmpprint.h"
#include "esc.h"
#include "meter.h"

#include <stdio.h>
#include <string.h>

int cmp_key_perturbed(const struct ckey *k)
{
	return (k->npert[0] && meter_perturbed(k->pert[0].ratio)) ||
	       (k->npert[1] && meter_perturbed(k->pert[1].ratio));
}

const char *cmp_pert_meter(const struct ckey *k)
{
	const char *by = k->npert[0] ? k->pert_by[0] : k->pert_by[1];

	if (k->npert[0] && k->npert[1] && strcmp(k->pert_by[0], k->pert_by[1]))
		return "metered";
	return by;
}

/* A key printed under the tables: perturbed, on both sides. */
static int shown_perturbed(const struct ckey *key)
{
	return key->n[0] && key->n[1] && cmp_key_perturbed(key);
}

/* The meter of every key shown: "soak", "profile", "metered" (both), or
 * NULL when none is. */
static const char *block_meter(const struct cmp_state *const *st, size_t n)
{
	const char *by = NULL, *b;
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < st[i]->nkeys; k++) {
			if (!shown_perturbed(&st[i]->keys[k]))
				continue;
			b = cmp_pert_meter(&st[i]->keys[k]);
			by = by && strcmp(by, b) ? "metered" : b;
		}
	return by;
}

/* The line over the block, for the meter that paired its cases
 * (block_meter: "metered" when they differ). */
static void head(char *b, size_t l, const char *by)
{
	const struct meter_words *w = meter_words_of(by);

	if (meter_find(by))
		snprintf(b, l,
			 "%s meter perturbation outside %.2f-%.2f "
			 "(\"%s\" on a row: the metered rate over the "
			 "unmetered rate of each side; rates come from the "
			 "unmetered runs, %s from the metered ones):",
			 w->title, METER_PERTURB_LO, METER_PERTURB_HI, by,
			 w->from_all);
	else
		snprintf(b, l,
			 "Meter perturbation outside %.2f-%.2f (\"soak\" or "
			 "\"profile\" on a row: the metered rate over the "
			 "unmetered rate of each side, by the meter of the "
			 "metered runs; rates come from the unmetered runs, CPU, "
			 "service demand and profile from the metered ones):",
			 METER_PERTURB_LO, METER_PERTURB_HI);
}

static void emit_line(void (*emit)(void *, const char *), void *ctx,
		      const char *line)
{
	if (emit)
		emit(ctx, line);
	else
		printf("%s\n", line);
}

/* One side of a key: "    new: soak run reached ..." */
static void side_line(char *b, size_t l, const struct ckey *key, int side,
		      const char *name)
{
	char note[256];

	meter_perturbation_by(note, sizeof(note), key->pert_by[side],
			      &key->pert[side]);
	snprintf(b, l, "    %s: %s%s", name, note,
		 key->npert[side] > 1 ? " (the worst of its cases)" : "");
}

void cmp_perturbations(const struct cmp_state *const *st,
		       const char *const *labels, size_t n,
		       void (*emit)(void *ctx, const char *line), void *ctx)
{
	const char *by = block_meter(st, n);
	char line[1024], en[512], lab[256];
	size_t i, k;

	if (!by)
		return;
	head(line, sizeof(line), by);
	emit_line(emit, ctx, line);
	for (i = 0; i < n; i++)
		for (k = 0; k < st[i]->nkeys; k++) {
			const struct ckey *key = &st[i]->keys[k];

			if (!shown_perturbed(key))
				continue;
			if (labels)
				esc_text(lab, sizeof(lab), labels[i]);
			snprintf(line, sizeof(line), "  %s%s%s",
				 esc_text(en, sizeof(en), key->name),
				 labels ? ", base against " : "",
				 labels ? lab : "");
			emit_line(emit, ctx, line);
			if (key->npert[0]) {
				side_line(line, sizeof(line), key, 0, "base");
				emit_line(emit, ctx, line);
			}
			if (key->npert[1]) {
				side_line(line, sizeof(line), key, 1,
					  labels ? lab : "new");
				emit_line(emit, ctx, line);
			}
		}
	if (!emit)
		printf("\n");
}
