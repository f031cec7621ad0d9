/*
 * run.c: what chatbench does once its options are parsed: serve run
 * after run (--server), or be the client side: runs repeated (in pairs,
 * metered and unmetered, with the soak meter) until --repeat, a failure
 * or --confidence, each printed and put in the document, then the seed's
 * table and a summary.
 */
#include "config.h"
#include "bench.h"
#include "clock.h"
#include "log.h"
#include "series.h"
#include "sig.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* 1000 connections need 2000 descriptors with the server in-process. */
static void raise_nofile(rlim_t need)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r))
		return;
	if (!need) { /* a server: as many as allowed */
		r.rlim_cur = r.rlim_max;
		setrlimit(RLIMIT_NOFILE, &r);
		return;
	}
	if (r.rlim_cur >= need)
		return;
	r.rlim_cur = need;
	if (r.rlim_max < need)
		r.rlim_max = need; /* works as root */
	if (setrlimit(RLIMIT_NOFILE, &r)) {
		getrlimit(RLIMIT_NOFILE, &r);
		r.rlim_cur = r.rlim_max;
		setrlimit(RLIMIT_NOFILE, &r);
		log_warn(
			"open file limit %llu is below the %llu this run needs",
			(unsigned long long)r.rlim_cur,
			(unsigned long long)need);
	}
}

static const char *model_name(enum chat_model m)
{
	return m == CHAT_EPOLL ? "epoll" : "threads";
}

int do_server(const struct cfg *c)
{
	struct chat_server_cfg sc = {
		.bind = c->bind ? c->bind : "*",
		.port = c->port,
		.model = c->model,
		.idle_timeout_s = c->timeout_s > 0 ? c->timeout_s : 120,
		.stall_after = c->stall_after,
		.cpu_list = c->cli.cpu ? (c->cli.cpu_list
						  ? c->cli.cpu_list
						  : meter_default_list(NULL))
				       : NULL,
		.unpaired = c->unpaired,
		.max_conns = (int)c->max_conns,
	};
	struct chat_server *s;
	char err[256];

	raise_nofile(0);
	s = chat_server_start(&sc, err, sizeof(err));
	if (!s)
		die("%s", err);
	printf("chatbench: serving on %s port %d (%s model); stop with Ctrl-C\n",
	       sc.bind, chat_server_port(s), model_name(c->model));
	fflush(stdout);
	while (!sig_stop)
		clock_sleep(0.5);
	printf("chatbench server: %llu runs served\n", chat_server_runs(s));
	chat_server_stop(s);
	return sig_exit_status() == 128 + SIGINT ||
			       sig_exit_status() == 128 + SIGTERM
		       ? 0
		       : sig_exit_status();
}

static json_t *params_json(const struct cfg *c)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:b, s:s}", "rooms",
			 (json_int_t)c->rooms, "users", (json_int_t)c->users,
			 "messages", (json_int_t)c->messages, "size",
			 (json_int_t)c->size, "nodelay", c->nodelay, "model",
			 model_name(c->model));
}

static void declare_metrics(struct res_doc *d)
{
	res_metric(d, "msgs_per_s", "msg/s", RES_HIGHER, 1);
	res_metric(d, "real_s", "s", RES_LOWER, 0);
	res_metric(d, "system_s", "s", RES_LOWER, 0);
	res_metric(d, "user_s", "s", RES_LOWER, 0);
	res_metric(d, "time_cpu_pct", "%", RES_LOWER, 0);
	res_metric(d, "exchange_s", "s", RES_LOWER, 0);
}

/* paired: the meter the runs were paired for ("soak", "profile"), or
 * NULL */
static void summary(FILE *f, const struct cfg *c, const struct series *ser,
		    const char *where, const char *paired)
{
	char note[256];
	const double *x;
	double m;
	int k;

	if (paired && *series_perturbation_note(ser, 0, note, sizeof(note)))
		fprintf(f, "chatbench: perturbation: %s\n", note);
	x = series_results(ser, 0, &k);
	if (!k)
		return;
	m = stats_mean(x, (size_t)k);
	fprintf(f,
		"chatbench: %d %srun%s of %ld rooms x %ld users x %ld messages of %ld bytes (%s%s, %s): %.0f msg/s",
		k, paired ? "unmetered " : "", k == 1 ? "" : "s", c->rooms,
		c->users, c->messages, c->size, model_name(c->model),
		c->nodelay ? ", nodelay" : "", where, m);
	if (k > 1)
		fprintf(f, " mean, sd %.1f%%",
			100 * stats_stddev(x, (size_t)k) / m);
	if (paired)
		fprintf(f, "; %s from the metered runs",
			meter_words_of(paired)->from);
	fputc('\n', f);
}

/*
 * Paired runs with a server from before them: it cannot park its
 * soakers, so its side runs unpaired, and an unmetered run whose server
 * soakers ran is slowed by them.
 */
static void check_server(FILE *out, struct res_doc *doc, struct measure *m,
			 const struct sample *s, long i, int *told)
{
	static const struct meter_old_server w = {"chatbench", "chatbench",
						  "chatbench server"};

	if (!s->paired || !s->cpu.npeer || measure_server_pairs(m))
		return;
	meter_old_server(out, doc, &w, s->metered, s->cpu.peer, s->cpu.npeer, i,
			 told);
}

/* One client side's runs and what they share. */
struct client {
	const struct cfg *c;
	struct res_doc *doc;
	FILE *out;
	struct chat_run_cfg rc;
	struct chat_server *srv; /* in-process, or NULL */
	struct measure *m;
	json_t *kase;
	char where[300];
	int paired;
	struct series ser; /* which run comes next, and their rates */
	struct sample *s;  /* nruns of them */
	long n, nruns;	   /* runs done, planned */
	int told;	   /* an older server's pairing: said */
};

/* The document, the run settings and, with no --host, a server in this
 * process. */
static void client_open(struct client *k, int argc, char **argv)
{
	const struct cfg *c = k->c;
	char err[512];

	k->doc = res_new("chatbench", argc, argv);
	res_set_label(k->doc, c->cli.label);
	if (cli_doc_path(&c->cli))
		res_set_output(k->doc, cli_doc_path(&c->cli));
	k->rc.timeout_s =
		c->timeout_s > 0 ? c->timeout_s : chat_default_timeout(&k->rc);
	raise_nofile((rlim_t)(c->rooms * c->users * (c->host ? 1 : 2) + 256));
	if (c->host) {
		snprintf(k->where, sizeof(k->where), "server %s:%d", c->host,
			 c->port);
		return;
	}
	{
		struct chat_server_cfg sc = {
			.bind = "127.0.0.1",
			.port = c->port,
			.model = c->model,
			/* past the run's own timeout, so a stalled run ends
			 * with the clients' account of what is missing, not
			 * with the server hanging up on idle clients first */
			.idle_timeout_s = k->rc.timeout_s * 2 + 5,
			.stall_after = c->stall_after,
			.quiet = 1,
			.max_conns = (int)(c->rooms * c->users + 16),
		};

		k->srv = chat_server_start(&sc, err, sizeof(err));
		if (!k->srv)
			die("in-process server: %s", err);
	}
	k->rc.port = chat_server_port(k->srv);
	snprintf(k->where, sizeof(k->where), "server in-process");
}

/* Run r: measured, printed and put in the document; its rate. */
static int client_run(void *ctx, const struct series_run *r, double *rate,
		      char *err, size_t len)
{
	struct client *k = ctx;
	struct sample *s = &k->s[k->n];
	char why[300];
	int outcome, left;

	/* the in-process server still closing the last run's connections
	 * would turn this run's away (--max-conns is the run's size) */
	if (k->srv && (left = chat_server_wait_idle(k->srv, k->rc.timeout_s))) {
		snprintf(err, len,
			 "run %ld: the server still holds %d of the last "
			 "run's connections after %.0f s",
			 k->n + 1, left, k->rc.timeout_s);
		log_err("%s", err);
		res_fail(k->doc, "%s", err);
		return SERIES_FAILED;
	}
	if (ival_start(k->rc.iv, (int)k->n, NULL, s->run.err,
		       sizeof(s->run.err)) ||
	    measure_run(k->m, &k->rc, s, r->metered, r->next_metered)) {
		log_err("run %ld: %s", k->n + 1, s->run.err);
		res_fail(k->doc, "run %ld (%s): %s", k->n + 1, k->where,
			 s->run.err);
		snprintf(err, len, "%s", s->run.err);
		return SERIES_FAILED;
	}
	s->intervals = ival_stop(k->rc.iv, s->run.received);
	s->pair = r->rep;
	outcome = series_quiet(&k->ser, r, &s->cpu.quiet, why, sizeof(why));
	s->rerun = outcome == SERIES_DISTURBED && r->reruns_left > 0;
	if (s->rerun)
		k->nruns++; /* the plan has one run more */
	print_run(k->out, s, measure_paired_by(k->m), k->n + 1, k->nruns);
	check_server(k->out, k->doc, k->m, s, k->n + 1, &k->told);
	if (outcome == SERIES_DISTURBED)
		fprintf(k->out, "chatbench: run %ld disturbed: %s\n", k->n + 1,
			why);
	fflush(k->out);
	sample_to_doc(k->doc, k->kase, s, !k->c->host, &k->ser, r, outcome);
	json_decref(s->intervals);
	s->intervals = NULL;
	k->n++;
	*rate = s->msgs_per_s;
	return outcome;
}

static const struct series_ops chat_runs = {.run = client_run};

/* The series: --repeat results (--confidence), in pairs when a meter
 * here or the server's perturbs. */
static void open_series(struct client *k)
{
	struct series_cfg sc = {
		.ncells = 1,
		.paired = k->paired,
		.paired_by = k->paired ? measure_paired_by(k->m) : NULL,
		.stop = &sig_stop,
	};
	char err[256];

	series_cfg_cli(&sc, &k->c->cli);
	if (series_open(&k->ser, &sc, err, sizeof(err)))
		die("%s", err);
}

/* The case, the meters, and whether the runs go in pairs. */
static void client_start(struct client *k)
{
	const struct cfg *c = k->c;
	char err[512], names[128];

	res_set(k->doc, "config",
		json_pack("{s:s, s:s, s:i, s:f, s:I, s:f, s:i, s:[ff]}",
			  "server", c->host ? "remote" : "in-process", "host",
			  k->rc.host, "port", k->rc.port, "timeout_s",
			  k->rc.timeout_s, "connections",
			  (json_int_t)(c->rooms * c->users), "omit_s",
			  c->cli.omit, "reruns", c->cli.reruns, "disturbance",
			  c->cli.steal_max, c->cli.outside_max));
	declare_metrics(k->doc);
	k->kase = res_case(k->doc, params_json(c));
	k->m = measure_open(c, k->rc.host, k->rc.port, err, sizeof(err));
	if (!k->m)
		die("%s", err);
	k->paired = measure_paired(k->m);
	open_series(k);
	k->nruns = series_planned(&k->ser);
	/* and the re-runs of disturbed runs */
	k->s = calloc((size_t)(k->nruns + c->cli.reruns), sizeof(*k->s));
	if (!k->s)
		abort();
	if (k->paired && !strcmp(measure_paired_by(k->m), "profile"))
		fprintf(k->out,
			"chatbench: the profile runs in pairs: profiled, then unprofiled (the rate)\n");
	else if (k->paired)
		fprintf(k->out,
			"chatbench: the soak meter (%s) runs in pairs: metered, then unmetered (the rate)\n",
			measure_soak_sides(k->m, names, sizeof(names)));
	log_verbose(
		"%ld rooms x %ld users = %ld connections, %llu messages per run, timeout %.0f s",
		c->rooms, c->users, c->rooms * c->users,
		(unsigned long long)(c->rooms * c->users * c->messages *
				     (c->users - 1)),
		k->rc.timeout_s);
}

/* Run after run until the series is done, a failure or a signal; 1
 * when a run failed. */
static int client_runs(struct client *k)
{
	char err[512];

	return series_run(&k->ser, &chat_runs, k, err, sizeof(err)) ? 1 : 0;
}

/* The seed's table, whether --confidence was reached, the summary. */
static void client_report(struct client *k)
{
	const struct cfg *c = k->c;
	long n = k->n;
	double hw;
	int ok, runs;

	if (n > 1)
		chat_print_table(k->out, k->doc, k->s, n);
	if (c->cli.conf_level > 0 && n > 1) {
		ok = series_confidence(&k->ser, 0, &hw) == 1;
		series_results(&k->ser, 0, &runs);
		fprintf(k->out, "confidence %.0f%% +-%.1f%% %s after %d %s\n",
			c->cli.conf_level, c->cli.conf_width / 2,
			ok ? "reached" : "NOT reached", runs,
			k->paired ? "pairs" : "runs");
		if (!ok)
			res_warn(
				k->doc,
				"confidence %.0f%%,%.1f%% not reached after %d %s",
				c->cli.conf_level, c->cli.conf_width, runs,
				k->paired ? "pairs" : "runs");
	}
	if (sig_stop)
		res_fail(k->doc, "interrupted by a signal after %ld runs", n);
	if (n)
		summary(k->out, c, &k->ser, k->where,
			k->paired ? measure_paired_by(k->m) : NULL);
}

int do_client(const struct cfg *c, int argc, char **argv)
{
	struct client k = {
		.c = c,
		.out = c->cli.json_stream ? stderr : cli_text(&c->cli),
		.rc =
			{
				.host = c->host ? c->host : "127.0.0.1",
				.port = c->port,
				.rooms = (uint32_t)c->rooms,
				.users = (uint32_t)c->users,
				.messages = (uint32_t)c->messages,
				.size = (uint32_t)c->size,
				.nodelay = c->nodelay,
				.model = c->model,
				.drop_after = c->drop_after,
				.interrupt = &sig_stop,
				.omit_s = c->cli.omit,
			},
	};
	char err[256];
	int status;

	client_open(&k, argc, argv);
	client_start(&k);
	/* -i: the reporter of each run's deliveries */
	if (ival_open_for(&k.rc.iv, c->cli.interval, c->cli.json_stream, c->cli.cpu,
			  "chatbench", "messages", k.out, err, sizeof(err)))
		die("%s", err);
	status = client_runs(&k);
	client_report(&k);
	if (c->cli.json_stream)
		ival_stream_end(stdout, k.doc);
	ival_close(k.rc.iv);
	if (sig_stop)
		status = sig_exit_status();
	measure_close(k.m);
	chat_server_stop(k.srv);
	if (res_finish(k.doc))
		status = 1;
	res_free(k.doc);
	series_close(&k.ser);
	free(k.s);
	return status;
}
