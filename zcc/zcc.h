/*
 * zcc.h: the parts of the zcc client: the settings (main.c), the files
 * and one run (run.c), what a run prints and records (out.c).
 */
#ifndef ZCB_ZCC_H
#define ZCB_ZCC_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "cpuwin.h"
#include "ival.h"
#include "meter.h"
#include "result.h"
#include "xfer.h"

struct cfg {
	struct cli_common com;	/* -c, --cpu, --repeat, -J, --output,
				 * --label, -i, -o: SO_RCVBUF/SNDBUF
				 * (lib/core/cli) */
	const char *server;	/* -s: host name or address */
	int port;		/* -p: 2222 */
	uint32_t loops;		/* -n: times the file set is sent */
	size_t bufsize;		/* -b: bytes per send call */
	const struct xfer_ops *ops; /* --method, or sendfile / -S send /
				 * -S -w write */
	int cork;		/* -k: TCP_CORK on the connection */
	int cpu;		/* -B: CPU to run on, -1 = any */
	int conns;		/* -P: parallel connections */
	int remote;		/* -C: hello, and the server's CPU report */
	int timeout_ms;		/* --timeout: wait for progress */
	double rate;		/* --rate: bytes/s of all connections (0 =
				 * as fast as they go), split evenly */
	struct ival *iv;	/* their reporter (main), NULL = none */
};

/* The files to send, opened once and shared by every connection. */
struct fileset {
	int n;			 /* regular files kept */
	struct xfer_source *src; /* n sources (size 0: an empty file) */
	uint64_t *len;		 /* n lengths */
	uint64_t bytes;		 /* sum of len: payload of one loop */
};

/* What the server told us (zcc -C). */
struct remote {
	int ours;	      /* answered our hello */
	int cpu_granted;      /* will report CPU */
	int run_granted;      /* took the run's kind (ZCW_F_RUN): a zcs
			       * that parks its soakers for unmetered runs */
	int soak;	      /* measures with soak (ZCW_F_SOAK): pair runs */
	char recv_method[32]; /* from its answer, "" = not known */
	int n;		      /* CPU samples received */
	struct cpu_sample cpu[METER_MAX];
	double window_s;	  /* the server's CPU window */
	double self_cpu_s;	  /* its own process's CPU over it (NAN:
				   * not said) */
	json_t *host;		  /* its host facts (owned), or NULL */
	uint64_t payload, header; /* what it counted, summed */
};

/* One run: every connection sends the whole stream once. */
struct run_result {
	double elapsed_s; /* first byte (--omit: T after it) to last close */
	uint64_t payload; /* file bytes sent by all connections (--omit:
			   * after T) */
	double omit_s;	  /* --omit: where the measured part began, 0 */
	uint64_t omit_payload; /* and the file bytes sent before it */
	uint64_t header;  /* protocol bytes (hello included) */
	uint64_t calls;	  /* method calls */
	int failed;	  /* connections that failed */
	char err[512];	  /* the first failure, naming peer and phase */
	struct remote rem;
	json_t *counters; /* method counters of connection 0 */
	char warn[256];	  /* e.g. zero-copy sends the kernel copied */
	json_t *intervals; /* --interval: the run's (owned), or NULL */
};

int files_open(struct fileset *fs, char **paths, int n, size_t bufsize);
void files_close(struct fileset *fs);
/*
 * Run once; 0 or -1 with r->err filled. run_flags: the run's kind for
 * the hello (zcw_run_flags, with -C). The local windows of w bracket the
 * run from the first byte (with --omit: T after it, the bytes before not
 * counted) to the last close, into *cs.
 */
int run_once(const struct cfg *cfg, const struct fileset *fs,
	     uint32_t run_flags, struct cpuwin *w, struct cpuwin_sample *cs,
	     struct run_result *r);
void run_result_free(struct run_result *r);

/* out.c: what zcc prints and records. */
extern FILE *zcc_out;	/* human text: stdout, stderr under -J */
/* The result document (dies on a bad output path). */
struct res_doc *out_doc(const struct cfg *cfg, int argc, char **argv);
/* The lines before the first run: what goes where, and the meters. */
void out_start(const struct cfg *cfg, const struct fileset *fs,
	       struct cpuwin *w, int paired);
/* The case of this run set, from the first run (its peer's facts). */
json_t *out_case(struct res_doc *doc, const struct cfg *cfg,
		 const struct fileset *fs, const struct run_result *r);
/* Run k of nruns: its kind (pair) when paired, and its figures. */
void out_run(const struct cfg *cfg, int k, int nruns,
	     const struct run_result *r, const struct cpuwin_sample *cs,
	     int pair, const char *by);
/* The server's host facts name this box. */
int out_same_box(json_t *peer_host);
/* One run's sample; CPU and bytes of the same run (service demand). */
json_t *out_sample(struct res_doc *doc, const struct cfg *cfg,
		   const struct run_result *r, const struct cpuwin_sample *cs,
		   int pair);
/* Paired runs with a zcs from before them: say so (told: once). */
void out_server_pairing(struct res_doc *doc, const struct cfg *cfg, int k,
			const struct run_result *r,
			const struct cpuwin_sample *cs, int *told);
/* The closing lines: the perturbation when paired, then the summary. */
struct series;
void out_summary(const struct cfg *cfg, const struct series *ser,
		 const char *paired);

#endif
