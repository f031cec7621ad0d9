/*
 * paired.h: which runs a case's figures came from (lib/cpu/meter.h,
 * lib/doc/SCHEMA.md "Paired runs"). With the soak meter a case runs in
 * pairs: a metered run (soakers on) and an unmetered one; its figures
 * are named by the run they describe, and the case carries its
 * perturbation (metered rate / unmetered rate). An older document, or
 * `cyclesoak -- CMD`, has runs with soakers on but unpaired: their
 * rates are slowed ones.
 */
#ifndef ZCB_PAIRED_H
#define ZCB_PAIRED_H

#include <jansson.h>
#include <stddef.h>

#define RUN_METERED   1u /* a pair's metered run (soakers on) */
#define RUN_UNMETERED 2u /* a pair's unmetered run (soakers parked) */
#define RUN_SOAKED    4u /* unpaired, with soakers on (soak ok) */
#define RUN_PLAIN     8u /* unpaired, no soakers */
#define RUN_DISTURBED 16u /* disturbed and made again ("disturbed":
			   * {"rerun": true}): no result, of any kind */
#define RUN_PAIRED    (RUN_METERED | RUN_UNMETERED)

/* What kind of run a sample was: RUN_DISTURBED first, whatever its
 * pairing, else its pairing. */
unsigned res_sample_run(json_t *sample);
/* 1 when its figures count: every sample but a disturbed one that was
 * made again (the tables, the loader and compare pool only these). */
int res_sample_counts(json_t *sample);
/* The kinds (RUN_* bits) of a case's samples carrying metric (NULL:
 * every sample), the disturbed ones left out. */
unsigned res_case_runs(json_t *kase, const char *metric);
/* Samples of a case that give its results: the unmetered ones of a
 * paired case, every one of an unpaired case; never a disturbed one. */
size_t res_case_result_runs(json_t *kase);
struct stats_ratio;
/* A case's perturbation into r; 0 when it has one, else -1. */
int res_read_perturbation(json_t *kase, struct stats_ratio *r);
/* The meter whose cost paired a case: "profile" when its metered runs
 * profiled without soak, else "soak". */
const char *res_case_paired_by(json_t *kase);
/* What sets a case's runs apart from those of a case of the same params
 * whose figures may be pooled with it: the meter that paired them when
 * that is not the primary pairer (soak), i.e. "profile"; NULL for a case
 * paired by soak and for an unpaired one (their figures of runs with
 * soakers and without are told apart figure by figure, res_case_runs).
 * Derived from the samples, so an older document has it too. */
const char *res_case_pairing(json_t *kase);

#endif
