/*
 * rate.h: --rate (rate.c): a stream sent at a target rate, so CPU,
 * service demand and the profile compare at one rate. The kernel paces
 * TCP (SO_MAX_PACING_RATE on every sending socket: whatever call fills
 * it, the socket lets the bytes out at the rate); ttcp-sf's token bucket
 * (lib/core/pace) paces UDP, which the kernel paces only with the fq
 * qdisc. With -P the rate is the sample's, split evenly over the flows
 * (--rate-per-flow: each flow's). The sender of -R and --bidir's other
 * way is the receiver: it learns the rate from the setup frame; a
 * forward stream's receiver learns it from the hello.
 *
 * The rate part of a sample (mode.h): its target and who paced it. Both
 * sides print the target and the rate achieved, record both (params'
 * "rate", the sample's "rate" object) and say so when the run missed
 * the target by more than PACE_MISS_PCT; tables mark such a cell.
 */
#ifndef ZCB_TTCP_RATE_H
#define ZCB_TTCP_RATE_H

#include "mode.h"
#include "pace.h"

struct rate_part {
	double target;	/* the sample's bytes/s (all its flows) */
	int paced_by;	/* enum rate_pacer (frame.h) */
	int has_rev;	/* --bidir: the other way's rate is known */
	double rev_bps;	/* and its achieved bytes/s */
};
static inline struct rate_part *rate_of(const struct sample *s)
{
	return sample_part(s, &rate_part);
}
/* The part of a sample sent at target bytes/s, paced by paced_by. */
struct rate_part *rate_add(struct sample *s, double target, int paced_by);
/* --bidir: the other way moved bytes in secs; a sample without a rate
 * part (unpaced) keeps nothing. */
void rate_other_way(struct sample *s, uint64_t bytes, double secs);

/* The sample's target from a rate R: R itself, or with per_flow each
 * of the flows' (N times R). */
double rate_sample_target(double rate, int per_flow, int flows);
/*
 * The sending side's socket fd paced by the kernel at its share of the
 * sample's target (rate over the flows, or per_flow: rate): dies naming
 * side and the phase when the kernel refuses. rate 0: nothing.
 */
void rate_pace_sock(const char *side, int fd, double rate, int per_flow,
		    int flows);

/* Hold n sockets at the sample's target bytes/s while it runs, their
 * bytes counted at *sent (lib/core/pace's keeper): a kernel that falls
 * behind on a busy box is made to catch up. target 0: nothing (k still
 * takes rate_keep_stop). Stop it before the sockets close. */
void rate_keep(struct pace_keep *k, double target, const int *fds, int n,
	       const uint64_t *sent);
void rate_keep_stop(struct pace_keep *k);

#endif
