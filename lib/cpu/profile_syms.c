/*
 * profile_syms.c: the kernel's text symbols from /proc/kallsyms, sorted
 * for a binary search, and a window's sample counts per symbol: the
 * family shares and the top symbols of a profile (profile.h).
 */
#include "config.h"
#include "hostinfo.h"
#include "profile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sorting keys: the address and the table index it came from. */
struct ent {
	uint64_t addr;
	uint32_t name;
};

static int ent_cmp(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Append one "addr type name [module]" line if it is a text symbol. */
static int add_line(struct prof_syms *t, struct ent **e, size_t *cap,
		    size_t *ncap, const char *line)
{
	char type, name[256];
	uint64_t addr;
	size_t n;

	if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, name) != 3)
		return 0;
	if (!strchr("tTwW", type))
		return 0;
	n = strlen(name) + 1;
	if (t->n == *cap) {
		*cap = *cap ? 2 * *cap : 4096;
		*e = realloc(*e, *cap * sizeof(**e));
		if (!*e)
			return -ENOMEM;
	}
	if (t->names_len + n > *ncap) {
		*ncap = *ncap ? 2 * *ncap : 65536;
		t->names = realloc(t->names, *ncap);
		if (!t->names)
			return -ENOMEM;
	}
	memcpy(t->names + t->names_len, name, n);
	(*e)[t->n].addr = addr;
	(*e)[t->n].name = (uint32_t)t->names_len;
	t->names_len += n;
	t->n++;
	return 0;
}

static int read_table(struct prof_syms *t, FILE *f, struct ent **e,
		      int *nonzero)
{
	size_t cap = 0, ncap = 0;
	char line[512];
	int r;

	while (fgets(line, sizeof(line), f)) {
		r = add_line(t, e, &cap, &ncap, line);
		if (r)
			return r;
		if (t->n && (*e)[t->n - 1].addr)
			*nonzero = 1;
		if (t->names_len > UINT32_MAX / 2)
			return -EFBIG;
	}
	return 0;
}

int prof_syms_load(struct prof_syms *t, const char *path, char *err,
		   size_t len)
{
	struct ent *e = NULL;
	char buf[4096];
	int r, nonzero = 0;
	size_t i;
	FILE *f;

	memset(t, 0, sizeof(*t));
	if (!path) {
		snprintf(buf, sizeof(buf), "%s/proc/kallsyms", host_root());
		path = buf;
	}
	f = fopen(path, "re");
	if (!f) {
		r = -errno;
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return r;
	}
	r = read_table(t, f, &e, &nonzero);
	fclose(f);
	if (!r && !t->n)
		r = -ENOENT;
	else if (!r && !nonzero)
		r = -EPERM;
	if (r) {
		snprintf(err, len, "%s: %s", path,
			 r == -EPERM ? "addresses hidden (kernel.kptr_restrict; not root?)" :
			 r == -ENOENT ? "no text symbols" : strerror(-r));
		free(e);
		prof_syms_free(t);
		return r;
	}
	qsort(e, t->n, sizeof(*e), ent_cmp);
	t->addr = malloc(t->n * sizeof(*t->addr));
	t->name = malloc(t->n * sizeof(*t->name));
	if (!t->addr || !t->name)
		abort();
	for (i = 0; i < t->n; i++) {
		t->addr[i] = e[i].addr;
		t->name[i] = e[i].name;
	}
	free(e);
	return 0;
}

long prof_syms_find(const struct prof_syms *t, uint64_t ip)
{
	size_t lo = 0, hi = t->n, mid;

	if (!t->n || ip < t->addr[0])
		return -1;
	/* the last symbol at or below ip */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (t->addr[mid] <= ip)
			lo = mid;
		else
			hi = mid;
	}
	if (lo == t->n - 1 && ip - t->addr[lo] > PROF_SYM_SPAN)
		return -1;
	return (long)lo;
}

const char *prof_syms_name(const struct prof_syms *t, long i)
{
	return i >= 0 && (size_t)i < t->n ? t->names + t->name[i] : "[unknown]";
}

void prof_syms_free(struct prof_syms *t)
{
	free(t->addr);
	free(t->name);
	free(t->names);
	memset(t, 0, sizeof(*t));
}

int prof_agg_init(struct prof_agg *a, const struct prof_syms *syms)
{
	memset(a, 0, sizeof(*a));
	a->syms = syms;
	a->count = calloc(syms->n ? syms->n : 1, sizeof(*a->count));
	a->fam = malloc(syms->n ? syms->n : 1);
	if (!a->count || !a->fam) {
		prof_agg_free(a);
		return -ENOMEM;
	}
	memset(a->fam, -1, syms->n ? syms->n : 1);
	return 0;
}

void prof_agg_reset(struct prof_agg *a)
{
	memset(a->count, 0, (a->syms->n ? a->syms->n : 1) * sizeof(*a->count));
	memset(a->self, 0, sizeof(a->self));
	a->user = a->unknown = a->total = a->lost = 0;
}

/* A symbol's family, classed once. */
static int sym_family(const struct prof_agg *a, long i)
{
	if (a->fam[i] < 0)
		a->fam[i] = (int8_t)prof_family_of(prof_syms_name(a->syms, i));
	return a->fam[i];
}

void prof_agg_add(struct prof_agg *a, uint64_t ip, int user, int self)
{
	long i;

	a->total++;
	if (user) {
		a->user++;
		a->self[PROF_USER] += !!self;
		return;
	}
	i = prof_syms_find(a->syms, ip);
	if (i < 0) {
		a->unknown++;
		a->self[PROF_OTHER] += !!self;
		return;
	}
	if (a->count[i] < UINT32_MAX)
		a->count[i]++;
	if (self)
		a->self[sym_family(a, i)]++;
}

/* Keep top[] sorted, largest first, at most PROF_TOP long. */
static void top_insert(struct prof_summary *s, const char *name, int fam,
		       double pct)
{
	int k;

	if (s->ntop == PROF_TOP) {
		if (s->top[PROF_TOP - 1].pct >= pct)
			return; /* ties: the first seen stays */
		k = PROF_TOP - 1;
	} else {
		k = s->ntop++;
	}
	while (k > 0 && s->top[k - 1].pct < pct) {
		s->top[k] = s->top[k - 1];
		k--;
	}
	snprintf(s->top[k].name, sizeof(s->top[k].name), "%s", name);
	s->top[k].family = fam;
	s->top[k].pct = pct;
}

void prof_agg_summary(const struct prof_agg *a, struct prof_summary *s)
{
	double tot = a->total ? (double)a->total : 1;
	const char *name;
	size_t i;
	int fam;

	memset(s->fam_pct, 0, sizeof(s->fam_pct));
	s->self_samples = 0;
	memset(s->top, 0, sizeof(s->top));
	s->ntop = 0;
	s->samples = a->total;
	s->lost = a->lost;
	for (i = 0; i < a->syms->n; i++) {
		if (!a->count[i])
			continue;
		name = prof_syms_name(a->syms, (long)i);
		fam = sym_family(a, (long)i);
		s->fam_pct[fam] += 100.0 * a->count[i] / tot;
		top_insert(s, name, fam, 100.0 * a->count[i] / tot);
	}
	if (a->user) {
		s->fam_pct[PROF_USER] += 100.0 * (double)a->user / tot;
		top_insert(s, "[user]", PROF_USER, 100.0 * (double)a->user / tot);
	}
	for (fam = 0; fam < PROF_NFAM; fam++) {
		s->self_samples += a->self[fam];
		s->self_pct[fam] = 100.0 * (double)a->self[fam] / tot;
	}
	if (a->unknown) {
		s->fam_pct[PROF_OTHER] += 100.0 * (double)a->unknown / tot;
		top_insert(s, "[unknown]", PROF_OTHER,
			   100.0 * (double)a->unknown / tot);
	}
}

void prof_agg_free(struct prof_agg *a)
{
	free(a->count);
	free(a->fam);
	memset(a, 0, sizeof(*a));
}
