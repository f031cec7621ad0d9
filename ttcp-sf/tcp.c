/*
 * tcp.c: TCP's facts of a sample (tcp.h): the flows' sockets read at
 * the start, at every -i interval (from the reporter's thread, under the
 * part's lock) and last before each closes; the part's lines, document
 * and report counts.
 */
#include "config.h"
#include "flows.h"
#include "ival.h"
#include "log.h"
#include "tcp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FLOW_LINES 16 /* -i: per-flow lines for this many flows at most */

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (!p)
		die("out of memory (TCP facts of %zu flows)", n);
	return p;
}

static void release(struct tcp_part *p)
{
	if (!p->fd)
		return;
	pthread_mutex_destroy(&p->lock);
	free(p->fd);
	free(p->ti);
	free(p->mark);
	p->fd = NULL;
	p->ti = p->mark = NULL;
}

/* One flow's reading now: its socket's, or its last once done. */
static struct tcpinfo now_of(struct tcp_part *p, int i)
{
	struct tcpinfo t;

	if (p->fd[i] >= 0 && !tcpinfo_read(p->fd[i], &t))
		p->ti[i] = t;
	return p->ti[i];
}

/* -i: the interval's facts, the sum of the flows' (and each flow's, in
 * the JSON and, for a few flows, a line each). */
static void interval(void *arg, const char *label, double secs, json_t *j,
		     char *suffix, size_t slen, char *lines, size_t llen)
{
	struct tcp_part *p = arg;
	struct tcpinfo cur, d, sum = {0};
	json_t *a = p->n > 1 ? json_array() : NULL;
	size_t used = 0;
	char b[160];
	int i;

	pthread_mutex_lock(&p->lock);
	for (i = 0; i < p->n; i++) {
		cur = now_of(p, i);
		tcpinfo_delta(&d, &cur, &p->mark[i]);
		p->mark[i] = cur;
		tcpinfo_add(&sum, &d);
		if (a)
			json_array_append_new(a, tcpinfo_json(&d));
		if (p->n > 1 && p->n <= FLOW_LINES && used < llen)
			used += (size_t)snprintf(
				lines + used, llen - used,
				"%s:   flow %d: %.1f MB/s %s\n", label, i + 1,
				secs > 0 ? (double)(d.bytes_acked +
						    d.bytes_received) /
						   secs / 1e6
					 : 0,
				tcpinfo_line(b, sizeof(b), &d, 1));
	}
	pthread_mutex_unlock(&p->lock);
	json_object_set_new(j, "tcp", tcpinfo_json(&sum));
	if (a)
		json_object_set_new(j, "tcp_flows", a);
	snprintf(suffix, slen, "  %s", tcpinfo_line(b, sizeof(b), &sum, 1));
}

struct tcp_part *tcp_watch(struct sample *s, const int *fds, int n)
{
	struct tcp_part *p = sample_add(s, &tcp_part);
	int i;

	release(p); /* a connection that closed empty had one */
	p->n = n;
	p->fd = xcalloc((size_t)n, sizeof(int));
	p->ti = xcalloc((size_t)n, sizeof(*p->ti));
	p->mark = xcalloc((size_t)n, sizeof(*p->mark));
	pthread_mutex_init(&p->lock, NULL);
	for (i = 0; i < n; i++) {
		p->fd[i] = fds ? fds[i] : -1;
		p->mark[i] = now_of(p, i);
	}
	ival_extra(ttcp_iv, interval, p);
	return p;
}

void tcp_done(struct sample *s, int i)
{
	struct tcp_part *p = tcp_of(s);

	if (!p || !p->fd || i < 0 || i >= p->n)
		return;
	pthread_mutex_lock(&p->lock);
	now_of(p, i);
	p->fd[i] = -1;
	pthread_mutex_unlock(&p->lock);
}

void tcp_drop(struct sample *s)
{
	ival_extra(ttcp_iv, NULL, NULL);
	sample_drop(s, &tcp_part);
}

void tcp_conn(struct sample *s, int fd)
{
	struct tcp_part *p = tcp_of(s);
	struct tcpinfo t;

	if (!p || !p->fd)
		p = tcp_watch(s, NULL, 1);
	if (tcpinfo_read(fd, &t))
		return;
	pthread_mutex_lock(&p->lock);
	tcpinfo_chain(&p->ti[0], &t);
	pthread_mutex_unlock(&p->lock);
}

int tcp_sum(const struct sample *s, struct tcpinfo *sum)
{
	const struct tcp_part *p = tcp_of(s);
	int i;

	memset(sum, 0, sizeof(*sum));
	if (!p || !p->fd)
		return 0;
	for (i = 0; i < p->n; i++)
		tcpinfo_add(sum, &p->ti[i]);
	return sum->flows > 0;
}

const char *tcp_flow_words(const struct sample *s, int i, char *b,
			   size_t len)
{
	const struct tcp_part *p = tcp_of(s);
	char l[160];

	b[0] = 0;
	if (p && p->fd && i < p->n && p->ti[i].flows)
		snprintf(b, len, " %s", tcpinfo_line(l, sizeof(l), &p->ti[i], 1));
	return b;
}

/* The sum of a report's flows; 0 when it has none. */
static int remote_sum(const struct ctl_report *rep, struct tcpinfo *sum)
{
	int i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; rep && i < rep->ntcp; i++)
		tcpinfo_add(sum, &rep->tcp[i]);
	return sum->flows > 0;
}

static void tcp_lines(const char *side, const struct cfg *c,
		      const struct sample *s)
{
	struct tcpinfo sum;
	char b[512];

	(void)c;
	if (!tcp_sum(s, &sum))
		return;
	if (sum.flows > 1 && tcp_of(s)->n > 1)
		fprintf(ttcp_out, "ttcp-%s: tcp (%d flows): %s\n", side,
			tcp_of(s)->n, tcpinfo_line(b, sizeof(b), &sum, 0));
	else if (sum.flows > 1) /* --crr */
		fprintf(ttcp_out, "ttcp-%s: tcp (%u connections): %s\n", side,
			sum.flows, tcpinfo_line(b, sizeof(b), &sum, 0));
	else
		fprintf(ttcp_out, "ttcp-%s: tcp: %s\n", side,
			tcpinfo_line(b, sizeof(b), &sum, 0));
}

/* The metrics of a side's sum: retransmits and the limited times. */
static void metrics(struct res_doc *d, json_t *j, const char *side,
		    const struct tcpinfo *t)
{
	static const char *const what[] = {"retrans", "rwnd_limited_pct",
					   "sndbuf_limited_pct"};
	double v[3] = {(double)t->retrans, tcpinfo_pct(t, t->rwnd_limited_us),
		       tcpinfo_pct(t, t->sndbuf_limited_us)};
	char name[64];
	int i;

	for (i = 0; i < 3; i++) {
		if (!isfinite(v[i])) /* never busy sending: no share */
			continue;
		snprintf(name, sizeof(name), "tcp_%s_%s", side, what[i]);
		res_metric(d, name, i ? "%" : "segments", RES_LOWER, 0);
		res_sample_set(j, name, v[i]);
	}
}

/* Each flow's facts into the sample's "flows" entries (key). */
static void per_flow(json_t *j, const char *key, const struct tcpinfo *t,
		     int n)
{
	json_t *fl = json_object_get(j, "flows");
	int i;

	for (i = 0; i < n && i < (int)json_array_size(fl); i++)
		json_object_set_new(json_array_get(fl, (size_t)i), key,
				    tcpinfo_json(&t[i]));
}

static void tcp_doc(struct res_doc *d, const struct cfg *c, json_t *j,
		    const struct sample *s, const struct ctl_report *rep,
		    int same_box)
{
	const struct tcp_part *p = tcp_of(s);
	json_t *r = json_object_get(j, "remote");
	struct tcpinfo sum;

	(void)c, (void)same_box;
	if (tcp_sum(s, &sum)) {
		json_object_set_new(j, "tcp", tcpinfo_json(&sum));
		metrics(d, j, "local", &sum);
		if (p->n > 1)
			per_flow(j, "tcp", p->ti, p->n);
	}
	if (!remote_sum(rep, &sum))
		return;
	if (r)
		json_object_set_new(r, "tcp", tcpinfo_json(&sum));
	metrics(d, j, "remote", &sum);
	if (rep->ntcp > 1)
		per_flow(j, "remote_tcp", rep->tcp, rep->ntcp);
}

/* The receiver's readings into its report: each flow's, or for many
 * their sum. */
static void tcp_counts(struct ctl_hello *h, struct ctl_report *rep,
		       const struct sample *s)
{
	struct tcp_part *p = tcp_of(s);

	if (h || !p->fd)
		return;
	if (p->n <= TCP_REPORT_FLOWS) {
		rep->ntcp = p->n;
		rep->tcp = p->ti;
		return;
	}
	tcp_sum(s, &p->sum);
	rep->ntcp = 1;
	rep->tcp = &p->sum;
}

/* -t: the receiver's facts, beside its counts. */
static void tcp_check_report(const struct cfg *c, const struct sample *s,
			     const struct ctl_report *rep)
{
	struct tcpinfo sum;
	char b[512];

	(void)c, (void)s;
	if (remote_sum(rep, &sum))
		fprintf(ttcp_out, "ttcp-t: receiver's tcp: %s\n",
			tcpinfo_line(b, sizeof(b), &sum, 0));
}

static void tcp_free(void *data)
{
	release(data);
}

const struct ttcp_part tcp_part = {
	.name = "tcp", .size = sizeof(struct tcp_part), .lines = tcp_lines,
	.doc = tcp_doc, .counts = tcp_counts,
	.check_report = tcp_check_report, .free = tcp_free};
