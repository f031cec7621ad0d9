/*
 * tcpinfo.c: TCP_INFO read, added over flows, differenced over an
 * interval, written and read back as JSON, and said in a line
 * (tcpinfo.h).
 */
#include "config.h"
#include "tcpinfo.h"
#include "units.h"

#include <errno.h>
#include <linux/tcp.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#define MAX_COUNT (1ull << 62)	   /* any count beyond this is a lie */
#define MAX_US	  31536000000000ull /* a year, in microseconds */
#define MAX_RATE  1e14		   /* bytes/s: no link is faster */

int tcpinfo_read(int fd, struct tcpinfo *t)
{
	struct tcp_info ti;
	socklen_t l = sizeof(ti);

	memset(&ti, 0, sizeof(ti)); /* an older kernel fills less */
	memset(t, 0, sizeof(*t));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &l))
		return -errno;
	t->retrans = ti.tcpi_total_retrans;
	t->bytes_retrans = ti.tcpi_bytes_retrans;
	t->srtt_us = ti.tcpi_rtt;
	t->rttvar_us = ti.tcpi_rttvar;
	t->min_rtt_us = ti.tcpi_min_rtt == ~0u ? 0 : ti.tcpi_min_rtt;
	t->cwnd = ti.tcpi_snd_cwnd;
	t->ssthresh = ti.tcpi_snd_ssthresh >= TCPINFO_INFINITE
			      ? TCPINFO_INFINITE
			      : ti.tcpi_snd_ssthresh;
	t->mss = ti.tcpi_snd_mss;
	t->delivery_rate = ti.tcpi_delivery_rate;
	t->pacing_rate = ti.tcpi_pacing_rate;
	t->busy_us = ti.tcpi_busy_time;
	t->rwnd_limited_us = ti.tcpi_rwnd_limited;
	t->sndbuf_limited_us = ti.tcpi_sndbuf_limited;
	t->bytes_acked = ti.tcpi_bytes_acked;
	t->bytes_received = ti.tcpi_bytes_received;
	t->rcv_rtt_us = ti.tcpi_rcv_rtt;
	t->flows = 1;
	return 0;
}

/* The mean of a (over na flows) and b (over nb). */
static uint32_t mean_of(uint32_t a, uint32_t na, uint32_t b, uint32_t nb)
{
	return na + nb ? (uint32_t)(((uint64_t)a * na + (uint64_t)b * nb) /
				    (na + nb))
		       : 0;
}

void tcpinfo_add(struct tcpinfo *s, const struct tcpinfo *t)
{
	uint32_t n = s->flows;

	s->retrans += t->retrans;
	s->bytes_retrans += t->bytes_retrans;
	s->srtt_us = mean_of(s->srtt_us, n, t->srtt_us, t->flows);
	s->rttvar_us = mean_of(s->rttvar_us, n, t->rttvar_us, t->flows);
	s->rcv_rtt_us = mean_of(s->rcv_rtt_us, n, t->rcv_rtt_us, t->flows);
	if (t->min_rtt_us && (!s->min_rtt_us || t->min_rtt_us < s->min_rtt_us))
		s->min_rtt_us = t->min_rtt_us;
	s->cwnd += t->cwnd;
	s->ssthresh = s->ssthresh == TCPINFO_INFINITE ||
			      t->ssthresh == TCPINFO_INFINITE
		      ? TCPINFO_INFINITE
		      : s->ssthresh + t->ssthresh;
	if (!n)
		s->ssthresh = t->ssthresh;
	s->mss = t->mss > s->mss ? t->mss : s->mss;
	s->delivery_rate += t->delivery_rate;
	s->pacing_rate = s->pacing_rate == ~0ull || t->pacing_rate == ~0ull
				 ? ~0ull
				 : s->pacing_rate + t->pacing_rate;
	s->busy_us += t->busy_us;
	s->rwnd_limited_us += t->rwnd_limited_us;
	s->sndbuf_limited_us += t->sndbuf_limited_us;
	s->bytes_acked += t->bytes_acked;
	s->bytes_received += t->bytes_received;
	s->flows += t->flows;
}

static uint64_t mean64(uint64_t a, uint32_t na, uint64_t b, uint32_t nb)
{
	return na + nb ? (uint64_t)(((double)a * na + (double)b * nb) /
				    (na + nb))
		       : 0;
}

void tcpinfo_chain(struct tcpinfo *s, const struct tcpinfo *t)
{
	struct tcpinfo g = *s; /* the gauges before the counters add */
	uint32_t n = s->flows, m = t->flows;

	tcpinfo_add(s, t);
	s->cwnd = mean_of(g.cwnd, n, t->cwnd, m);
	s->ssthresh = g.ssthresh == TCPINFO_INFINITE || !n ? t->ssthresh
		      : t->ssthresh == TCPINFO_INFINITE
			      ? g.ssthresh
			      : mean_of(g.ssthresh, n, t->ssthresh, m);
	s->delivery_rate = mean64(g.delivery_rate, n, t->delivery_rate, m);
	s->pacing_rate = g.pacing_rate == ~0ull || t->pacing_rate == ~0ull
				 ? ~0ull
				 : mean64(g.pacing_rate, n, t->pacing_rate, m);
}

static uint64_t minus(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void tcpinfo_delta(struct tcpinfo *d, const struct tcpinfo *now,
		   const struct tcpinfo *before)
{
	*d = *now;
	d->retrans = minus(now->retrans, before->retrans);
	d->bytes_retrans = minus(now->bytes_retrans, before->bytes_retrans);
	d->busy_us = minus(now->busy_us, before->busy_us);
	d->rwnd_limited_us = minus(now->rwnd_limited_us,
				   before->rwnd_limited_us);
	d->sndbuf_limited_us = minus(now->sndbuf_limited_us,
				     before->sndbuf_limited_us);
	d->bytes_acked = minus(now->bytes_acked, before->bytes_acked);
	d->bytes_received = minus(now->bytes_received, before->bytes_received);
}

double tcpinfo_pct(const struct tcpinfo *t, uint64_t limited_us)
{
	return t->busy_us ? 100.0 * (double)limited_us / (double)t->busy_us
			  : NAN;
}

static json_t *pct_json(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *tcpinfo_json(const struct tcpinfo *t)
{
	json_t *j = json_object();

#define SET_INT(k, v) json_object_set_new(j, k, json_integer((json_int_t)(v)))
	SET_INT("retrans", t->retrans);
	SET_INT("bytes_retrans", t->bytes_retrans);
	SET_INT("srtt_us", t->srtt_us);
	SET_INT("rttvar_us", t->rttvar_us);
	SET_INT("min_rtt_us", t->min_rtt_us);
	SET_INT("cwnd", t->cwnd);
	SET_INT("mss", t->mss);
	SET_INT("busy_us", t->busy_us);
	SET_INT("rwnd_limited_us", t->rwnd_limited_us);
	SET_INT("sndbuf_limited_us", t->sndbuf_limited_us);
	SET_INT("bytes_acked", t->bytes_acked);
	SET_INT("bytes_received", t->bytes_received);
	SET_INT("rcv_rtt_us", t->rcv_rtt_us);
	SET_INT("flows", t->flows);
#undef SET_INT
	json_object_set_new(j, "ssthresh",
			    t->ssthresh == TCPINFO_INFINITE
				    ? json_null()
				    : json_integer(t->ssthresh));
	json_object_set_new(j, "delivery_rate_MBps",
			    json_real((double)t->delivery_rate / 1e6));
	json_object_set_new(j, "pacing_rate_MBps",
			    t->pacing_rate == ~0ull
				    ? json_null()
				    : json_real((double)t->pacing_rate / 1e6));
	json_object_set_new(j, "rwnd_limited_pct",
			    pct_json(tcpinfo_pct(t, t->rwnd_limited_us)));
	json_object_set_new(j, "sndbuf_limited_pct",
			    pct_json(tcpinfo_pct(t, t->sndbuf_limited_us)));
	return j;
}

/* Field k of j, an integer in [0, max]; -EINVAL with err naming it. */
static int get_count(json_t *j, const char *k, uint64_t max, uint64_t *out,
		     char *err, size_t len)
{
	json_t *v = json_object_get(j, k);

	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    (uint64_t)json_integer_value(v) > max) {
		snprintf(err, len, "TCP facts: field \"%s\" %s (0 to %llu)", k,
			 json_is_integer(v) ? "out of range"
					    : "missing or not an integer",
			 (unsigned long long)max);
		return -EINVAL;
	}
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

static int get_u32(json_t *j, const char *k, uint32_t *out, char *err,
		   size_t len)
{
	uint64_t v;

	if (get_count(j, k, UINT32_MAX, &v, err, len))
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* A rate in MB/s (null: nul, when allowed) into bytes/s. */
static int get_rate(json_t *j, const char *k, uint64_t nul, uint64_t *out,
		    char *err, size_t len)
{
	json_t *v = json_object_get(j, k);

	if (json_is_null(v) && nul) {
		*out = nul;
		return 0;
	}
	if (!json_is_number(v) || !(json_number_value(v) >= 0) ||
	    json_number_value(v) * 1e6 > MAX_RATE) {
		snprintf(err, len, "TCP facts: field \"%s\" not a rate (0 to %.0f MB/s)",
			 k, MAX_RATE / 1e6);
		return -EINVAL;
	}
	*out = (uint64_t)(json_number_value(v) * 1e6 + 0.5);
	return 0;
}

int tcpinfo_from_json(json_t *j, struct tcpinfo *t, char *err, size_t len)
{
	json_t *ss = json_object_get(j, "ssthresh");
	uint64_t v;

	memset(t, 0, sizeof(*t));
	if (!json_is_object(j)) {
		snprintf(err, len, "TCP facts: not an object");
		return -EINVAL;
	}
	if (get_count(j, "retrans", MAX_COUNT, &t->retrans, err, len) ||
	    get_count(j, "bytes_retrans", MAX_COUNT, &t->bytes_retrans, err,
		      len) ||
	    get_u32(j, "srtt_us", &t->srtt_us, err, len) ||
	    get_u32(j, "rttvar_us", &t->rttvar_us, err, len) ||
	    get_u32(j, "min_rtt_us", &t->min_rtt_us, err, len) ||
	    get_u32(j, "cwnd", &t->cwnd, err, len) ||
	    get_u32(j, "mss", &t->mss, err, len) ||
	    get_count(j, "busy_us", MAX_US, &t->busy_us, err, len) ||
	    get_count(j, "rwnd_limited_us", t->busy_us, &t->rwnd_limited_us,
		      err, len) ||
	    get_count(j, "sndbuf_limited_us", t->busy_us,
		      &t->sndbuf_limited_us, err, len) ||
	    get_count(j, "bytes_acked", MAX_COUNT, &t->bytes_acked, err, len) ||
	    get_count(j, "bytes_received", MAX_COUNT, &t->bytes_received, err,
		      len) ||
	    get_u32(j, "rcv_rtt_us", &t->rcv_rtt_us, err, len) ||
	    get_count(j, "flows", 1u << 20, &v, err, len) ||
	    get_rate(j, "delivery_rate_MBps", 0, &t->delivery_rate, err,
		     len) ||
	    get_rate(j, "pacing_rate_MBps", ~0ull, &t->pacing_rate, err, len))
		return -EINVAL;
	t->flows = (uint32_t)v;
	if (json_is_null(ss)) {
		t->ssthresh = TCPINFO_INFINITE;
	} else if (get_u32(j, "ssthresh", &t->ssthresh, err, len) ||
		   t->ssthresh > TCPINFO_INFINITE) {
		snprintf(err, len, "TCP facts: field \"ssthresh\" out of range");
		return -EINVAL;
	}
	return 0;
}

/* A time: under a millisecond in us, else ms with two decimals. */
static const char *when(char *b, size_t len, uint32_t us)
{
	if (us < 1000)
		snprintf(b, len, "%u us", us);
	else
		snprintf(b, len, "%.2f ms", us / 1000.0);
	return b;
}

const char *tcpinfo_line(char *buf, size_t len, const struct tcpinfo *t,
			 int terse)
{
	char rb[32], ss[16], pace[32], a[24], b[24], c[24];

	if (terse) {
		snprintf(buf, len, "retr %llu cwnd %u srtt %s",
			 (unsigned long long)t->retrans, t->cwnd,
			 when(a, sizeof(a), t->srtt_us));
		return buf;
	}
	units_fmt_bytes_si((double)t->bytes_retrans, rb, sizeof(rb), 0);
	if (t->ssthresh == TCPINFO_INFINITE)
		snprintf(ss, sizeof(ss), "-");
	else
		snprintf(ss, sizeof(ss), "%u", t->ssthresh);
	if (t->pacing_rate == ~0ull)
		snprintf(pace, sizeof(pace), "-");
	else
		snprintf(pace, sizeof(pace), "%.1f MB/s",
			 (double)t->pacing_rate / 1e6);
	snprintf(buf, len,
		 "retr %llu (%s) srtt %s (rttvar %s) min rtt %s cwnd %u ssthresh %s delivery %.1f MB/s pacing %s busy %.2f s: rwnd-limited %.1f%%, sndbuf-limited %.1f%%",
		 (unsigned long long)t->retrans, rb,
		 when(a, sizeof(a), t->srtt_us),
		 when(b, sizeof(b), t->rttvar_us),
		 when(c, sizeof(c), t->min_rtt_us), t->cwnd, ss,
		 (double)t->delivery_rate / 1e6, pace, t->busy_us / 1e6,
		 t->busy_us ? tcpinfo_pct(t, t->rwnd_limited_us) : 0.0,
		 t->busy_us ? tcpinfo_pct(t, t->sndbuf_limited_us) : 0.0);
	return buf;
}
