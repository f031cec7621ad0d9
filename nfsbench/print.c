/*
 * print.c: nfsbench's plain-text output. One line per sample while the
 * run goes, a line per paired case with its perturbation, then the
 * seeds' tables: the table room's nfs-rsize layout (seed 001: client
 * and server tables, Kernel rsize wsize mbyte/sec CPU) and, with many
 * client counts, nfs-clients (seed 002: clients, MB/sec, server CPU,
 * client CPU) of this run's own document, the text `zcbreport table
 * --layout` prints of it (lib/table/lay_nfs.c): rates of the unmetered
 * runs, the soak CPU of the metered ones, a row whose perturbation is
 * outside 0.95-1.05 marked with a footnote.
 */
#include "config.h"
#include "layout.h"
#include "nfsbench.h"
#include "paired.h"
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
	/* with -J the document owns stdout, with --json-stream the stream */
	return (c->json_out && !strcmp(c->json_out, "-")) || c->cli.json_stream
		       ? stderr
		       : stdout;
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
			fprintf(f, "  %s\n",
				meter_pair_run(s->cpu.paired_by,
					       s->cpu.metered));
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
		if (res_read_perturbation(k, &r)) /* lib/doc/paired.c */
			continue;
		meter_perturbation_by(note, sizeof(note), res_case_paired_by(k),
				      &r);
		fprintf(out(c),
			"%-5s %7ld B x %ld client%s: perturbation: %s\n",
			c->op == NFSIO_WRITE ? "write" : "read",
			param(k, "iosize"), param(k, "clients"),
			param(k, "clients") == 1 ? " " : "s", note);
	}
}

void nb_print_tables(const struct cfg *c, struct res_doc *d)
{
	struct layout_opts o = {
		.out = out(c), .fmt = FMT_TEXT, .stat = ST_AUTO};
	json_t *doc = res_json(d);
	int rsize = c->nsizes > 1 || c->nclients == 1;
	char what[64];

	if (c->quiet || !json_array_size(json_object_get(doc, "cases")))
		return;
	if (strcmp(c->vers_label, "-"))
		snprintf(what, sizeof(what), "NFSv%s %s", c->vers_label,
			 c->proto);
	else
		snprintf(what, sizeof(what), "on %s, not NFS", c->fstype);
	fprintf(o.out, "\nNFS %s (%s, %s, qd %d):\n\n",
		c->op == NFSIO_WRITE ? "write" : "read",
		c->mode_libnfs ? "libnfs" : "mounted", what, c->qd);
	if (rsize)
		layout_print_doc("nfs-rsize", doc, &o);
	if (c->nclients > 1) {
		if (rsize)
			fputc('\n', o.out);
		layout_print_doc("nfs-clients", doc, &o);
	}
}
