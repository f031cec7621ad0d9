/*
 * out.c: what zcc prints and records: the result document and its case,
 * the lines before the runs, each run's figures (local CPU, and the
 * server's when it reported) and its sample, and the closing summary.
 */
#include "config.h"
#include "zcc.h"
#include "series.h"

#include "pace.h"
#include "resrate.h"
#include "stats.h"
#include "units.h"

#include <string.h>
#include <unistd.h>

FILE *zcc_out;

struct res_doc *out_doc(const struct cfg *cfg, int argc, char **argv)
{
	struct res_doc *doc = cli_result_doc(&cfg->com, "zcc", argc, argv);

	zcc_out = cfg->com.json_stdout || cfg->com.json_stream ? stderr : stdout;
	res_metric(doc, "throughput_MBps", "MB/s", RES_HIGHER, 1);
	res_metric(doc, "elapsed_s", "s", RES_LOWER, 0);
	res_set(doc, "config",
		json_pack("{s:f, s:i, s:[ff]}", "omit_s", cfg->com.omit,
			  "reruns", cfg->com.reruns, "disturbance",
			  cfg->com.steal_max, cfg->com.outside_max));
	return doc;
}

void out_start(const struct cfg *cfg, const struct fileset *fs,
	       struct cpuwin *w, int paired)
{
	char names[256];

	fprintf(zcc_out,
		"zcc: %s to %s:%d, %d file%s (%llu bytes) x %u loops, %d connection%s\n",
		cfg->ops->name, cfg->server, cfg->port, fs->n,
		fs->n == 1 ? "" : "s", (unsigned long long)fs->bytes,
		cfg->loops, cfg->conns, cfg->conns == 1 ? "" : "s");
	if (cfg->com.cpu)
		fprintf(zcc_out, "zcc: CPU meters: %s%s%s\n",
			cpuwin_local_names(w, names, sizeof(names)),
			paired ? "; " : "",
			paired ? meter_pairs_words(cpuwin_paired_by(w)) : "");
}

json_t *out_case(struct res_doc *doc, const struct cfg *cfg,
		 const struct fileset *fs, const struct run_result *r)
{
	json_t *params = json_pack("{s:s, s:s, s:i, s:I, s:i}", "method",
				   cfg->ops->name, "recv_method",
				   r->rem.recv_method[0] ? r->rem.recv_method
							 : "unknown",
				   "files", fs->n, "bytes_per_loop",
				   (json_int_t)fs->bytes, "connections",
				   cfg->conns);
	char rate[32];
	json_t *kase;

	if (cfg->rate > 0) /* a paced case is never a saturated one */
		json_object_set_new(params, "rate",
				    json_string(units_fmt_rate(cfg->rate * 8,
							       rate,
							       sizeof(rate))));
	kase = res_case(doc, params);

	if (r->rem.host)
		res_set_peer(doc, json_incref(r->rem.host));
	return kase;
}

int out_same_box(json_t *peer_host)
{
	char me[256] = "";
	const char *them =
		json_string_value(json_object_get(peer_host, "hostname"));

	gethostname(me, sizeof(me) - 1);
	return them && !strcmp(them, me);
}

static double run_rate(const struct run_result *r)
{
	return r->elapsed_s > 0 ? (double)r->payload / r->elapsed_s : 0;
}

/* --rate: the target and what the run achieved. */
static void rate_line(const struct cfg *cfg, const struct run_result *r)
{
	double got = run_rate(r);
	char b[32];

	fprintf(zcc_out, "  rate: target %s (%.1f MB/s, paced by the kernel: SO_MAX_PACING_RATE), achieved %.1f MB/s (%+.1f%%)%s\n",
		units_fmt_rate(cfg->rate * 8, b, sizeof(b)), cfg->rate / 1e6,
		got / 1e6, pace_off_pct(got, cfg->rate),
		pace_missed(got, cfg->rate)
			? ": MISSED the target by more than 5%, these figures are not the target rate's"
			: "");
}

void out_run(const struct cfg *cfg, int k, int nruns,
	     const struct run_result *r, const struct cpuwin_sample *cs,
	     int pair, const char *by)
{
	if (cs->paired) /* the kind of run, before its figures */
		fprintf(zcc_out, "pair %d, %s\n", pair + 1,
			meter_pair_run(by, cs->metered));
	fprintf(zcc_out,
		"run %d/%d: %.1f MB/s  %llu bytes in %.3f s (%llu header bytes, %d connection%s)\n",
		k + 1, nruns,
		r->elapsed_s > 0 ? (double)r->payload / r->elapsed_s / 1e6 : 0,
		(unsigned long long)r->payload, r->elapsed_s,
		(unsigned long long)r->header, cfg->conns,
		cfg->conns == 1 ? "" : "s");
	if (cfg->rate > 0)
		rate_line(cfg, r);
	if (cs->nlocal)
		meter_print(zcc_out, "local", cs->local, cs->nlocal,
			    (double)r->payload);
	if (r->rem.n) {
		meter_print(zcc_out, "remote", r->rem.cpu, r->rem.n,
			    (double)r->payload);
		if (out_same_box(r->rem.host))
			fprintf(zcc_out,
				"  (same box: local and remote are the same CPUs)\n");
	} else if (cfg->remote && !r->rem.cpu_granted) {
		fprintf(zcc_out,
			"  cpu remote unavailable: the server does not measure CPU (start zcs with -c)\n");
	}
}

/* One run's sample; CPU and bytes of the same run (service demand). */
json_t *out_sample(struct res_doc *doc, const struct cfg *cfg,
		   const struct run_result *r, const struct cpuwin_sample *cs,
		   int pair)
{
	json_t *s = json_pack("{s:I, s:I, s:f, s:i, s:I}", "bytes",
			      (json_int_t)r->payload, "header_bytes",
			      (json_int_t)r->header, "elapsed_s", r->elapsed_s,
			      "connections", cfg->conns, "calls",
			      (json_int_t)r->calls);

	res_sample_set(
		s, "throughput_MBps",
		r->elapsed_s > 0 ? (double)r->payload / r->elapsed_s / 1e6 : 0);
	res_sample_set(s, "elapsed_s", r->elapsed_s);
	cpuwin_add(doc, s, cs, (double)r->payload);
	if (r->rem.n) {
		meter_add_metrics(doc, s, "remote", r->rem.cpu, r->rem.n,
				  (double)r->payload, cs->metered);
		meter_add_raw(s, "remote", r->rem.cpu, r->rem.n);
		json_object_set_new(s, "same_box",
				    json_boolean(out_same_box(r->rem.host)));
		json_object_set_new(s, "server_payload_bytes",
				    json_integer((json_int_t)r->rem.payload));
		json_object_set_new(s, "server_window_s",
				    json_real(r->rem.window_s));
	}
	res_sample_omitted(s, r->omit_s, "bytes", r->omit_payload);
	if (r->counters)
		json_object_set(s, "counters", r->counters);
	if (cfg->rate > 0) {
		json_object_set_new(s, "rate", res_rate_json(cfg->rate,
							     run_rate(r),
							     "kernel"));
		if (pace_missed(run_rate(r), cfg->rate))
			res_warn(doc, "a run missed its target rate %.1f MB/s by more than 5%% (achieved %.1f MB/s)",
				 cfg->rate / 1e6, run_rate(r) / 1e6);
	}
	if (r->intervals)
		json_object_set(s, "intervals", r->intervals);
	if (cs->paired) /* last: renames this run's own figures */
		res_sample_pair(doc, s, pair, cs->metered);
	return s;
}

/* The closing lines: with pairs (paired: the meter they are for, NULL
 * for none) what that meter did to the rate, then the one-line summary
 * every tool ends with. */
void out_summary(const struct cfg *cfg, const struct series *ser,
		 const char *paired)
{
	const double *x;
	double lo, hi;
	char note[256];
	int i, n;

	x = series_results(ser, 0, &n);
	lo = hi = n ? x[0] : 0;
	for (i = 1; i < n; i++) {
		lo = x[i] < lo ? x[i] : lo;
		hi = x[i] > hi ? x[i] : hi;
	}
	if (paired && *series_perturbation_note(ser, 0, note, sizeof(note)))
		fprintf(zcc_out, "zcc: perturbation: %s\n", note);
	fprintf(zcc_out,
		"zcc: %d %srun%s of %s to %s:%d: %.1f MB/s median (min %.1f, max %.1f)%s%s%s\n",
		n, paired ? "unmetered " : "", n == 1 ? "" : "s",
		cfg->ops->name, cfg->server, cfg->port,
		n ? series_median(ser, 0) : 0, lo, hi, paired ? "; " : "",
		paired ? meter_words_of(paired)->from : "",
		paired ? " from the metered runs" : "");
}

/*
 * Paired runs with an older zcs (it did not take the run's kind): its
 * side runs unpaired, and its soakers slowed an unmetered run if they
 * ran in it.
 */
void out_server_pairing(struct res_doc *doc, const struct cfg *cfg, int k,
			const struct run_result *r,
			const struct cpuwin_sample *cs, int *told)
{
	static const struct meter_old_server w = {"zcc", "zcs", "zcs"};

	if (!cs->paired || !cfg->remote || r->rem.run_granted)
		return;
	meter_old_server(zcc_out, doc, &w, cs->metered, r->rem.cpu, r->rem.n,
			 k + 1, told);
}
