/* nfsbench.h: what nfsbench's files share: its settings and one sample. */
#ifndef NFSBENCH_H
#define NFSBENCH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#include "cli.h"
#include "cpuwin.h"
#include "ival.h"
#include "meter.h"
#include "nfsio.h"

#define NB_MAX_LIST    32 /* sizes or client counts in one run */
#define NB_MAX_CLIENTS 1024

struct cfg {
	const char *target;	   /* nfs:// URL, a file, or a directory */
	char path[4096];	   /* resolved target (directory + file name) */
	int mode_libnfs;	   /* 1: libnfs engine; 0: mounted path */
	enum nfsio_op op;	   /* read (default) or write */
	size_t sizes[NB_MAX_LIST]; /* request sizes (-s) */
	int nsizes;
	int clients[NB_MAX_LIST]; /* client counts (-n) */
	int nclients;
	int qd;			  /* requests in flight per client */
	int async;		  /* async API even at qd 1 */
	int own_files;		  /* each client its own file (TARGET.N) */
	uint64_t bytes;		  /* write: per client; read: at most */
	int vers;		  /* libnfs: 0 = URL's, 3 or 4 */
	int direct;		  /* mounted: O_DIRECT */
	int drop_caches;	  /* mounted: drop the page cache per sample */
	enum nfsio_verify verify; /* check data read */
	const char *verify_file;  /* local copy for --verify-file */
	uint64_t seed;		  /* data pattern seed */
	int timeout_ms;		  /* each RPC and each setup phase */
	double max_time;	  /* one sample's limit, seconds */
	struct cli_common cli;	  /* -c, --cpu=LIST (the client's meters),
				   * -R/--repeat (samples per case), -J,
				   * -o, -L/--label */
	pid_t server_pid;	  /* --server-pid (0 = none) */
	const char *remote_cpu;	  /* --remote-cpu HOST[:PORT] */
	long rsize, wsize;	  /* mounted: labels (0 = from mountinfo) */
	char vers_label[16];	  /* "3", "4", "4.2" for params */
	char proto[16];		  /* "tcp", "udp" */
	char fstype[32];	  /* mounted: the file system's type */
	const char *json_out;	  /* cli_doc_path(&cli), for print.c */
	int quiet;		  /* -q, for print.c */
	struct ival *iv;	  /* their reporter (main), NULL = none */
};

/* One sample's figures: aggregate and per client. */
struct nb_sample {
	int clients;				  /* processes run */
	size_t reqsize;				  /* request size */
	uint64_t bytes, ops, short_ops, verified; /* summed over clients */
	double elapsed_s; /* barrier release (with --omit: T after it) to
			   * the last client's end */
	double omit_s;	  /* --omit: where the measured part began */
	uint64_t omit_bytes; /* and the bytes before it (ops: omit_ops,
			      * of reqsize each) */
	uint64_t omit_ops;
	double min_client_s, max_client_s; /* spread of client times */
	uint64_t readmax, writemax;	   /* server's limits (libnfs) */
	int vers;			   /* NFS version used */
	int pair;			   /* paired runs: which pair */
	/* CPU: local = the client box (-c), remote = the server side
	 * (--server-pid first, then --remote-cpu's meters) */
	struct cpuwin_sample cpu;
	json_t *intervals; /* -i: the sample's, summed over its clients */
};

/* The CPU windows of both sides (lib/cpu/cpuwin), opened once for the
 * run, without a meter too (every window says whether the box was
 * quiet). Dies on failure. */
struct cpuwin *nb_cpu_open(const struct cfg *c);
void nb_cpu_close(struct cpuwin *w);

/*
 * Run one sample: fork s->clients clients, each opens its target, all
 * wait on one barrier, then move their bytes. CPU windows bracket the
 * transfer (with --omit, from T after the barrier: the bytes before it
 * are not counted); with paired runs metered says whether the soakers run: they
 * are parked or woken box-wide before the clients are forked, so the
 * clients need do nothing. 0, or -1 with err naming the client and the
 * phase.
 */
int nb_run_sample(const struct cfg *c, size_t reqsize, int nclients,
		  struct cpuwin *w, int metered, struct nb_sample *s, char *err,
		  size_t len);
/* Stop any clients still running (SIGKILL) and reap them. */
void nb_kill_clients(void);

/* The result document (doc.c). */
struct res_doc;
/* Resolve c->target: its mode, file path and labels (mountinfo). */
void nb_target(struct cfg *c, struct res_doc *d);
json_t *nb_config_json(const struct cfg *c);
/* One sample as a case's sample, with its CPU and pair, and run r of
 * ser's quiet figures and mark (outcome: lib/run/series.h). */
struct series;
struct series_run;
void nb_record(const struct cfg *c, struct res_doc *d,
	       const struct nb_sample *s, const struct series *ser,
	       const struct series_run *r, int outcome);
/* Warn once when a request size passes the server's READ/WRITE limit. */
void nb_check_limits(const struct cfg *c, struct res_doc *d,
		     const struct nb_sample *s);

/* Printers (print.c). */
void nb_print_sample(const struct cfg *c, const struct nb_sample *s, int rep);
/* Each paired case's perturbation line (the document's). */
void nb_print_perturbation(const struct cfg *c, struct res_doc *d);
void nb_print_tables(const struct cfg *c, struct res_doc *d);

#endif
