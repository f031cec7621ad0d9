/*
 * ttcp.h: what the parts of ttcp-sf share: the settings, one sample's
 * outcome, the end-of-run exchange between the two sides, and the
 * printers.
 */
#ifndef ZCB_TTCP_H
#define ZCB_TTCP_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "cpuwin.h"
#include "meter.h"
#include "result.h"
#include "xfer.h"

#define TTCP_PORT 5001		/* ttcp's default port */
#define TTCP_MAX_SAMPLES 1000	/* --repeat / --confidence ceiling */
#define TTCP_UDP_MAGIC 0x5a434255u /* "ZCBU": our UDP data datagrams */
#define TTCP_UDP_HDR 8		/* magic + sequence number */

struct hist;

struct cfg {
	struct cli_common com;	/* -c, --cpu, --repeat, --confidence, -J,
				 * -o, --label (lib/core/cli) */
	int trans;		/* -t: transmit (else -r receive) */
	const char *host;	/* -t: the receiver */
	const char *bind;	/* -r: address to listen on (--bind) */
	const struct xfer_ops *ops; /* -m (default write / read) */
	int method_default;	/* no -m: ops is the default */
	size_t buflen;		/* -l: bytes per I/O call */
	long nbuf;		/* -n: number of buffers */
	int port;		/* -p */
	int udp;		/* -u */
	int sockbuf;		/* -b: SO_SNDBUF / SO_RCVBUF, 0 = leave */
	int nodelay;		/* -D */
	char fmt;		/* -f: ttcp rate unit letter */
	size_t align, offset;	/* -A, -O */
	int touch;		/* -T */
	const char *file;	/* -F: source file (NULL = temp pattern) */
	uint64_t source_size;	/* --source-size (0 = automatic) */
	int hot;		/* --hot: copy methods send a hot buffer */
	double duration;	/* --duration seconds (0 = -n buffers) */
	const char *cc;		/* --cc (NULL = cubic when available) */
	int affinity;		/* --affinity CPU (-1 = none) */
	int verify;		/* -V */
	int timeout_ms;		/* --timeout: wait for progress */
	int report_ms;		/* --report-timeout: the end exchange */
	int wait_ms;		/* --wait: receiver's first accept (0 = ever) */
	int report;		/* 0: --no-report (behave as plain ttcp) */
	int require_peer;	/* --require-peer: fail without the exchange */
	int rr;			/* --rr 1, --crr 2 (enum rr_kind); 0 stream */
	uint32_t rr_req, rr_resp; /* --rr-size REQ[,RESP] (default 1,1) */
	int burst;		/* --burst: transactions in flight */
	int rr_timeout_ms;	/* --rr-timeout: a UDP answer, at most */
	int reverse;		/* -R: the receiver sends */
	int bidir;		/* --bidir: both send at once */
	int flows;		/* -P: connections per sample (1) */
	int threads;		/* --threads: their epoll threads (1) */
	int busy_poll;		/* --busy-poll: SO_BUSY_POLL usecs, 0 = leave */
	int cork;		/* --cork: TCP_CORK on the sending socket */
};

/* What one side measured in one sample. */
struct sample {
	uint64_t bytes;		/* payload moved */
	uint64_t calls;		/* I/O calls */
	double elapsed_s;	/* real seconds of the transfer */
	struct cpuwin_sample cpu; /* this side's CPU window (local), and the
				 * peer's figures from its report (peer) */
	json_t *counters;	/* xfer_counters_json (owned) */
	double zc_copied_pct;	/* NAN unless a zero-copy method ran */
	char zc_warn[160];	/* xfer_zc_warning */
	uint64_t dgrams;	/* UDP: data datagrams received / sent */
	int64_t lost;		/* UDP: lost datagrams, -1 = unknown */
	uint64_t bad_bytes;	/* -V: mismatches */
	int verified;		/* -V applied to the bytes */
	int paired;		/* one run of a metered/unmetered pair */
	int metered;		/* soakers ran (lib/cpu/meter.h, paired runs) */
	int pair;		/* which pair, 0-based */
	/* --rr (rr.h) */
	int rr_kind;		/* enum rr_kind of the sample, 0 = stream */
	uint32_t rr_req, rr_resp; /* its sizes */
	uint64_t trans;		/* transactions answered */
	struct hist *lat;	/* -t: their latency in ns (owned) */
	uint64_t rr_lost;	/* UDP: requests without an answer */
	uint64_t rr_late;	/* UDP: answers after their request's timeout */
	/* -R, --bidir (dir.h) */
	int dir;		/* 0 forward, 1 reverse, 2 bidir */
	uint64_t rev_bytes;	/* --bidir: the other direction's bytes */
	double rev_elapsed_s;	/* and its seconds */
	/* -P (flows.h) */
	int nflows;		/* 0: one connection */
	uint64_t *flow_count;	/* per flow: bytes or transactions (owned) */
	double *flow_secs;	/* per flow: seconds (owned) */
	json_t *intervals;	/* -i: the sample's intervals (owned) */
};

/*
 * The end-of-run exchange (a second TCP connection to the receiver's port
 * after the data, so a plain ttcp peer never sees a byte of it): the
 * transmitter's hello, the receiver's report, each one lib/wire/peerrep frame.
 */
struct ctl_hello {
	char method[32];	/* send method */
	char source[8];		/* "file" / "hot" */
	char proto[4];		/* "tcp" / "udp" */
	char hostname[256];
	char boot_id[40];	/* /proc/sys/kernel/random/boot_id */
	uint64_t buflen;
	uint64_t bytes;		/* bytes sent in this sample */
	uint64_t dgrams;	/* UDP datagrams sent */
	int sample;		/* 0-based */
	int more;		/* 1: another sample follows */
	int soak;		/* this run: 1 metered, 0 unmetered (soakers
				 * parked), -1 not paired */
	int rr_kind;		/* --rr: enum rr_kind, 0 = a stream */
	uint64_t trans;		/* --rr: transactions done */
	int dir;		/* 0 forward, 1 -R, 2 --bidir */
	uint64_t rev_bytes;	/* --bidir: bytes -t received */
	int nflows;		/* -P: flows, 0 = one connection */
	uint64_t *flow_count;	/* their bytes or transactions (parse:
				 * owned, ctl_hello_free) */
	int soak_next;		/* the next run's kind, so a receiver on
				 * another box parks or wakes its soakers
				 * before it starts; -1 not paired */
};

struct ctl_report {
	json_t *host;		/* the receiver's host facts (owned) */
	int ncpu;
	struct cpu_sample cpu[METER_MAX];
	char recv_method[32];
	char hostname[256];
	char boot_id[40];
	uint64_t bytes, calls, bad_bytes;
	int verified;		/* the receiver checked the pattern */
	double elapsed_s;
	int64_t lost;		/* UDP: -1 = unknown */
	uint64_t dgrams;
	double zc_copied_pct;	/* NAN = none */
	uint64_t trans;		/* --rr: transactions answered */
	uint64_t rr_lost;	/* UDP --rr: requests that never arrived */
	uint64_t rev_bytes;	/* --bidir: bytes the receiver sent */
	double rev_elapsed_s;	/* and their seconds */
	int nflows;		/* -P: flows, 0 = one connection */
	uint64_t *flow_count;	/* their counts (parse: owned) */
};

/*
 * One frame from fd, whole within ms (not each step: a peer that trickles
 * it stalls it). 0 with *out (new reference); else -errno with *got the
 * bytes that came (0: nothing came, or the peer closed at once) and err
 * saying where it stopped ("stalled mid-frame after 9 of 1200 bytes
 * within 2000 ms"); -EINVAL when the bytes are not a frame.
 */
int ctl_recv_frame(int fd, int ms, json_t **out, size_t *got, char *err,
		   size_t len);
json_t *ctl_hello_build(const struct ctl_hello *h);
int ctl_hello_parse(json_t *j, struct ctl_hello *h, char *err, size_t len);
json_t *ctl_report_build(const struct ctl_report *r,
			 const struct cpu_sample *cpu, int n);
int ctl_report_parse(json_t *j, struct ctl_report *r, char *err, size_t len);
void ctl_report_free(struct ctl_report *r);
void ctl_hello_free(struct ctl_hello *h);
/* -P: 1 when both ends counted the same per flow, else 0 with why. */
int ctl_flows_match(const uint64_t *a, int na, const uint64_t *b, int nb,
		    char *why, size_t len);
/* Our host name and boot id, for same-box detection. */
void ctl_self(char *host, size_t hlen, char *boot, size_t blen);

/* opts.c: the settings, defaults first; dies on a bad command line. */
void parse_opts(struct cfg *c, int argc, char **argv);

/* Sides (xmit.c, rcv.c). Return 0, or exit through die(). */
int do_transmit(const struct cfg *c, struct res_doc *d);
int do_receive(const struct cfg *c, struct res_doc *d);

/* xmit.c: the data socket to the receiver (-t), its options set; dies
 * naming the receiver and the phase. */
int ttcp_connect(const struct cfg *c, int type);
/* xmit_udp.c: one UDP stream sample of -t. */
void xmit_udp_sample(const struct cfg *c, struct cpuwin *w,
		     struct xfer_source *src, struct sample *s);

/*
 * bound.c: with --duration, the receiver keeps the transmitter at most
 * the duration and ttcp_grace past a sample's start: then a watchdog
 * cuts the connection it watches (shutdown: blocked calls return), and
 * bound_check dies naming the receiver and the phase. NULL (no watch)
 * without --duration; every call takes NULL. Stop the watch before the
 * connection is closed (or set it to -1).
 */
#define TTCP_GRACE_MIN 2.0	/* s; or a tenth of --duration if longer */
struct bound;
double ttcp_grace(const struct cfg *c);
struct bound *bound_start(const struct cfg *c, double t0, int fd);
/* The connection to cut from now on (-1: none, before it is closed). */
void bound_fd(struct bound *b, int fd);
/* 1 when the watch cut a connection. */
int bound_hit(struct bound *b);
/* Dies when the watch cut a connection. */
void bound_check(struct bound *b, const struct cfg *c, const char *phase);
void bound_stop(struct bound *b);

/* sockopt.c: -b, -D, --cc and the timeout on a socket of either side. */
void ttcp_socket_opts(const struct cfg *c, int fd, int sending);
/* This side's CPU window (-c, --cpu; the peer's report is its remote
 * side); dies on a bad meter list. */
void ttcp_cpu_open(const struct cfg *c, struct cpuwin *w);

/* ival.c: -i SECS and --json-stream, lib/cpu/ival's reporter with
 * ttcp's words ("ttcp-t", "ttcp-r"; bytes, or transactions with --rr).
 * A runner registers its counter with ival_watch(ttcp_iv, ...) when its
 * data starts and unregisters it before the counter goes away. */
extern struct ival *ttcp_iv;	/* NULL without -i/--json-stream */
/* Start the reporter of sample idx (no-op without -i/--json-stream);
 * trans: the counter counts transactions, else bytes. */
void ttcp_ival_start(const struct cfg *c, const char *side, int idx,
		     int trans);
/* Stop: the last (partial) interval up to the final count; returns the
 * sample's intervals (new reference; NULL without -i). */
json_t *ttcp_ival_stop(uint64_t final);
/* --json-stream: the end object, with the whole result document. */
void ttcp_ival_end(const struct cfg *c, struct res_doc *d);

/* out.c: what both sides print and record. */
extern FILE *ttcp_out;		/* human text: stdout, stderr under -J */
/* The result document of this run: config, metrics, output, label. */
struct res_doc *out_doc(const struct cfg *c, int argc, char **argv);
/* A signal came before this side could start (or go on with) what comes
 * next: one line naming the phase (and detail, or NULL), the document
 * failed, exit 128 + the signal. Nothing more reaches the peer. */
void out_interrupted(const char *side, const char *phase,
		     const char *detail) __attribute__((noreturn));
/* The meters line (pairs: with "; soak runs in pairs ..."), and one
 * line (and a warning in d) for each meter of the list that cannot run
 * here. */
void out_meters(const char *side, const struct cpuwin *w,
		struct res_doc *d, int pairs);
/* ttcp's two lines: bytes, seconds and rate; calls. */
void out_rate(const char *side, const struct cfg *c, const struct sample *s);
/* A case's params. */
json_t *out_params(const char *method, const char *recv_method,
		   const struct cfg *c, const char *role, const char *source);
/* The CPU block and one-line summary, and the result sample. */
void out_cpu(const char *side, const struct cfg *c, const struct sample *s,
	     const struct ctl_report *rep, int same_box, const char *why_none);
json_t *out_sample(struct res_doc *d, const struct cfg *c,
		   const struct sample *s, const struct ctl_report *rep,
		   int same_box);
/* A sample's rate lines: ttcp's (out_rate) or --rr's, then what
 * --bidir and -P add. */
void out_lines(const char *side, const struct cfg *c, const struct sample *s);
/* What --rr, -R/--bidir and -P add to a case's params, and to a sample. */
void out_params_more(json_t *params, const struct cfg *c,
		     const struct sample *s);
void out_sample_more(struct res_doc *d, const struct cfg *c, json_t *j,
		     const struct sample *s, const struct ctl_report *rep,
		     int same_box);

#endif
