/*
 * bench.h: chatbench's tool level: its settings (main.c), the two sides
 * (run.c), one measured run (measure.c) and the printers (print.c).
 */
#ifndef ZCB_CHAT_BENCH_H
#define ZCB_CHAT_BENCH_H

#include <stdio.h>

#include "chat.h"
#include "cli.h"
#include "cpuwin.h"
#include "meter.h"
#include "result.h"
#include "stats.h"

struct cfg {
	int server;	  /* --server: serve until a signal */
	const char *host; /* --host: remote server; NULL = in-process */
	const char *bind; /* --bind (server) */
	int port;	  /* --port; 0 with no --host: ephemeral */
	long rooms, users, messages, size;
	int nodelay;
	enum chat_model model;
	struct cli_common cli;	       /* -c/--cpu[=LIST], -n/--repeat N
					* (the seed used 50), --confidence
					* L,W, -J, -o, --label */
	double timeout_s;	       /* --timeout; 0 = scaled default */
	long drop_after;	       /* --fault drop:K (client) */
	long stall_after;	       /* --fault stall:K (server) */
	int unpaired;		       /* --fault unpaired (server) */
	long max_conns;		       /* --max-conns (server); 0 = default */
};

/* One measured run. */
struct sample {
	struct chat_run_result run;
	double msgs_per_s;    /* deliveries / exchange time */
	double real_s;	      /* wall time of the whole run */
	double user_s, sys_s; /* getrusage of this process over real_s
			       * (with the in-process server) */
	double cpu_pct;	      /* (user + sys) / real * 100, as time(1) */
	struct cpuwin_sample cpu; /* this box's meters (-c: local) and a
				   * remote server's report (peer) */
	double srv_user_s, srv_sys_s; /* its rusage; NAN when none */
	int paired;		      /* one run of a metered/unmetered pair */
	int metered;		      /* paired: the soakers ran */
	int pair;		      /* paired: which pair, 0-based */
	int rerun;		      /* disturbed and made again: no result
				       * (lib/cpu/quiet.h) */
	json_t *intervals;	      /* -i: the run's deliveries (owned) */
};

/* The two sides (run.c): serve until a signal, or run the clients. */
int do_server(const struct cfg *c);
int do_client(const struct cfg *c, int argc, char **argv);

struct measure;

/* Open what every run needs: meters (-c), the control connection to a
 * remote server (and what it measures). NULL with err filled. */
struct measure *measure_open(const struct cfg *c, const char *host, int port,
			     char *err, size_t len);
/*
 * Paired runs (lib/cpu/meter.h): 1 when this box or the server measures with
 * soak, so the runs go in pairs, metered then unmetered. A server from
 * before paired runs cannot park its soakers: its side counts as
 * unpaired (measure_server_pairs 0).
 */
int measure_paired(const struct measure *m);
/* The meter the pairs are for: "soak" or "profile". */
const char *measure_paired_by(const struct measure *m);
int measure_server_pairs(const struct measure *m);
/* A remote server (--host) on this box: its CPU is the run's. */
int measure_server_here(const struct measure *m);
/* "this box", "the server" or "this box and the server": who soaks. */
const char *measure_soak_sides(const struct measure *m, char *buf, size_t len);
/*
 * One run; 0 or -1 with s->run.err. paired: metered says the run's kind
 * (the box's soakers are parked for an unmetered one), next the kind of
 * the run after it (-1: none), told to a remote server at the end.
 */
int measure_run(struct measure *m, const struct chat_run_cfg *rc,
		struct sample *s, int metered, int next);
void measure_close(struct measure *m);

/* Put a sample into the result document, with its quiet figures and,
 * disturbed (outcome, run r of ser), its mark (lib/run/series.h). */
struct series;
struct series_run;
void sample_to_doc(struct res_doc *d, json_t *kase, const struct sample *s,
		   int same_box, const struct series *ser,
		   const struct series_run *r, int outcome);

/* Per run: one line (and, paired, which kind of run it was). */
/* by: the meter the runs are paired for (meter_pair_run) */
void print_run(FILE *f, const struct sample *s, const char *by, long i,
	       long n);
/*
 * Seed 004's table of Mean and Standard Deviation (the chat layout of
 * lib/table, of the document as zcbreport prints it), then the meters.
 * With pairs the rows come from the unmetered runs, soak from the
 * metered ones, and a perturbation outside 0.95-1.05 is a footnote under
 * the table.
 */
void chat_print_table(FILE *f, struct res_doc *doc, const struct sample *s,
		 long n);

#endif
