/* zcc.h: the parts of the zcc client: settings, files, one run. */
#ifndef ZCB_ZCC_H
#define ZCB_ZCC_H

#include <jansson.h>
#include <stdint.h>

#include "cpuwin.h"
#include "meter.h"
#include "xfer.h"

struct cfg {
	const char *server; /* -s: host name or address */
	int port;	    /* -p: 2222 */
	uint32_t loops;	    /* -n: times the file set is sent */
	size_t bufsize;	    /* -b: bytes per send call */
	const char *method; /* --method, or sendfile / -S send / -S -w write */
	int cork;	    /* -k: TCP_CORK on the connection */
	int rcvbuf, sndbuf; /* -i, -o: SO_RCVBUF, SO_SNDBUF (0 = leave) */
	int cpu;	    /* -B: CPU to run on, -1 = any */
	int conns;	    /* -P: parallel connections */
	int measure;	    /* -c / --cpu: this box's CPU */
	const char *meters; /* --cpu=LIST */
	int remote;	    /* -C: hello, and the server's CPU report */
	int repeat;	    /* --repeat: runs (samples) */
	int timeout_ms;	    /* --timeout: longest wait for progress */
	const char *json_path; /* -J ("-") or --output FILE */
	const char *label;     /* --label */
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
	json_t *host;		  /* its host facts (owned), or NULL */
	uint64_t payload, header; /* what it counted, summed */
};

/* One run: every connection sends the whole stream once. */
struct run_result {
	double elapsed_s; /* first byte to last close */
	uint64_t payload; /* file bytes sent by all connections */
	uint64_t header;  /* protocol bytes (hello included) */
	uint64_t calls;	  /* method calls */
	int failed;	  /* connections that failed */
	char err[512];	  /* the first failure, naming peer and phase */
	struct remote rem;
	json_t *counters; /* method counters of connection 0 */
	char warn[256];	  /* e.g. zero-copy sends the kernel copied */
};

int files_open(struct fileset *fs, char **paths, int n, size_t bufsize);
void files_close(struct fileset *fs);
/*
 * Run once; 0 or -1 with r->err filled. run_flags: the run's kind for
 * the hello (zcw_run_flags, with -C). The local windows of w bracket the
 * run from the first byte to the last close, into *cs.
 */
int run_once(const struct cfg *cfg, const struct fileset *fs,
	     uint32_t run_flags, struct cpuwin *w, struct cpuwin_sample *cs,
	     struct run_result *r);
void run_result_free(struct run_result *r);

#endif
