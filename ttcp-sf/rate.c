/*
 * rate.c: --rate (rate.h): the kernel's pacing on a sending socket, and
 * the rate part of a sample: the target against the rate achieved, in
 * the lines, the params, the document and the hello.
 */
#include "config.h"
#include "log.h"
#include "rate.h"
#include "resrate.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <string.h>

struct rate_part *rate_add(struct sample *s, double target, int paced_by)
{
	struct rate_part *p = sample_add(s, &rate_part);

	p->target = target;
	p->paced_by = paced_by;
	return p;
}

double rate_sample_target(double rate, int per_flow, int flows)
{
	return per_flow ? rate * flows : rate;
}

void rate_pace_sock(const char *side, int fd, double rate, int per_flow,
		    int flows)
{
	double per = per_flow || flows < 1 ? rate : rate / flows;
	int capped, e;

	if (rate <= 0)
		return;
	e = pace_sock(fd, (uint64_t)(per + 0.5), &capped);
	if (e)
		die("--rate: the kernel does not pace this socket (SO_MAX_PACING_RATE, phase: %s setup): %s",
		    side, strerror(-e));
	if (capped)
		log_warn("--rate: this kernel's SO_MAX_PACING_RATE holds 32 bits: each socket paced at 4.29 GB/s at most");
}

void rate_keep(struct pace_keep *k, double target, const int *fds, int n,
	       const uint64_t *sent)
{
	int e;

	*k = (struct pace_keep){0};
	if (target <= 0)
		return;
	e = pace_keep_start(k, target, fds, n, pace_read_ctr, (void *)sent);
	if (e) /* the run goes on at the kernel's pace */
		log_warn("--rate: no keeper thread (%s): the kernel's pacing alone may fall behind the target",
			 strerror(-e));
}

void rate_keep_stop(struct pace_keep *k)
{
	pace_keep_stop(k);
}

/* Bytes per second of n bytes in secs. */
static double bps(uint64_t n, double secs)
{
	return secs > 0 ? (double)n / secs : 0;
}

void rate_other_way(struct sample *s, uint64_t bytes, double secs)
{
	struct rate_part *p = rate_of(s);

	if (!p)
		return;
	p->has_rev = 1;
	p->rev_bps = bps(bytes, secs);
}

/* The rate the other way of --bidir went (NAN without one). */
static double rev_achieved(const struct sample *s)
{
	const struct rate_part *p = rate_of(s);

	return p->has_rev ? p->rev_bps : NAN;
}

/* One direction's "achieved 124.9 MB/s (-0.1%)", and the miss. */
static void achieved_words(char *b, size_t len, double got, double target)
{
	double off = pace_off_pct(got, target);

	snprintf(b, len, "achieved %.1f MB/s (%+.1f%%)%s", got / 1e6, off,
		 pace_missed(got, target) ? ": MISSED the target by more "
					    "than 5%, these figures are not "
					    "the target rate's" : "");
}

static void rate_lines(const char *side, const struct cfg *c,
		       const struct sample *s)
{
	const struct rate_part *p = rate_of(s);
	double rev = rev_achieved(s);
	char r[32], a[160];

	(void)c;
	units_fmt_rate(p->target * 8, r, sizeof(r));
	achieved_words(a, sizeof(a), bps(s->bytes, s->elapsed_s), p->target);
	fprintf(ttcp_out, "ttcp-%s: rate: target %s (%.1f MB/s, paced by %s), %s\n",
		side, r, p->target / 1e6,
		p->paced_by == PACED_APP ? "ttcp-sf's token bucket"
					 : "the kernel: SO_MAX_PACING_RATE",
		a);
	if (isfinite(rev)) {
		achieved_words(a, sizeof(a), rev, p->target);
		fprintf(ttcp_out, "ttcp-%s: rate: other way %s\n", side, a);
	}
}

static void rate_params(json_t *params, const struct cfg *c,
			const struct sample *s)
{
	char r[32];

	(void)c;
	json_object_set_new(params, "rate",
			    json_string(units_fmt_rate(rate_of(s)->target * 8,
						       r, sizeof(r))));
}

/* The sample's "rate": the target, what this side (and the peer)
 * achieved, and the miss, also said in the warnings. */
static void rate_doc(struct res_doc *d, const struct cfg *c, json_t *j,
		     const struct sample *s, const struct ctl_report *rep,
		     int same_box)
{
	const struct rate_part *p = rate_of(s);
	double got = bps(s->bytes, s->elapsed_s), rev = rev_achieved(s);
	int missed = pace_missed(got, p->target) ||
		     (isfinite(rev) && pace_missed(rev, p->target));
	json_t *r;

	(void)c, (void)same_box;
	r = res_rate_json(p->target, got, rate_pacer_name(p->paced_by));
	json_object_set_new(r, "missed", json_boolean(missed));
	if (isfinite(rev))
		json_object_set_new(r, "rev_achieved_MBps", json_real(rev / 1e6));
	if (rep)
		json_object_set_new(r, "remote_achieved_MBps",
				    json_real(bps(rep->bytes, rep->elapsed_s) /
					      1e6));
	json_object_set_new(j, "rate", r);
	if (missed)
		res_warn(d, "a sample missed its target rate %.1f MB/s by more than 5%% (achieved %.1f MB/s%s)",
			 p->target / 1e6, got / 1e6,
			 isfinite(rev) ? " and the other way more" : "");
}

/* The target into the hello: a forward stream's receiver learns it. */
static void rate_counts(struct ctl_hello *h, struct ctl_report *rep,
			const struct sample *s)
{
	(void)rep;
	if (!h)
		return;
	h->rate = rate_of(s)->target;
	h->paced_by = rate_of(s)->paced_by;
}

/* -r: a hello that names a target brings the part. */
static void rate_hello(struct sample *s, const struct ctl_hello *h)
{
	if (h->rate > 0)
		rate_add(s, h->rate, h->paced_by);
}

const struct ttcp_part rate_part = {
	.name = "rate", .size = sizeof(struct rate_part),
	.lines = rate_lines, .params = rate_params, .doc = rate_doc,
	.counts = rate_counts, .hello = rate_hello};
