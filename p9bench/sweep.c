/*
 * sweep.c: seed 000's experiment: for every repeat, every IO size, write
 * then read, each path in turn (ABBA across repeats, so drift cancels),
 * one sample each, bracketed by the CPU windows of lib/cpu/cpuwin: this box
 * (-c), the server's host (--remote-cpu, cyclesoak --serve) and a local
 * server process (--server-pid). With the soak meter on any side a
 * sample is a pair of runs, metered then unmetered (lib/cpu/meter.h).
 * Samples go to the result document and the table cells.
 */
#include "config.h"
#include "p9bench.h"
#include "clock.h"
#include "cpuwin.h"
#include "log.h"
#include "result.h"
#include "sig.h"
#include "stats.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void cpu_open(struct bench *b, struct res_doc *doc, struct cpuwin *w)
{
	const struct cfg *cfg = b->cfg;
	struct cpuwin_cfg cc = {
		.local = cfg->cli.cpu,
		.local_list = cfg->cli.cpu_list,
		.remote = cfg->remote_cpu,
		.server_pid = cfg->server_pid,
		.server_side = "server",
		.timeout_ms = (int)(cfg->timeout * 1000),
	};
	char err[1024];
	json_t *host;

	if (cpuwin_open(w, &cc, err, sizeof(err)))
		die("%s", err);
	host = cpuwin_peer(w);
	if (host) {
		char me[256] = "";
		const char *hn =
			json_string_value(json_object_get(host, "hostname"));

		gethostname(me, sizeof(me) - 1);
		b->same_box = hn && !strcmp(hn, me);
		res_set_peer(doc, host);
	}
	b->paired = cpuwin_paired(w);
	b->paired_by = cpuwin_paired_by(w);
}

/*
 * A side's figure for the table (its meter into name), or -1: soak when
 * the side has it (only a metered run has one), else the first usable
 * meter; in a paired case that one from the unmetered runs only, since a
 * metered run's procstat or process time describes a slowed run.
 */
static double side_pct(const struct cpu_sample *s, int n, int paired,
		       int metered, char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(s[i].meter, "soak") && (s[i].ok || s[i].paused)) {
			snprintf(name, 16, "%s", s[i].meter);
			return s[i].ok ? s[i].busy_pct : -1;
		}
	if (paired && metered)
		return -1;
	for (i = 0; i < n; i++)
		if (s[i].ok) {
			snprintf(name, 16, "%s", s[i].meter);
			return s[i].busy_pct;
		}
	return -1;
}

static uint64_t ops_for(const struct cfg *cfg, size_t size)
{
	if (cfg->duration)
		return UINT64_MAX;
	if (cfg->total)
		return cfg->total / size ? cfg->total / size : 1;
	return cfg->ops;
}

/* Into the cell: the rate of unmetered (or unpaired) runs, each side's
 * CPU as side_pct picks it, and the pair's two rates. */
static void add_to_cell(struct bench *b, struct cell *c, int pair, double mbps)
{
	const struct cpuwin_sample *cs = &b->s.cpu;
	const struct sample *s = &b->s;
	double pct;

	if (cs->metered) {
		c->pair_m[c->npairs] = mbps;
		c->have_m = 1;
	} else {
		if (cs->paired && c->have_m && pair == c->npairs) {
			c->pair_u[c->npairs++] = mbps;
			c->have_m = 0;
		}
		c->n++;
		c->bytes += s->bytes;
		c->secs += s->elapsed;
		c->ops += s->ops;
		if (c->n == 1 || mbps < c->mbps_min)
			c->mbps_min = mbps;
		if (c->n == 1 || mbps > c->mbps_max)
			c->mbps_max = mbps;
	}
	pct = side_pct(cs->local, cs->nlocal, cs->paired, cs->metered,
		       b->cpu_meter);
	if (pct >= 0) {
		c->cpu_sum += pct;
		c->cpu_n++;
	}
	pct = side_pct(cs->remote, cs->nremote, cs->paired, cs->metered,
		       b->remote_meter);
	if (pct >= 0) {
		c->remote_sum += pct;
		c->remote_n++;
	}
	if (cs->have_server && cs->server.ok && !cs->metered) {
		c->server_sum += cs->server.busy_pct;
		c->server_n++;
	}
}

static void record(struct bench *b, struct res_doc *doc, int op, int si,
		   int path, int pair, uint64_t copied)
{
	const struct cfg *cfg = b->cfg;
	const size_t size = cfg->sizes[si];
	const struct sample *s = &b->s;
	uint64_t ops = ops_for(cfg, size);
	double mbps = s->elapsed > 0 ? s->bytes / s->elapsed / 1e6 : 0;
	json_t *kase, *js;

	kase = res_case(
		doc,
		json_pack("{s:s, s:I, s:I, s:s, s:i, s:I, s:s}", "op",
			  op ? "read" : "write", "iosize", (json_int_t)size,
			  "total_bytes",
			  (json_int_t)(cfg->duration ? 0 : ops * size), "path",
			  b->bk->path_name[path], "qd", cfg->qd, "msize",
			  (json_int_t)(b->bk == &bk_9p ? b->c.msize : 0),
			  "mode", b->bk->mode));
	js = json_pack("{s:I, s:I, s:I, s:f, s:I}", "bytes",
		       (json_int_t)s->bytes, "ops", (json_int_t)s->ops, "msgs",
		       (json_int_t)s->msgs, "elapsed_s", s->elapsed,
		       "copied_bytes", (json_int_t)copied);
	if (cfg->verify && b->verify_ok && op)
		json_object_set_new(js, "verify_bad_bytes",
				    json_integer((json_int_t)b->verify_bad));
	res_sample_set(js, "throughput_MBps", mbps);
	res_sample_set(js, "ops_per_s",
		       s->elapsed > 0 ? s->ops / s->elapsed : 0);
	res_sample_set(js, "elapsed_s", s->elapsed);
	/* service demand: this run's CPU over this run's bytes */
	cpuwin_add(doc, js, &s->cpu, (double)s->bytes);
	if (s->cpu.nremote && b->same_box)
		json_object_set_new(js, "same_box", json_true());
	if (s->intervals)
		json_object_set(js, "intervals", s->intervals);
	if (s->cpu.paired)
		res_sample_pair(doc, js, pair, s->cpu.metered);
	res_sample(kase, js);
	add_to_cell(b, &b->cells[op][si][path], pair, mbps);
}

/* One run of a cell: rep is the pair when paired (lib/cpu/meter.h). */
static int sample(struct bench *b, struct res_doc *doc, struct cpuwin *w,
		  int op, int si, int path, int rep, int metered)
{
	const struct cfg *cfg = b->cfg;
	const size_t size = cfg->sizes[si];
	struct cell *c = &b->cells[op][si][path];
	uint64_t copied0 = b->c.copied;
	char phase[200], rate[32], err[1024], label[96];
	int r;

	if (sig_stop)
		return -EINTR;
	snprintf(phase, sizeof(phase), "%s of %zu bytes, %s path (repeat %d%s)",
		 op ? "read" : "write", size, b->bk->path_name[path], rep + 1,
		 !b->paired ? ""
		 : metered  ? ", metered run"
			    : ", unmetered run");
	b->phase = phase;
	if (b->paired && !c->pair_m) {
		c->pair_m = calloc((size_t)cfg->repeat, sizeof(double));
		c->pair_u = calloc((size_t)cfg->repeat, sizeof(double));
		if (!c->pair_m || !c->pair_u)
			die("out of memory");
	}
	/* park or wake the soakers of every measured box before the run */
	if (b->paired && cpuwin_metered(w, metered, err, sizeof(err)))
		die("%s: %s", phase, err);
	memset(&b->s, 0, sizeof(b->s));
	b->verify_bad = 0;
	snprintf(label, sizeof(label), "p9bench %s %zu %s", op ? "read" : "write",
		 size, b->bk->path_name[path]);
	if (ival_start(b->iv, rep, label, err, sizeof(err)))
		die("%s: %s", phase, err);
	if (cpuwin_start(w, err, sizeof(err)))
		die("%s: %s", phase, err);
	ival_watch(b->iv, &b->s.bytes);
	r = b->bk->run(b, !op, size, path, ops_for(cfg, size),
		       cfg->duration ? clock_now() + cfg->duration : 0);
	ival_watch(b->iv, NULL);
	if (cpuwin_stop(w, &b->s.cpu, err, sizeof(err)))
		die("%s: %s", phase, err);
	b->s.intervals = ival_stop(b->iv, b->s.bytes);
	if (!r)
		record(b, doc, op, si, path, rep, b->c.copied - copied0);
	json_decref(b->s.intervals);
	b->s.intervals = NULL;
	if (r)
		return r;
	log_verbose(
		"%-5s %7zu %-8s %12s  %10.0f ops/s  %.3f s%s%s",
		op ? "read" : "write", size, b->bk->path_name[path],
		table_rate(b->s.bytes / b->s.elapsed, rate, sizeof(rate)),
		b->s.ops / b->s.elapsed, b->s.elapsed, b->paired ? "  " : "",
		b->paired ? meter_pair_run(b->paired_by, metered) : "");
	if (b->verify_bad)
		die("%s: %s: %llu bytes read differ from p9bench's pattern (a file p9bench did not write?)",
		    phase, b->where, (unsigned long long)b->verify_bad);
	return 0;
}

/* -v: each paired cell's perturbation, as the document has it. */
static void print_perturbation(const struct bench *b)
{
	const struct cfg *cfg = b->cfg;
	struct stats_ratio r;
	char note[256];
	int op, si, p;

	for (op = 0; op < 2; op++)
		for (si = 0; si < cfg->nsizes; si++)
			for (p = 0; p < NPATHS; p++) {
				if (!table_perturbation(&b->cells[op][si][p],
							&r))
					continue;
				meter_perturbation_by(note, sizeof(note),
						      b->paired_by, &r);
				log_verbose("%-5s %7zu %-8s perturbation: %s",
					    op ? "read" : "write",
					    cfg->sizes[si], b->bk->path_name[p],
					    note);
			}
}

/* One sample of a cell: a run, or paired a metered then an unmetered run
 * (pair = the repeat). */
static int cell_sample(struct bench *b, struct res_doc *doc, struct cpuwin *w,
		       int op, int si, int path, int rep)
{
	int i, r = 0;

	for (i = 0; i < meter_runs(b->paired, 1) && !r; i++)
		r = sample(b, doc, w, op, si, path, rep,
			   meter_run_metered(b->paired, i));
	return r;
}

/*
 * The order runs go in: for each repeat, each size, write then read, each
 * path (copy then direct on even repeats, direct then copy on odd ones:
 * ABBA, so drift cancels between the paths). Paired, every such sample
 * is two runs back to back, metered then unmetered (pair = the repeat),
 * so within a cell the runs alternate MUMU... (ABAB) and each pair's two
 * runs are as close in time as they can be.
 */
int sweep_run(struct bench *b, struct res_doc *doc)
{
	const struct cfg *cfg = b->cfg;
	struct cpuwin w;
	char names[64];
	int rep, si, op, k, path, r = 0;

	memset(&w, 0, sizeof(w));
	res_metric(doc, "throughput_MBps", "MB/s", RES_HIGHER, 1);
	res_metric(doc, "ops_per_s", "ops/s", RES_HIGHER, 1);
	res_metric(doc, "elapsed_s", "s", RES_LOWER, 0);
	cpu_open(b, doc, &w);
	if (b->paired)
		log_verbose(
			"CPU meters: this box %s, server host %s; %s",
			w.have_local
				? cpuwin_local_names(&w, names, sizeof(names))
				: "-",
			w.remote_paired	  ? "soak"
			: cfg->remote_cpu ? "(its default)"
					  : "-",
			meter_pairs_words(cpuwin_paired_by(&w)));
	for (rep = 0; rep < cfg->repeat && !r; rep++)
		for (si = 0; si < cfg->nsizes && !r; si++)
			for (op = 0; op < 2 && !r; op++) {
				if (!(cfg->ops_mask &
				      (op ? OP_READ : OP_WRITE)))
					continue;
				for (k = 0; k < NPATHS && !r; k++) {
					path = rep % 2 ? NPATHS - 1 - k : k;
					if (cfg->paths & (1 << path))
						r = cell_sample(b, doc, &w, op,
								si, path, rep);
				}
			}
	cpuwin_close(&w);
	print_perturbation(b);
	return r;
}

void sweep_free(struct bench *b)
{
	int op, si, p;

	for (op = 0; op < 2; op++)
		for (si = 0; si < MAX_SIZES; si++)
			for (p = 0; p < NPATHS; p++) {
				free(b->cells[op][si][p].pair_m);
				free(b->cells[op][si][p].pair_u);
			}
}
