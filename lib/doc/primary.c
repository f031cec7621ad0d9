/*
 * primary.c: each tool's primary metrics, as data (primary.h). A pattern's
 * '*' stands for one word of letters and digits (a side: local, remote,
 * box, server; a unit: MB, msgs, trans), never an underscore, so
 * sd_*_us_per_kb is the primary meter's service demand and not
 * sd_local_procstat_us_per_kb. To judge a tool on another figure, add it
 * to the tool's line and to man/zcbreport.1.
 */
#include "config.h"
#include "meter.h"
#include "primary.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define PRIMARY_MAX 10 /* patterns of one tool */

struct primary {
	const char *tool;
	const char *pat[PRIMARY_MAX]; /* NULL-terminated */
};

/* The rate, the CPU-normalised rate (*_per_cpu_s_*: MB, msgs, trans per
 * CPU-second), the CPU per unit of work of the side's primary meter,
 * p99 for request/response, the copy share when profiled. cyclesoak's
 * documents describe the meters, not the kernel: context only. */
static const struct primary primaries[] = {
	{"ttcp-sf",
	 {"throughput_MBps", "trans_per_s", "*_per_cpu_s_*", "sd_*_us_per_kb",
	  "sd_*_us_per_tx", "lat_p99_us", "prof_*_copy_pct", NULL}},
	{"zcc",
	 {"throughput_MBps", "*_per_cpu_s_*", "sd_*_us_per_kb", "prof_*_copy_pct",
	  NULL}},
	{"zcs", {"throughput_MBps", "*_per_cpu_s_*", "sd_*_us_per_kb", NULL}},
	{"chatbench", {"msgs_per_s", "*_per_cpu_s_*", NULL}},
	{"nfsbench",
	 {"throughput_MBps", "*_per_cpu_s_*", "sd_*_us_per_kb", NULL}},
	{"p9bench", {"throughput_MBps", "*_per_cpu_s_*", "sd_*_us_per_kb", NULL}},
	{"cyclesoak", {NULL}},
};
#define NPRIMARY (sizeof(primaries) / sizeof(primaries[0]))

static const struct primary *primary_of(const char *tool)
{
	size_t i;

	for (i = 0; tool && i < NPRIMARY; i++)
		if (!strcmp(primaries[i].tool, tool))
			return &primaries[i];
	return NULL;
}

/* Whether s matches pattern p: '*' is one word of [A-Za-z0-9]. */
static int match(const char *p, const char *s)
{
	for (; *p; p++) {
		if (*p != '*') {
			if (*s++ != *p)
				return 0;
			continue;
		}
		if (!isalnum((unsigned char)*s))
			return 0;
		while (isalnum((unsigned char)*s))
			s++;
	}
	return !*s;
}

int res_metric_primary(const char *tool, const char *metric)
{
	const struct primary *t = primary_of(tool);
	size_t i;

	if (!t)
		return 1;
	for (i = 0; t->pat[i]; i++)
		if (match(t->pat[i], metric))
			return 1;
	return 0;
}

/* The word "remote" after the first made "local": on one box both ends'
 * figures may be the box's, the same numbers (the samples decide). */
static const char *local_of(const char *metric, char *buf, size_t len)
{
	const char *w = strchr(metric, '_');

	for (; w; w = strchr(w + 1, '_'))
		if (!strncmp(w, "_remote", 7) && (!w[7] || w[7] == '_')) {
			snprintf(buf, len, "%.*s_local%s", (int)(w - metric),
				 metric, w + 7);
			return buf;
		}
	return NULL;
}

/* The service demand of a side and its CPU-normalised rate are one
 * figure: sd_S_us_per_kb = 1024 / MB_per_cpu_s_S (CPU-us per KiB against
 * 10^6 bytes per CPU-second: lib/cpu/meter.c), sd_S_us_per_tx = 10^6 /
 * trans_per_cpu_s_S; metered_ either way. */
static const struct recip {
	const char *tail, *to; /* sd_S<tail> is <to>S's reciprocal */
	double k;	       /* their product */
} recips[] = {
	{"_us_per_kb", "MB_per_cpu_s_", 1024},
	{"_us_per_tx", "trans_per_cpu_s_", 1e6},
};

/* The recips row metric is the service demand of, its side into *side
 * and the length of that side's word into *n; NULL when none. */
static const struct recip *recip_of(const char *metric, const char **side,
				    size_t *n)
{
	const char *m = metric, *e;
	size_t i;

	if (!strncmp(m, "metered_", 8))
		m += 8;
	if (strncmp(m, "sd_", 3))
		return NULL;
	m += 3;
	for (e = m; isalnum((unsigned char)*e); e++)
		;
	for (i = 0; e > m && i < sizeof(recips) / sizeof(recips[0]); i++) {
		if (!strcmp(e, recips[i].tail)) {
			*side = m;
			*n = (size_t)(e - m);
			return &recips[i];
		}
	}
	return NULL;
}

double res_metric_alias_k(const char *metric)
{
	const struct recip *r;
	const char *side;
	size_t n;
	char b[256];

	if (res_metric_meter_cut(metric, b, sizeof(b)))
		return 0; /* the meter's copy: the same number */
	r = recip_of(metric, &side, &n);
	return r ? r->k : 0;
}

const char *res_metric_alias_of(const char *metric, char *buf, size_t len)
{
	const struct recip *r;
	const char *side;
	size_t n;

	if (res_metric_meter_cut(metric, buf, len))
		return buf;
	r = recip_of(metric, &side, &n);
	if (r) {
		snprintf(buf, len, "%s%s%.*s",
			 strncmp(metric, "metered_", 8) ? "" : "metered_", r->to,
			 (int)n, side);
		return buf;
	}
	return local_of(metric, buf, len);
}

const char *res_metric_meter_cut(const char *metric, char *buf, size_t len)
{
	const char *w = strchr(metric, '_'), *e;
	char word[32];

	/* a word after the first that names a meter: cut it out */
	while (w) {
		w++;
		e = strchr(w, '_');
		if (!e)
			break;
		if ((size_t)(e - w) < sizeof(word)) {
			snprintf(word, sizeof(word), "%.*s", (int)(e - w), w);
			if (meter_index(word) >= 0) {
				snprintf(buf, len, "%.*s%s", (int)(w - metric),
					 metric, e + 1);
				return buf;
			}
		}
		w = e;
	}
	return NULL;
}

const char *res_primary_words(const char *tool, char *buf, size_t len)
{
	const struct primary *t = primary_of(tool);
	size_t i;

	if (!t)
		return NULL;
	buf[0] = 0;
	for (i = 0; t->pat[i]; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 i ? ", " : "", t->pat[i]);
	if (!i)
		snprintf(buf, len, "none (context only)");
	return buf;
}
