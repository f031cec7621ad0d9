/*
 * frame.h: every frame ttcp-sf's two sides send each other, and the one
 * decoder of them all (frame.c): what opens a data connection (-R,
 * --bidir and -P's setup frame, a lib/wire/peerrep frame of type
 * "ttcp-sf-setup/1"; --rr, --crr and UDP_RR's 20-byte setup frame) and
 * the end-of-run exchange (the transmitter's hello, the receiver's
 * report, then the next frame when the hello said it decides after the
 * report; peerrep frames too). Every field from the wire is checked for
 * type and range before use, and every string escaped, so no printer
 * shows a peer's bytes raw; tests/fuzz/fuzz_ttcpctl.c drives every
 * decoder, tests/unit/test_ttcpframe.c checks them.
 */
#ifndef ZCB_TTCP_FRAME_H
#define ZCB_TTCP_FRAME_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "meter.h"
#include "tcpinfo.h"

#define TTCP_FLOWS_MAX 1024	/* -P at most: every setup and count */
#define TTCP_MAX_SAMPLES 1000	/* --repeat / --confidence ceiling */
#define TTCP_RATE_MAX 1.25e14	/* --rate at most, bytes/s (1 Pbit/s) */

/* Who paced a sample sent at a rate (--rate). */
enum rate_pacer {
	PACED_NONE,	/* not paced */
	PACED_KERNEL,	/* SO_MAX_PACING_RATE: TCP's own pacing */
	PACED_APP,	/* ttcp-sf's token bucket (UDP) */
};
/* "kernel", "ttcp-sf" (NULL for PACED_NONE), and back (-1: neither). */
const char *rate_pacer_name(int pacer);
int rate_pacer_of(const char *name);

/* -R, --bidir and -P: the setup frame of a data connection. */
#define DIR_SETUP_TYPE "ttcp-sf-setup/1"
struct dir_setup {
	int reverse;	 /* -R: the receiver sends, -t receives */
	int bidir;	 /* --bidir: both send */
	uint64_t buflen; /* the sender's -l */
	uint64_t nbuf;	 /* bytes = buflen * nbuf (0: duration) */
	double duration; /* seconds, 0 = by count */
	int hot;		/* -R --hot: send a cache-hot buffer */
	int flows, flow; /* -P: how many, and which this is */
	double rate;	 /* --rate: the sample's bytes/s, 0 = unpaced */
	int rate_per_flow; /* --rate-per-flow: rate is each flow's */
};

/* Its frame as JSON (new reference), and back: 0, or -EINVAL with why
 * naming the field and its limits. */
json_t *dir_setup_build(const struct dir_setup *st);
int dir_setup_parse(json_t *j, struct dir_setup *st, char *why, size_t len);
/* "reverse", "bidir" or "forward": the setup's and the params'
 * direction. */
const char *dir_name(int reverse, int bidir);

/* --rr, --crr, -u --rr: the 20-byte setup frame (rr.h says how the
 * sides use it). */
#define RR_SETUP     20		 /* bytes of the setup frame */
#define RR_MAGIC     "ZCBRR1"	 /* its first 6 bytes */
#define RR_MAX_SIZE  (64u << 20) /* TCP request/response at most */
#define RR_UDP_MAX   65507	 /* a UDP datagram at most */
#define RR_BURST_MAX 1024	 /* --burst at most */

enum rr_kind {
	RR_TCP = 1,	/* TCP_RR */
	RR_CRR = 2,	/* TCP_CRR */
	RR_CRR_END = 3, /* CRR: the sample is over */
	RR_UDP = 4,	/* UDP_RR setup */
	RR_UDP_END = 5, /* UDP_RR end; "req" holds the count sent */
};

struct rr_setup {
	int kind;	    /* enum rr_kind */
	uint32_t req, resp; /* sizes (for RR_UDP_END: req = count) */
	uint16_t flows;	    /* -P: connections of the sample (1) */
	uint16_t flow;	    /* which this is, 0-based */
};

void rr_setup_put(unsigned char *b, const struct rr_setup *s);
/* 0, or -EINVAL when b is not a setup frame (wrong magic or kind, or a
 * size out of range) with why (len bytes; why may be NULL) naming the
 * field, its value and its limit. */
int rr_setup_get(const unsigned char *b, struct rr_setup *s, char *why,
		 size_t len);
/* "tcp_rr", "tcp_crr", "udp_rr" */
const char *rr_name(int kind);

/*
 * The end-of-run exchange (a second TCP connection to the receiver's port
 * after the data, so a plain ttcp peer never sees a byte of it): the
 * transmitter's hello, the receiver's report, each one lib/wire/peerrep frame.
 * Each names its box by hostname and boot_id (same_box compares them).
 */
#define CTL_HOSTNAME_LEN 256
#define CTL_BOOT_ID_LEN	 40
struct ctl_hello {
	char method[32];	/* send method */
	char source[8];		/* "file" / "hot" */
	char proto[4];		/* "tcp" / "udp" */
	char hostname[CTL_HOSTNAME_LEN];
	char boot_id[CTL_BOOT_ID_LEN]; /* /proc/sys/kernel/random/boot_id */
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
	double rate;		/* --rate: the sample's target, bytes/s (0
				 * = unpaced) */
	int paced_by;		/* enum rate_pacer */
	int pair;		/* paired (soak >= 0): which pair; absent:
				 * sample / 2 (no run was made again) */
	int decide;		/* 1: more and soak_next come after the
				 * report, in a next frame (ctl_next): the
				 * transmitter judges the sample with the
				 * receiver's figures first */
	double omit_s;		/* --omit: the first seconds it left out */
	double self_cpu_s;	/* its own process's CPU-seconds over its
				 * window (lib/cpu/quiet.h); NAN: not said */
};

struct ctl_report {
	json_t *host;		/* the receiver's host facts (owned) */
	int ncpu;
	struct cpu_sample cpu[METER_MAX];
	char recv_method[32];
	char hostname[CTL_HOSTNAME_LEN];
	char boot_id[CTL_BOOT_ID_LEN];
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
	int ntcp;		/* TCP: the flows' TCP_INFO readings */
	struct tcpinfo *tcp;	/* (parse: owned) */
	double omit_s;		/* --omit: the first seconds it left out */
	uint64_t omit_bytes;	/* and their bytes; bytes is the total */
	double self_cpu_s;	/* its own CPU-seconds over its window, NAN */
};

/* After a deciding hello's report: what follows (the receiver parks or
 * wakes its soakers for it, then closes: the transmitter's ack). */
struct ctl_next {
	int more;		/* another run follows */
	int soak_next;		/* its kind: 1 metered, 0 unmetered, -1 not
				 * paired */
	int rerun;		/* this sample is made again (disturbed):
				 * the receiver marks its own too */
	double steal_pct, outside_pct; /* rerun: the transmitter's figures */
	double steal_max, outside_max; /* and its limits */
};

json_t *ctl_next_build(const struct ctl_next *n);
int ctl_next_parse(json_t *j, struct ctl_next *n, char *err, size_t len);

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
#endif
