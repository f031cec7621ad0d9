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
#include "series.h"
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
 * A side's figure for the table (its meter into name), or -1: the
 * side's primary meter's (meter_primary: soak when the side has it, and
 * only a metered run has one), else the first usable meter; in a paired
 * case that one from the unmetered runs only, since a metered run's
 * procstat or process time describes a slowed run.
 */
static double side_pct(const struct cpu_sample *s, int n, int paired,
		       int metered, char *name)
{
	int i = meter_primary(s, n);

	if (i < 0 || (paired && metered && !meter_is_primary(&s[i])))
		return -1;
	snprintf(name, 16, "%s", s[i].meter);
	return s[i].busy_pct;
}

static uint64_t ops_for(const struct cfg *cfg, size_t size)
{
	if (cfg->duration)
		return UINT64_MAX;
	if (cfg->total)
		return cfg->total / size ? cfg->total / size : 1;
	return cfg->ops;
}

/* Into the cell: the rate of unmetered (or unpaired) runs and each
 * side's CPU as side_pct picks it (the pairs' rates are the series'). */
static void add_to_cell(struct bench *b, struct cell *c, double mbps)
{
	const struct cpuwin_sample *cs = &b->s.cpu;
	const struct sample *s = &b->s;
	double pct;

	if (!cs->metered) {
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

/* What a run of the series came to: its marks in the document. */
struct judged {
	const struct series *ser;
	const struct series_run *r;
	int outcome;		/* SERIES_OK or SERIES_DISTURBED */
};

static void record(struct bench *b, struct res_doc *doc, int op, int si,
		   int path, int pair, uint64_t copied, const struct judged *j)
{
	const struct cfg *cfg = b->cfg;
	const size_t size = cfg->sizes[si];
	const struct sample *s = &b->s;
	uint64_t ops = ops_for(cfg, size);
	double mbps = s->elapsed > 0 ? s->bytes / s->elapsed / 1e6 : 0;
	json_t *kase, *js, *o;

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
	o = res_sample_omitted(js, s->omit_s, "bytes", s->omit_bytes);
	if (o) {
		json_object_set_new(o, "ops",
				    json_integer((json_int_t)s->omit_ops));
		json_object_set_new(o, "msgs",
				    json_integer((json_int_t)s->omit_msgs));
	}
	series_quiet_doc(j->ser, j->r, &s->cpu.quiet, j->outcome, js);
	if (s->cpu.paired)
		res_sample_pair(doc, js, pair, s->cpu.metered);
	res_sample(kase, js);
	/* one made again is no result */
	if (j->outcome != SERIES_DISTURBED || j->r->reruns_left <= 0)
		add_to_cell(b, &b->cells[op][si][path], mbps);
}

/* --omit: the measured part of a run begins (bench_omit_check). */
static void omit_begin(struct bench *b)
{
	char err[1024];

	if (cpuwin_start(b->w, err, sizeof(err)))
		die("%s: %s", b->phase, err);
}

/* One run of a cell: rep is the pair when paired (lib/cpu/meter.h);
 * j->outcome gets whether the box was quiet (series_quiet). */
static int sample(struct bench *b, struct res_doc *doc, struct cpuwin *w,
		  int op, int si, int path, int rep, int metered,
		  struct judged *j)
{
	const struct cfg *cfg = b->cfg;
	const size_t size = cfg->sizes[si];
	const double omit = cfg->cli.omit;
	uint64_t copied0 = b->c.copied;
	char phase[200], rate[32], err[1024], label[96], why[300];
	double t0;
	int r;

	if (sig_stop)
		return -EINTR;
	snprintf(phase, sizeof(phase), "%s of %zu bytes, %s path (repeat %d%s)",
		 op ? "read" : "write", size, b->bk->path_name[path], rep + 1,
		 !b->paired ? ""
		 : metered  ? ", metered run"
			    : ", unmetered run");
	b->phase = phase;
	/* park or wake the soakers of every measured box before the run */
	if (b->paired && cpuwin_metered(w, metered, err, sizeof(err)))
		die("%s: %s", phase, err);
	memset(&b->s, 0, sizeof(b->s));
	b->verify_bad = 0;
	snprintf(label, sizeof(label), "p9bench %s %zu %s", op ? "read" : "write",
		 size, b->bk->path_name[path]);
	if (ival_start(b->iv, rep, label, err, sizeof(err)))
		die("%s: %s", phase, err);
	b->w = w;
	b->omit_begin = omit_begin;
	t0 = clock_now();
	b->omit_until = omit > 0 ? t0 + omit : 0;
	if (!b->omit_until)
		omit_begin(b);
	ival_watch(b->iv, &b->s.bytes);
	/* with --omit a duration runs after T */
	r = b->bk->run(b, !op, size, path, ops_for(cfg, size),
		       cfg->duration ? t0 + omit + cfg->duration : 0);
	ival_watch(b->iv, NULL);
	if (b->omit_until) { /* it ended before T: the window never opened */
		omit_begin(b);
		if (!r)
			die("%s: --omit %g s: the sample ended after %.3f s, before its measured part began (more --ops or --total, or a shorter --omit)",
			    phase, omit, clock_now() - t0);
	}
	if (cpuwin_stop(w, &b->s.cpu, err, sizeof(err)))
		die("%s: %s", phase, err);
	b->s.intervals = ival_stop(b->iv, b->s.bytes);
	bench_omit_end(b, size);
	j->outcome = series_quiet(j->ser, j->r, &b->s.cpu.quiet, why,
				  sizeof(why));
	if (j->outcome == SERIES_DISTURBED)
		log_verbose("%s disturbed: %s", phase, why);
	if (!r)
		record(b, doc, op, si, path, rep, b->c.copied - copied0, j);
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

/* The cells of the sweep in the order of an even repeat: for each size,
 * write then read, each path; a size's op's paths are a group, made
 * backwards on odd repeats (ABBA, so drift cancels between the paths). */
struct sweep {
	struct bench *b;
	struct res_doc *doc;
	struct cpuwin *w;
	struct series *ser;
	int n;
	struct {
		int op, si, path;
		int g0, glen; /* its group */
	} cell[2 * MAX_SIZES * NPATHS];
	int r;		/* what failed the run: sample()'s return */
};

static void sweep_cells(struct sweep *sw)
{
	const struct cfg *cfg = sw->b->cfg;
	int si, op, path, g0;

	for (si = 0; si < cfg->nsizes; si++)
		for (op = 0; op < 2; op++) {
			if (!(cfg->ops_mask & (op ? OP_READ : OP_WRITE)))
				continue;
			g0 = sw->n;
			for (path = 0; path < NPATHS; path++) {
				if (!(cfg->paths & (1 << path)))
					continue;
				sw->cell[sw->n].op = op;
				sw->cell[sw->n].si = si;
				sw->cell[sw->n].path = path;
				sw->cell[sw->n++].g0 = g0;
			}
			for (path = g0; path < sw->n; path++)
				sw->cell[path].glen = sw->n - g0;
		}
}

static int sweep_order(void *ctx, int rep, int k)
{
	struct sweep *sw = ctx;
	int g0 = sw->cell[k].g0;

	return rep % 2 ? g0 + sw->cell[k].glen - 1 - (k - g0) : k;
}

/* Run r: one run of its cell (rep is the pair when paired). */
static int sweep_one(void *ctx, const struct series_run *r, double *mbps,
		     char *err, size_t len)
{
	struct sweep *sw = ctx;
	const struct sample *s = &sw->b->s;
	struct judged j = {.ser = sw->ser, .r = r};

	sw->r = sample(sw->b, sw->doc, sw->w, sw->cell[r->cell].op,
		       sw->cell[r->cell].si, sw->cell[r->cell].path, r->rep,
		       r->metered, &j);
	if (sw->r) {
		snprintf(err, len, "%s", strerror(-sw->r));
		return SERIES_FAILED;
	}
	*mbps = s->elapsed > 0 ? s->bytes / s->elapsed / 1e6 : 0;
	return j.outcome;
}

static const struct series_ops sweep_runs = {
	.run = sweep_one,
	.order = sweep_order,
};

/* -v: each paired cell's perturbation, from the series. */
static void print_perturbation(const struct sweep *sw,
			       const struct series *ser)
{
	const struct bench *b = sw->b;
	char note[256];
	int k;

	for (k = 0; k < sw->n; k++) {
		if (!*series_perturbation_note(ser, k, note, sizeof(note)))
			continue;
		log_verbose("%-5s %7zu %-8s perturbation: %s",
			    sw->cell[k].op ? "read" : "write",
			    b->cfg->sizes[sw->cell[k].si],
			    b->bk->path_name[sw->cell[k].path], note);
	}
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
	struct sweep *sw = calloc(1, sizeof(*sw));
	struct series ser;
	struct cpuwin w;
	char names[64], err[256];
	int r;

	if (!sw)
		abort();
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
	*sw = (struct sweep){.b = b, .doc = doc, .w = &w};
	sweep_cells(sw);
	r = 0;
	if (sw->n) {
		struct series_cfg sc = {
			.ncells = sw->n,
			.paired = b->paired,
			.paired_by = b->paired_by,
		};

		series_cfg_cli(&sc, &cfg->cli);
		if (series_open(&ser, &sc, err, sizeof(err)))
			die("%s", err);
		sw->ser = &ser;
		series_run(&ser, &sweep_runs, sw, err, sizeof(err));
		r = sw->r;
		print_perturbation(sw, &ser);
		series_close(&ser);
	}
	cpuwin_close(&w);
	free(sw);
	return r;
}
