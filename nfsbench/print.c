/*
 * print.c: nfsbench's plain-text output. One line per sample while the
 * run goes, then the seeds' tables from the document's summaries:
 * seed 001's client and server tables (Kernel rsize wsize mbyte/sec CPU,
 * the label in the first column) and seed 002's (clients, aggregate
 * throughput, server CPU). mbyte/sec is 10^6 bytes per second, the MB/s
 * the document stores, so zcbreport's nfs-rsize layout prints the same
 * figure (the seed does not say which mbyte it meant). Paired runs (the
 * soak meter): the tables print the unmetered runs' rates and the soak
 * CPU of the metered runs (the document's summaries hold exactly those),
 * and a row whose perturbation is outside 0.95-1.05 gets a "*" and a
 * footnote under its table; the seed's columns stay as they are.
 */
#include "config.h"
#include "nfsbench.h"
#include "log.h"
#include "result.h"
#include "stats.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MBYTE 1e6 /* mbyte/sec = the stored MB/s */

static FILE *out(const struct cfg *c)
{
	/* with -J the document owns stdout */
	return c->json_out && !strcmp(c->json_out, "-") ? stderr : stdout;
}

static void cpu_brief(FILE *f, const char *side, const struct cpu_sample *s,
		      int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (s[i].ok) {
			fprintf(f, "  %s %s %.1f%%", side, s[i].meter,
				s[i].busy_pct);
			return;
		}
	if (n)
		fprintf(f, "  %s cpu unavailable", side);
}

void nb_print_sample(const struct cfg *c, const struct nb_sample *s, int rep)
{
	FILE *f = out(c);
	double mbps = s->elapsed_s > 0 ? s->bytes / s->elapsed_s / 1e6 : 0;

	if (c->quiet)
		return;
	fprintf(f,
		"%-5s %7zu B x %d client%s #%d%-*s: %9.1f MB/s  %llu bytes in %.3f s, %llu ops, %llu short",
		c->op == NFSIO_WRITE ? "write" : "read", s->reqsize, s->clients,
		s->clients == 1 ? " " : "s", rep + 1, s->cpu.paired ? 10 : 0,
		!s->cpu.paired	 ? ""
		: s->cpu.metered ? " metered"
				 : " unmetered",
		mbps, (unsigned long long)s->bytes, s->elapsed_s,
		(unsigned long long)s->ops, (unsigned long long)s->short_ops);
	if (s->verified)
		fprintf(f, ", %llu verified", (unsigned long long)s->verified);
	cpu_brief(f, "client", s->cpu.local, s->cpu.nlocal);
	cpu_brief(f, "server", s->cpu.remote, s->cpu.nremote);
	fputc('\n', f);
	if (log_level >= LOG_VERBOSE) {
		if (s->cpu.paired)
			fputs(s->cpu.metered
				      ? "  metered run: soakers on (its soak CPU is the figure; its rate is not the result)\n"
				      : "  unmetered run: soakers parked (this rate is the result)\n",
			      f);
		meter_print(f, "client", s->cpu.local, s->cpu.nlocal,
			    (double)s->bytes);
		meter_print(f, "server", s->cpu.remote, s->cpu.nremote,
			    (double)s->bytes);
	}
}

static long param(json_t *kase, const char *name)
{
	json_t *v = json_object_get(json_object_get(kase, "params"), name);

	return json_is_integer(v) ? (long)json_integer_value(v) : 0;
}

/* The case's perturbation from the document (res_summarize): 1 and r
 * filled when it has one. */
static int perturbation(json_t *kase, struct stats_ratio *r)
{
	json_t *p = json_object_get(kase, "perturbation");
	json_t *ci = json_object_get(p, "ci95");
	json_t *lo = json_array_get(ci, 0), *hi = json_array_get(ci, 1);

	if (!json_is_number(json_object_get(p, "ratio")))
		return 0;
	memset(r, 0, sizeof(*r));
	r->ratio = json_number_value(json_object_get(p, "ratio"));
	r->n = (size_t)json_integer_value(json_object_get(p, "pairs"));
	r->lo = json_is_number(lo) ? json_number_value(lo) : NAN;
	r->hi = json_is_number(hi) ? json_number_value(hi) : NAN;
	return 1;
}

static int marked(json_t *kase)
{
	struct stats_ratio r;

	return perturbation(kase, &r) && meter_perturbed(r.ratio);
}

void nb_print_perturbation(const struct cfg *c, struct res_doc *d)
{
	json_t *cases = json_object_get(res_json(d), "cases"), *k;
	struct stats_ratio r;
	char note[256];
	size_t i;

	if (c->quiet)
		return;
	res_summarize(d);
	json_array_foreach(cases, i, k)
	{
		if (!perturbation(k, &r))
			continue;
		meter_perturbation_note(note, sizeof(note), &r);
		fprintf(out(c),
			"%-5s %7ld B x %ld client%s: perturbation: %s\n",
			c->op == NFSIO_WRITE ? "write" : "read",
			param(k, "iosize"), param(k, "clients"),
			param(k, "clients") == 1 ? " " : "s", note);
	}
}

static double mean_of(json_t *kase, const char *metric)
{
	json_t *v = json_object_get(
		json_object_get(json_object_get(kase, "summary"), metric),
		"mean");

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static double sd_of(json_t *kase, const char *metric)
{
	json_t *v = json_object_get(
		json_object_get(json_object_get(kase, "summary"), metric),
		"stddev");

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static long n_of(json_t *kase, const char *metric)
{
	json_t *v = json_object_get(
		json_object_get(json_object_get(kase, "summary"), metric), "n");

	return json_is_integer(v) ? (long)json_integer_value(v) : 0;
}

/*
 * Under a table: which runs its figures come from (paired), and a
 * footnote per marked row. Rows are the cases of one client count
 * (seed 001: keyed by rsize; size < 0) or of one request size (seed 002:
 * keyed by clients; clients < 0).
 */
static int in_table(json_t *k, long size, long clients)
{
	if (clients >= 0)
		return param(k, "clients") == clients;
	return param(k, "rsize") == size || param(k, "wsize") == size;
}

static void footnotes(FILE *f, json_t *cases, long size, long clients)
{
	struct stats_ratio r;
	char note[256];
	json_t *k;
	size_t i;
	int any = 0;

	json_array_foreach(cases, i, k)
	{
		if (!in_table(k, size, clients))
			continue;
		if (!any && json_object_get(k, "perturbation")) {
			fputs("(paired runs: rates and other CPU from the unmetered runs, soak CPU from the metered runs)\n",
			      f);
			any = 1;
		}
		if (!perturbation(k, &r) || !meter_perturbed(r.ratio))
			continue;
		meter_perturbation_note(note, sizeof(note), &r);
		if (clients >= 0)
			fprintf(f, "* rsize %ld: %s\n", param(k, "rsize"),
				note);
		else
			fprintf(f, "* %ld client%s: %s\n", param(k, "clients"),
				param(k, "clients") == 1 ? "" : "s", note);
	}
}

static void pct(FILE *f, double v)
{
	if (isnan(v))
		fprintf(f, " %6s", "-");
	else
		fprintf(f, " %5.1f%%", v);
}

/* Seed 001: Kernel rsize wsize mbyte/sec CPU. */
static void table_001(FILE *f, json_t *cases, const char *label,
		      const char *title, const char *metric, int clients)
{
	json_t *k;
	size_t i;
	double sd;

	fprintf(f, "\n%s\n", title);
	for (i = 0; i < strlen(title); i++)
		fputc('=', f);
	fprintf(f, "\n%-24s %7s %7s %9s %6s\n", "Kernel", "rsize", "wsize",
		"mbyte/sec", "CPU");
	json_array_foreach(cases, i, k)
	{
		if (param(k, "clients") != clients)
			continue;
		fprintf(f, "%-24s %7ld %7ld %9.1f", label, param(k, "rsize"),
			param(k, "wsize"),
			mean_of(k, "throughput_MBps") * 1e6 / MBYTE);
		pct(f, mean_of(k, metric));
		sd = sd_of(k, "throughput_MBps");
		if (marked(k))
			fputc('*', f);
		if (!isnan(sd) && n_of(k, "throughput_MBps") > 1)
			fprintf(f, "%s(+- %.1f, n=%ld)",
				marked(k) ? "  " : "   ", sd * 1e6 / MBYTE,
				n_of(k, "throughput_MBps"));
		fputc('\n', f);
	}
	footnotes(f, cases, -1, clients);
}

/* Seed 002: clients, aggregate throughput, server CPU. */
static void table_002(FILE *f, json_t *cases, const char *label, long size,
		      const char *op)
{
	json_t *k;
	size_t i;

	fprintf(f, "\nNFS %s, many clients (%s, request size %ld)\n", op, label,
		size);
	fprintf(f, "%8s %9s %11s %11s\n", "clients", "MB/s", "server CPU",
		"client CPU");
	json_array_foreach(cases, i, k)
	{
		double v = mean_of(k, "throughput_MBps");

		if (param(k, "rsize") != size && param(k, "wsize") != size)
			continue;
		fprintf(f, "%8ld %9.1f", param(k, "clients"), v);
		fprintf(f, "    ");
		pct(f, mean_of(k, "cpu_remote_pct"));
		fprintf(f, "     ");
		pct(f, mean_of(k, "cpu_local_pct"));
		if (marked(k))
			fputc('*', f);
		fputc('\n', f);
	}
	footnotes(f, cases, size, -1);
}

void nb_print_tables(const struct cfg *c, struct res_doc *d)
{
	json_t *doc = res_json(d), *cases = json_object_get(doc, "cases");
	const char *label = res_label(d);
	FILE *f = out(c);
	char title[192], what[64];
	int i, side;

	if (c->quiet || !json_array_size(cases))
		return;
	res_summarize(d);
	if (strcmp(c->vers_label, "-"))
		snprintf(what, sizeof(what), "NFSv%s %s", c->vers_label,
			 c->proto);
	else
		snprintf(what, sizeof(what), "on %s, not NFS", c->fstype);
	for (i = 0; i < c->nclients && (c->nsizes > 1 || c->nclients == 1);
	     i++) {
		for (side = 0; side < 2; side++) {
			snprintf(
				title, sizeof(title),
				"NFS %s results (%s, %s, %s, %d client%s, qd %d)",
				side ? "server" : "client",
				c->mode_libnfs ? "libnfs" : "mounted",
				c->op == NFSIO_WRITE ? "write" : "read", what,
				c->clients[i], c->clients[i] == 1 ? "" : "s",
				c->qd);
			table_001(f, cases, label, title,
				  side ? "cpu_remote_pct" : "cpu_local_pct",
				  c->clients[i]);
		}
	}
	if (c->nclients > 1)
		for (i = 0; i < c->nsizes; i++)
			table_002(f, cases, label, (long)c->sizes[i],
				  c->op == NFSIO_WRITE ? "write" : "read");
}
