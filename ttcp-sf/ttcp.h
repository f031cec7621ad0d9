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
#include "frame.h"
#include "meter.h"
#include "result.h"
#include "xfer.h"

#define TTCP_PORT 5001		/* ttcp's default port */
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
	double rate;		/* --rate: bytes/s of the sample (all its
				 * flows), 0 = as fast as it goes */
	int rate_per_flow;	/* --rate-per-flow: rate is each flow's */
};

/* What one side measured in one sample: the figures of every mode, and
 * the parts of a mode's own (mode.h). */
#define TTCP_PARTS 6		/* parts of ttcp_parts[] (mode.h) */
struct sample {
	uint64_t bytes;		/* payload moved (--omit: after T) */
	uint64_t calls;		/* I/O calls */
	double elapsed_s;	/* real seconds of the transfer (from T) */
	double omit_s;		/* --omit: where the measured part began,
				 * 0 none (a stream's only) */
	uint64_t omit_bytes;	/* and the bytes before it */
	uint64_t omit_calls;	/* and the calls */
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
	void *part[TTCP_PARTS];	/* each part's data (mode.h), NULL none */
	json_t *intervals;	/* -i: the sample's intervals (owned) */
};

/* The end-of-run exchange (struct ctl_hello, ctl_report), the setup
 * frames and the connection: frame.h, conn.c. */

/* opts.c: the settings, defaults first; dies on a bad command line. */
void parse_opts(struct cfg *c, int argc, char **argv);

/* Sides (xmit.c, rcv.c). Return 0, or exit through die(). */
int do_transmit(const struct cfg *c, struct res_doc *d);
int do_receive(const struct cfg *c, struct res_doc *d);

/* conn.c: the data socket to the receiver (-t), its options set; dies
 * naming the receiver and the phase (none after a signal). */
int ttcp_connect(const struct cfg *c, int type);

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

/* conn.c: -b, -D, --cc and the timeout on a socket of either side. */
void ttcp_socket_opts(const struct cfg *c, int fd, int sending);
/*
 * One frame from fd, whole within ms (not each step: a peer that trickles
 * it stalls it). 0 with *out (new reference); else -errno with *got the
 * bytes that came (0: nothing came, or the peer closed at once) and err
 * saying where it stopped ("stalled mid-frame after 9 of 1200 bytes
 * within 2000 ms"); -EINVAL when the bytes are not a frame.
 */
int ctl_recv_frame(int fd, int ms, json_t **out, size_t *got, char *err,
		   size_t len);
/* What a data connection opens with (ttcp_peek_open). */
enum ttcp_open {
	OPEN_STREAM, /* a classic stream (nothing taken), or nothing came
		      * within the wait (the stream's own wait says so) */
	OPEN_SETUP,  /* a setup frame, taken: *st filled */
	OPEN_HELLO,  /* a ttcp-sf hello, taken: *h filled (the data of its
		     * sample never came: a connection closed empty) */
	OPEN_RR,     /* --rr's 20-byte setup frame, taken: *su filled */
	OPEN_EMPTY,  /* closed without a byte (a port probe) */
};
/*
 * -r: what fd's first bytes are (enum ttcp_open). A frame is read whole,
 * of any size a frame may have, within timeout_ms, without a busy wait.
 * -1 with why when it is a frame but not a good setup (a field out of
 * range, say), or when it stalls; su NULL: an --rr setup is not expected
 * (-1 when one comes), h NULL: a hello is not.
 */
int ttcp_peek_open(int fd, int timeout_ms, struct dir_setup *st,
		   struct rr_setup *su, struct ctl_hello *h, char *why,
		   size_t len);

/* ival.c: -i SECS and --json-stream, lib/cpu/ival's reporter with
 * ttcp's words ("ttcp-t", "ttcp-r"; bytes, or transactions with --rr).
 * A runner registers its counter with ival_watch(ttcp_iv, ...) when its
 * data starts and unregisters it before the counter goes away. */
extern struct ival *ttcp_iv;	/* NULL without -i/--json-stream */
/* Start the reporter of sample idx (no-op without -i/--json-stream);
 * trans: the counter counts transactions, else bytes. */
void ttcp_ival_start(const struct cfg *c, const char *side, int idx,
		     int trans);
/* -r: what the sample counts, once the transmitter asked for it (trans:
 * transactions, else bytes). */
void ttcp_ival_unit(int trans);
/* Stop: the last (partial) interval up to the final count; returns the
 * sample's intervals (new reference; NULL without -i). */
json_t *ttcp_ival_stop(uint64_t final);
/* --json-stream: the end object, with the whole result document. */
void ttcp_ival_end(const struct cfg *c, struct res_doc *d);

/* side.c: what each side is: its text, its end on a signal, who it is,
 * its CPU window. */
extern FILE *ttcp_out;		/* human text: stdout, stderr under -J */
/* The run's document, finished as failed by out_interrupted. */
void side_doc(struct res_doc *d);
/* Our host name and boot id, for same-box detection. */
void ctl_self(char *host, size_t hlen, char *boot, size_t blen);
/* This side's CPU window (-c, --cpu; the peer's report is its remote
 * side); dies on a bad meter list. */
void ttcp_cpu_open(const struct cfg *c, struct cpuwin *w);

/* A signal came before this side could start (or go on with) what comes
 * next: one line naming the phase (and detail, or NULL), the document
 * failed, exit 128 + the signal. Nothing more reaches the peer. */
void out_interrupted(const char *side, const char *phase,
		     const char *detail) __attribute__((noreturn));

/* out.c: what both sides print and record. */
/* The result document of this run: config, metrics, output, label. */
struct res_doc *out_doc(const struct cfg *c, int argc, char **argv);
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
/* A sample's rate lines: ttcp's (out_rate) or those of a part that
 * counts transactions, then every other part's (mode.h). */
void out_lines(const char *side, const struct cfg *c, const struct sample *s);
/* -r: the stream's closing line of a sample (recv_method: this side's,
 * method: the transmitter's, from its hello). */
void out_closing(const char *recv_method, const char *method,
		 const struct cfg *c, const struct sample *s, int same);
/* What the sample's parts add to a case's params, and to a sample. */
void out_params_more(json_t *params, const struct cfg *c,
		     const struct sample *s);
void out_sample_more(struct res_doc *d, const struct cfg *c, json_t *j,
		     const struct sample *s, const struct ctl_report *rep,
		     int same_box);

#endif
