/*
 * profile_out.c: a profile sample's outputs: its "profile" object in a
 * CPU sample's JSON (and back, checked, from a peer's report), its
 * metrics (prof_<side>_<family>_pct, so tables and compare treat a
 * family like any figure) and its lines in the CPU block.
 */
#include "config.h"
#include "esc.h"
#include "meter.h"
#include "profile.h"
#include "result.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define PROF_PRINT_TOP 5	/* symbols in the CPU block */

static json_t *fam_json(const double *pct)
{
	json_t *fam = json_object();
	int i;

	for (i = 0; i < PROF_NFAM; i++)
		json_object_set_new(fam, prof_family_name(i),
				    json_real(pct[i]));
	return fam;
}

json_t *prof_sample_json(const struct cpu_sample *cs)
{
	const struct prof_summary *s = &cs->prof;
	json_t *top = json_array();
	int i;

	for (i = 0; i < s->ntop; i++)
		json_array_append_new(
			top, json_pack("{s:s, s:s, s:f}", "symbol",
				       s->top[i].name, "family",
				       prof_family_name(s->top[i].family),
				       "pct", s->top[i].pct));
	return json_pack("{s:s, s:i, s:I, s:I, s:o, s:o, s:{s:I, s:o}}",
			 "event", s->event, "freq", s->freq, "samples",
			 (json_int_t)s->samples, "lost", (json_int_t)s->lost,
			 "families", fam_json(s->fam_pct), "top", top, "self",
			 "samples", (json_int_t)s->self_samples, "families",
			 fam_json(s->self_pct));
}

static int pct_ok(json_t *v)
{
	double x = json_number_value(v);

	return json_is_number(v) && x >= 0 && x <= 100.5;
}

static int top_from_json(json_t *a, struct prof_summary *s)
{
	const char *sym, *fam;
	size_t i;
	json_t *e;

	if (!json_is_array(a) || json_array_size(a) > PROF_TOP)
		return -EINVAL;
	json_array_foreach(a, i, e)
	{
		sym = json_string_value(json_object_get(e, "symbol"));
		fam = json_string_value(json_object_get(e, "family"));
		if (!sym || !fam || prof_family_find(fam) < 0 ||
		    !pct_ok(json_object_get(e, "pct")))
			return -EINVAL;
		esc_text(s->top[i].name, sizeof(s->top[i].name), sym);
		s->top[i].family = prof_family_find(fam);
		s->top[i].pct = json_number_value(json_object_get(e, "pct"));
		s->ntop++;
	}
	return 0;
}

/* Shares by family name; absent ones 0. -EINVAL on a bad share. */
static int fam_from_json(json_t *fam, double *pct)
{
	json_t *v;
	int i;

	if (!json_is_object(fam))
		return -EINVAL;
	for (i = 0; i < PROF_NFAM; i++) {
		v = json_object_get(fam, prof_family_name(i));
		if (v && !pct_ok(v))
			return -EINVAL;
		pct[i] = v ? json_number_value(v) : 0;
	}
	return 0;
}

int prof_sample_from_json(json_t *j, struct cpu_sample *cs, char *err,
			  size_t len)
{
	struct prof_summary *s = &cs->prof;
	json_t *self = json_object_get(j, "self"), *v;
	json_t *n = json_object_get(j, "samples");
	const char *ev = json_string_value(json_object_get(j, "event"));

	memset(s, 0, sizeof(*s));
	if (!json_is_object(j) || !ev || !json_is_integer(n) ||
	    json_integer_value(n) < 0 ||
	    fam_from_json(json_object_get(j, "families"), s->fam_pct))
		goto bad;
	esc_text(s->event, sizeof(s->event), ev);
	s->samples = (uint64_t)json_integer_value(n);
	v = json_object_get(j, "lost");
	s->lost = json_is_integer(v) && json_integer_value(v) > 0 ?
			  (uint64_t)json_integer_value(v) : 0;
	v = json_object_get(j, "freq");
	s->freq = json_is_integer(v) && json_integer_value(v) > 0 &&
				  json_integer_value(v) <= 1000000 ?
			  (int)json_integer_value(v) : 0;
	if (self) {
		v = json_object_get(self, "samples");
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    fam_from_json(json_object_get(self, "families"),
				  s->self_pct))
			goto bad;
		s->self_samples = (uint64_t)json_integer_value(v);
	}
	if (top_from_json(json_object_get(j, "top"), s))
		goto bad;
	return 0;
bad:
	snprintf(err, len, "CPU report: malformed profile");
	memset(s, 0, sizeof(*s));
	return -EINVAL;
}

void prof_add_metrics(struct res_doc *d, json_t *sample, const char *side,
		      const struct cpu_sample *s, int metered)
{
	(void)metered; /* its own figures, plain in the run it made */
	char name[96];
	int i;

	for (i = 0; i < PROF_NFAM; i++) {
		snprintf(name, sizeof(name), "prof_%s_%s_pct", side,
			 prof_family_name(i));
		/* idle is the CPU left over: more is better */
		res_metric(d, name, "%", i == PROF_IDLE ? RES_HIGHER :
				RES_LOWER, 0);
		res_sample_set(sample, name, s->prof.fam_pct[i]);
		if (i == PROF_IDLE)
			continue; /* the tool is never idle */
		snprintf(name, sizeof(name), "prof_%s_self_%s_pct", side,
			 prof_family_name(i));
		res_metric(d, name, "%", RES_LOWER, 0);
		res_sample_set(sample, name, s->prof.self_pct[i]);
	}
}

void prof_print(FILE *f, const char *side, const struct cpu_sample *s)
{
	const struct prof_summary *p = &s->prof;
	int i;

	fprintf(f, "  cpu %-6s %-8s %s at %d Hz on %d CPU%s: %llu samples",
		side, s->meter, p->event, p->freq, s->ncpu,
		s->ncpu == 1 ? "" : "s", (unsigned long long)p->samples);
	if (p->lost)
		fprintf(f, " (%llu lost)", (unsigned long long)p->lost);
	fputs("\n      families:", f);
	for (i = 0; i < PROF_NFAM; i++)
		fprintf(f, " %s %.1f%%", prof_family_name(i), p->fam_pct[i]);
	fputc('\n', f);
	if (p->self_samples) { /* cyclesoak -- CMD: the command is not us */
		fprintf(f, "      this process (%llu samples):",
			(unsigned long long)p->self_samples);
		for (i = 0; i < PROF_NFAM; i++)
			if (i != PROF_IDLE)
				fprintf(f, " %s %.1f%%", prof_family_name(i),
					p->self_pct[i]);
		fputc('\n', f);
	}
	for (i = 0; i < p->ntop && i < PROF_PRINT_TOP; i++)
		fprintf(f, "      %5.1f%%  %-40s %s\n", p->top[i].pct,
			p->top[i].name, prof_family_name(p->top[i].family));
}
