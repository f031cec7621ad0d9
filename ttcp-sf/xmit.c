/*
 * xmit.c: the transmitting side (-t). Per sample: connect, send with the
 * chosen method from the shared source, half-close and wait until the
 * receiver has read everything (so the time is end to end), then the
 * end-of-run exchange for the receiver's figures. UDP uses ttcp's framing:
 * a 4-byte start datagram, data datagrams that begin with "ZCBU" and a
 * sequence number, and 4 end datagrams holding the count sent.
 */
#include "config.h"
#include "xmit.h"
#include "clock.h"
#include "dir.h"
#include "flows.h"
#include "ival.h"
#include "log.h"
#include "peerrep.h"
#include "quiet.h"
#include "rate.h"
#include "rr.h"
#include "udp.h"
#include "series.h"
#include "sig.h"
#include "sock.h"
#include "stats.h"
#include "ttcp.h"
#include "units.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define SRC_MIN (32ull << 20)	/* automatic source: at least this */
#define SRC_MAX (256ull << 20)	/* and at most this */


void xmit_open_source(struct xmit *t)
{
	const struct cfg *c = t->c;
	uint64_t size = c->source_size;
	char err[512], b[32];
	int r;

	fprintf(ttcp_out, "ttcp-t: buflen=%zu, nbuf=%ld, align=%zu/%zu, port=%d  %s  -> %s\n",
		c->buflen, c->nbuf, c->align, c->offset, c->port,
		c->udp ? "udp" : "tcp", c->host);
	if (!c->file && !size) {
		size = c->duration > 0 ? SRC_MAX : (uint64_t)c->buflen * c->nbuf;
		size = size < SRC_MIN ? SRC_MIN : size > SRC_MAX ? SRC_MAX : size;
	}
	fflush(ttcp_out); /* before the wait for the file */
	r = xfer_source_open(&t->src, c->file, size, c->buflen, c->align,
			     c->offset, c->hot, &sig_stop, err, sizeof(err));
	if (r == -EINTR)
		out_interrupted("t", "making the source", err);
	if (r)
		die("%s", err);
	t->have_src = 1;
	t->src.touch = c->touch;
	t->source = c->hot && (t->ops->flags & XFER_HOT_BUF) ? "hot" : "file";
	/* seed 001's command line has no -m: say what that sends with */
	fprintf(ttcp_out, "ttcp-t: method %s%s, source %s: %s %s%s\n",
		t->ops->name,
		c->method_default ? " (the default, a copy: -m sendfile sends "
				    "as the 2001 ttcp-sf did)"
				  : "",
		t->source,
		units_fmt_bytes((double)t->src.size, b, sizeof(b)),
		c->file ? c->file : "temp file of the pattern",
		c->hot && !(t->ops->flags & XFER_HOT_BUF) ? " (--hot: this method sends the file)" :
					     "");
}


/*
 * The end-of-run exchange. 1 with *rep filled, 0 when the receiver took
 * no hello (a plain ttcp: why says so); a malformed answer is fatal.
 * The hello decides after the report: *fd keeps the connection for the
 * next frame (send_next).
 */
static int exchange(struct xmit *t, const struct sample *s, int idx,
		    struct ctl_report *rep, int *fd_out, char *why,
		    size_t wlen)
{
	const struct cfg *c = t->c;
	struct ctl_hello h;
	char err[512];
	size_t got = 0;
	json_t *j;
	int fd, r, i;

	memset(&h, 0, sizeof(h));
	snprintf(h.method, sizeof(h.method), "%s", t->ops->name);
	snprintf(h.source, sizeof(h.source), "%s", t->source);
	snprintf(h.proto, sizeof(h.proto), "%s", c->udp ? "udp" : "tcp");
	snprintf(h.hostname, sizeof(h.hostname), "%s", t->me);
	snprintf(h.boot_id, sizeof(h.boot_id), "%s", t->boot);
	h.buflen = c->buflen;
	h.bytes = s->bytes + s->omit_bytes; /* all of them: --omit too */
	h.dgrams = s->dgrams;
	h.sample = idx;
	h.more = 1; /* the next frame says */
	h.decide = 1;
	h.omit_s = t->c->com.omit;
	h.self_cpu_s = quiet_self_cpu_s(&s->cpu.quiet);
	for (i = 0; ttcp_parts[i]; i++)
		if (s->part[i] && ttcp_parts[i]->counts)
			ttcp_parts[i]->counts(&h, NULL, s);
	h.soak = s->paired ? s->metered : -1;
	h.pair = s->pair;
	h.soak_next = -1; /* the next frame says */
	*fd_out = -1;
	fd = sock_connect(c->host, c->port, SOCK_STREAM, c->report_ms, err,
			  sizeof(err));
	if (fd < 0) {
		snprintf(why, wlen, "no report: the receiver took no report connection (plain ttcp?): %s",
			 err);
		return 0;
	}
	j = ctl_hello_build(&h);
	r = peerrep_send(fd, j, c->report_ms);
	json_decref(j);
	if (r)
		snprintf(err, sizeof(err), "%s", strerror(-r));
	else /* the whole report within --report-timeout */
		r = ctl_recv_frame(fd, c->report_ms, &j, &got, err,
				   sizeof(err));
	if (r)
		close(fd);
	else
		*fd_out = fd;
	if (r == -EINVAL)
		die("receiver %s:%d (phase: report): %s", c->host, c->port, err);
	if (r && got) {
		snprintf(why, wlen, "no report: the receiver's report %s (phase: report)",
			 err);
		return 0;
	}
	if (r) {
		snprintf(why, wlen, "no report: the receiver did not answer (plain ttcp?): %s",
			 err);
		return 0;
	}
	r = ctl_report_parse(j, rep, err, sizeof(err));
	json_decref(j);
	if (r)
		die("receiver %s:%d (phase: report): %s", c->host, c->port, err);
	return 1;
}

/* The peer's close of fd, at most ms in all (what it sends instead is
 * read and dropped; one that trickles is waited for no longer). */
static void await_close(int fd, int ms)
{
	double end = clock_now() + ms / 1000.0, left;
	char b[256];

	while ((left = end - clock_now()) > 0 &&
	       sock_wait(fd, POLLIN, (int)(left * 1000) + 1) > 0)
		if (read(fd, b, sizeof(b)) <= 0)
			return;
}

/*
 * After a deciding hello's report: the next frame (whether another run
 * follows, its kind, and whether this one is made again), then the
 * receiver's close once it parked or woke its soakers for that run, at
 * most --report-timeout. A receiver that is gone costs its next
 * figures, not this run.
 */
static void send_next(struct xmit *t, const struct series_run *r, int more)
{
	const struct cfg *c = t->c;
	const struct quiet_sample *q = &t->s.cpu.quiet;
	struct ctl_next n = {
		.more = more,
		.soak_next = more && r->paired ? r->next_metered : -1,
		.rerun = r->again,
		.steal_pct = q->ok ? q->steal_pct : 0,
		.outside_pct = q->outside_pct,
		.steal_max = c->com.steal_max,
		.outside_max = c->com.outside_max,
	};
	json_t *j = ctl_next_build(&n);
	int e = peerrep_send(t->ctl_fd, j, c->report_ms);

	json_decref(j);
	if (e)
		log_warn("receiver %s:%d (phase: next): %s", c->host, c->port,
			 strerror(-e));
	else /* its close: the soakers are where the next run wants them */
		await_close(t->ctl_fd, c->report_ms);
	close(t->ctl_fd);
	t->ctl_fd = -1;
}

/* Both ends left out the same first seconds (--omit), within a tenth
 * and 100 ms; else once, a line and a warning: their windows differ. */
static void check_omit(struct xmit *t, const struct ctl_report *rep)
{
	double mine = t->c->com.omit, theirs = rep->omit_s;

	if (t->omit_told || (mine <= 0 && theirs <= 0) ||
	    fabs(mine - theirs) <= 0.1 + 0.1 * mine)
		return;
	t->omit_told = 1;
	fprintf(ttcp_out, "ttcp-t: the receiver left out the first %.3f s of its stream, this side %g s: their windows differ (give both ends the same --omit)\n",
		theirs, mine);
	res_warn(t->d, "the receiver left out the first %.3f s of its stream, the transmitter %g s: their windows differ (give both ends the same --omit)",
		 theirs, mine);
}

/* The receiver's counts against this side's: the bytes (UDP loses some
 * by design, request/response counts transactions), the pattern, then
 * each part's own. */
static void check_report(struct xmit *t, const struct sample *s,
			 const struct ctl_report *rep)
{
	const struct cfg *c = t->c;
	int i;

	for (i = 0; ttcp_parts[i]; i++) /* UDP's line comes last */
		if (s->part[i] && ttcp_parts[i] != &udp_part &&
		    ttcp_parts[i]->check_report)
			ttcp_parts[i]->check_report(c, s, rep);
	if (!sample_part(s, &udp_part) &&
	    rep->bytes != s->bytes + s->omit_bytes)
		die("receiver %s:%d got %llu bytes of %llu sent (phase: report)",
		    c->host, c->port, (unsigned long long)rep->bytes,
		    (unsigned long long)(s->bytes + s->omit_bytes));
	if (rep->bad_bytes)
		die("receiver %s:%d found %llu bytes not matching the pattern",
		    c->host, c->port, (unsigned long long)rep->bad_bytes);
	if (rep->verified)
		fprintf(ttcp_out, "ttcp-t: receiver verified the pattern of %llu bytes\n",
			(unsigned long long)rep->bytes);
	if (sample_part(s, &udp_part))
		udp_part.check_report(c, s, rep);
}

static void print_run_kind(const struct xmit *t, const struct sample *s)
{
	if (s->paired)
		fprintf(ttcp_out, "ttcp-t: pair %d, %s\n", s->pair + 1,
			meter_pair_run(t->paired_by, s->metered));
}

/* One sample of the mode, -i's reporter around. */
static void run_sample(struct xmit *t, int idx, struct sample *s)
{
	const struct cfg *c = t->c;

	ttcp_ival_start(c, "t", idx, c->rr != 0);
	if (c->rate > 0) /* before the run: --bidir gives it the other way */
		rate_add(s, rate_sample_target(c->rate, c->rate_per_flow,
					       c->flows),
			 c->udp ? PACED_APP : PACED_KERNEL);
	t->mode->xmit(t, s);
	s->intervals = ttcp_ival_stop(sample_count(s));
}

/*
 * The exchange of run r (when it has one), and whether the box was
 * quiet: a receiver on this box (its boot id is ours) is the run's,
 * with the CPU its report says it took. t->outcome.
 */
static void judge_run(struct xmit *t, const struct series_run *r)
{
	const struct cfg *c = t->c;
	struct sample *s = &t->s;

	snprintf(t->why, sizeof(t->why), "no report: --no-report");
	t->have_rep = 0;
	t->ctl_fd = -1;
	if (c->report && !sig_stop)
		t->have_rep = exchange(t, s, r->seq, &t->rep, &t->ctl_fd,
				       t->why, sizeof(t->why));
	else if (c->report) /* Ctrl-C: the receiver learns nothing more */
		snprintf(t->why, sizeof(t->why),
			 "no report: interrupted by a signal");
	if (t->have_rep && !strcmp(t->rep.boot_id, t->boot) &&
	    isfinite(t->rep.self_cpu_s))
		quiet_add_run_s(&s->cpu.quiet, t->rep.self_cpu_s);
	t->outcome = series_quiet(&t->ser, r, &s->cpu.quiet, t->quiet_why,
				  sizeof(t->quiet_why));
}

/* The series' run: one sample of the workload, its exchange, its rate. */
static int xmit_run(void *ctx, const struct series_run *r, double *rate,
		    char *err, size_t len)
{
	struct xmit *t = ctx;
	struct sample *s = &t->s;

	(void)err, (void)len;
	memset(s, 0, sizeof(*s));
	s->lost = -1;
	s->paired = r->paired;
	s->metered = r->metered;
	s->pair = r->rep;
	print_run_kind(t, s);
	run_sample(t, r->seq, s);
	*rate = sample_rate(s); /* MB/s, or transactions/s */
	judge_run(t, r);
	return t->outcome;
}

/* Before a run: park or wake this box's soakers. */
static int xmit_prepare(void *ctx, const struct series_run *r, char *err,
			size_t len)
{
	struct xmit *t = ctx;
	char e2[480];

	if (cpuwin_metered(&t->w, r->metered, e2, sizeof(e2))) {
		snprintf(err, len, "--cpu: %s", e2);
		return -1;
	}
	return 0;
}

/* Once the series judged the run: its lines, the exchange (more: another
 * run follows, the receiver is told), the sample into the document. */
static int xmit_done(void *ctx, const struct series_run *r, int more,
		     char *err, size_t len)
{
	struct xmit *t = ctx;
	const struct cfg *c = t->c;
	struct sample *s = &t->s;
	struct ctl_report rep = t->rep;
	char *why = t->why;
	int have = t->have_rep, same = 0, idx = r->seq;
	json_t *kase, *j;

	(void)err, (void)len;
	if (t->ctl_fd >= 0)
		send_next(t, r, more);
	out_lines("t", c, s);
	if (s->zc_warn[0])
		fprintf(ttcp_out, "ttcp-t: %s\n", s->zc_warn);
	if (have) {
		check_report(t, s, &rep);
		check_omit(t, &rep);
		same = !strcmp(rep.boot_id, t->boot) &&
		       !strcmp(rep.hostname, t->me);
		if (idx == 0)
			res_set_peer(t->d, json_incref(rep.host));
		if (!s->metered && meter_soak_ran(rep.cpu, rep.ncpu))
			res_warn(t->d, "the receiver's soakers ran during %s run %d: that rate is perturbed (give both ends the same --cpu)",
				 s->paired ? "unmetered" : "", idx);
	} else {
		if (idx == 0) {
			fprintf(ttcp_out, "ttcp-t: %s\n", why);
			res_warn(t->d, "%s", why);
		}
		if (c->require_peer)
			die("receiver %s:%d: %s (--require-peer)", c->host,
			    c->port, why);
	}
	out_cpu("t", c, s, have ? &rep : NULL, same, why);
	if (c->reverse) /* the receiver sent with write; this side read */
		j = out_params("write", t->ops->name, c, "transmit", "file");
	else
		j = out_params(t->ops->name, have ? rep.recv_method : "unknown",
			       c, "transmit", t->source);
	out_params_more(j, c, s);
	kase = res_case(t->d, j);
	j = out_sample(t->d, c, s, have ? &rep : NULL, same);
	out_sample_more(t->d, c, j, s, have ? &rep : NULL, same);
	series_quiet_doc(&t->ser, r, &s->cpu.quiet, t->outcome, j);
	if (s->paired)
		res_sample_pair(t->d, j, s->pair, s->metered);
	res_sample(kase, j);
	if (t->outcome == SERIES_DISTURBED)
		fprintf(ttcp_out, "ttcp-t: sample %d disturbed: %s\n", idx + 1,
			t->quiet_why);
	sample_free(s);
	if (have)
		ctl_report_free(&rep);
	t->have_rep = 0;
	return 0;
}

static const struct series_ops xmit_runs = {
	.prepare = xmit_prepare,
	.run = xmit_run,
	.done = xmit_done,
};

/* --confidence: the runs used up without it, said in the document. */
static void confidence_note(struct xmit *t)
{
	const struct cli_common *o = &t->c->com;
	double hw; /* ci half width, % of the mean */
	int n;

	series_results(&t->ser, 0, &n);
	if (series_confidence(&t->ser, 0, &hw) || sig_stop)
		return;
	res_warn(t->d, "confidence %.0f%%,%.1f%% not reached in %d samples (ci95 half width %.1f%% of the mean)",
		 o->conf_level, o->conf_width, n, hw);
	log_warn("confidence %.0f,%.1f not reached in %d samples", o->conf_level,
		 o->conf_width, n);
}

/* The closing lines: the median of the results, and with pairs what the
 * meter that pairs them did to the rate. */
static void summary(struct xmit *t)
{
	const struct cfg *c = t->c;
	const struct series *ser = &t->ser;
	int n, paired = ser->cfg.paired;
	struct stats_summary ss;
	const double *x = series_results(ser, 0, &n);
	char note[256], paced[64], r[32];

	if (n > 1) {
		stats_summarize(x, (size_t)n, &ss);
		fprintf(ttcp_out, "ttcp-t: %d %s: median %.1f %s (min %.1f, max %.1f, cov %.1f%%)\n",
			n, paired ? "unmetered runs" : "samples",
			ss.median, c->rr ? "trans/s" : "MB/s", ss.min, ss.max,
			100 * ss.cov);
	}
	if (paired && *series_perturbation_note(ser, 0, note, sizeof(note)))
		fprintf(ttcp_out, "ttcp-t: perturbation: %s\n", note);
	if (c->rr) {
		rr_out_summary(c, stats_median(x, (size_t)n), n,
			       paired ? t->paired_by : NULL);
		return;
	}
	paced[0] = 0;
	if (c->rate > 0)
		snprintf(paced, sizeof(paced), ", paced at %s",
			 units_fmt_rate(8 * rate_sample_target(c->rate,
							       c->rate_per_flow,
							       c->flows),
					r, sizeof(r)));
	fprintf(ttcp_out, "ttcp-sf: %s %s %zux%ld %s %s: %.1f MB/s%s%s%s%s%s\n",
		t->ops->name, c->udp ? "udp" : "tcp", c->buflen, c->nbuf,
		c->reverse ? "<-" : "->", c->host, stats_median(x, (size_t)n),
		n > 1 ? " (median)" : "", paced,
		paired ? ", unmetered runs; " : "",
		paired ? meter_words_of(t->paired_by)->from : "",
		paired ? " from the metered runs" : "");
}

/* The series of samples: --repeat results (--confidence), in pairs when
 * a meter here perturbs; the receiver keeps at most TTCP_MAX_SAMPLES. */
static void open_series(struct xmit *t)
{
	int paired = cpuwin_paired(&t->w), max = TTCP_MAX_SAMPLES;
	struct series_cfg sc = {
		.ncells = 1,
		.paired = paired,
		.paired_by = t->paired_by,
		.stop = &sig_stop,
	};
	char err[256];

	series_cfg_cli(&sc, &t->c->com);
	if (paired)
		max /= 2;
	if (sc.repeat > max)
		sc.repeat = max;
	/* the receiver keeps the re-runs too */
	if (sc.repeat + sc.reruns > max)
		sc.reruns = max - sc.repeat;
	if (series_open(&t->ser, &sc, err, sizeof(err)))
		die("%s", err);
}

int do_transmit(const struct cfg *c, struct res_doc *d)
{
	static struct xmit t;
	char err[512], why[256];

	t = (struct xmit){.c = c, .d = d, .ops = c->ops};
	t.mode = ttcp_xmit_mode(c);
	if (xfer_probe(t.ops, why, sizeof(why)))
		die("-m %s cannot run here: %s", t.ops->name, why);
	ctl_self(t.me, sizeof(t.me), t.boot, sizeof(t.boot));
	t.source = "none"; /* a mode that sends says what from */
	t.mode->xmit_open(&t);
	ttcp_cpu_open(c, &t.w);
	t.paired_by = cpuwin_paired_by(&t.w);
	if (c->com.cpu)
		out_meters("t", &t.w, d, 1);
	if (sig_stop)
		out_interrupted("t", "before the first connection", NULL);
	open_series(&t);
	if (series_run(&t.ser, &xmit_runs, &t, err, sizeof(err)))
		die("%s", err);
	confidence_note(&t);
	if (t.zc_copied)
		res_warn(d, "%s: %llu of %llu sends copied by the kernel",
			 t.ops->name, (unsigned long long)t.zc_copied,
			 (unsigned long long)t.zc_completions);
	summary(&t);
	series_close(&t.ser);
	cpuwin_close(&t.w);
	if (t.have_src)
		xfer_source_close(&t.src);
	return 0;
}
