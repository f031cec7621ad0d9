/*
 * ttcp-sf: ttcp with every transfer method of lib/xfer (write, sendfile,
 * splice, MSG_ZEROCOPY, io_uring ...), CPU measured on both ends.
 *
 *   receiver:     ttcp-sf -r -c [-m read|trunc|splice|zerocopy-receive]
 *   transmitter:  ttcp-sf -t -c [-m sendfile ...] -l 32768 receiver_host
 *
 * The wire is ttcp's, so either end works against a plain ttcp; when both
 * ends are ttcp-sf they meet again after the data (ctl.c) so the
 * transmitter prints local and remote CPU and service demand on one line.
 * See man/ttcp-sf.1.
 */
#include "config.h"
#include "hostinfo.h"
#include "log.h"
#include "sig.h"
#include "sock.h"
#include "stats.h"
#include "ttcp.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

FILE *ttcp_out;

static void cfg_defaults(struct cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->buflen = 8192;	/* ttcp's default */
	c->nbuf = 2048;		/* ttcp's default */
	c->port = TTCP_PORT;
	c->fmt = 'K';		/* ttcp prints KB/sec */
	c->affinity = -1;
	c->timeout_ms = 30000;
	c->report_ms = 5000;
	c->report = 1;
}

static json_t *cfg_json(const struct cfg *c)
{
	return json_pack("{s:s, s:I, s:I, s:i, s:s, s:i, s:i, s:I, s:I, s:b, s:b, s:s, s:s?, s:b, s:f, s:i, s:i, s:b}",
			 "side", c->trans ? "transmit" : "receive", "buflen",
			 (json_int_t)c->buflen, "nbuf", (json_int_t)c->nbuf,
			 "port", c->port, "proto", c->udp ? "udp" : "tcp",
			 "sockbuf", c->sockbuf, "nodelay", c->nodelay, "align",
			 (json_int_t)c->align, "offset",
			 (json_int_t)c->offset, "touch", c->touch, "cpu",
			 c->cpu, "method", c->method, "file", c->file, "hot",
			 c->hot, "duration_s", c->duration, "affinity",
			 c->affinity, "repeat", c->repeat, "verify",
			 c->verify);
}

void ttcp_socket_opts(const struct cfg *c, int fd, int sending)
{
	const char *cc = c->cc;

	if (c->sockbuf &&
	    sock_set_bufs(fd, sending ? c->sockbuf : 0,
			  sending ? 0 : c->sockbuf))
		log_warn("-b %d: %s", c->sockbuf, strerror(errno));
	sock_set_timeout(fd, c->timeout_ms);
	if (c->udp)
		return;
	if (c->nodelay && sock_set_nodelay(fd, 1))
		log_warn("-D: TCP_NODELAY: %s", strerror(errno));
	if (!cc && sock_cc_available("cubic"))
		cc = "cubic"; /* BBR caps loopback at ~3 GB/s */
	if (cc && sock_set_cc(fd, cc))
		log_warn("--cc %s: could not set it on the socket", cc);
}

void ttcp_print_rate(const char *side, const struct cfg *c,
		     const struct sample *s)
{
	const char *label;
	double v = units_rate((double)s->bytes, s->elapsed_s, c->fmt, &label);
	double t = s->elapsed_s > 0 ? s->elapsed_s : 1e-9;

	fprintf(ttcp_out, "ttcp-%s: %llu bytes in %.2f real seconds = %.2f %s/sec +++\n",
		side, (unsigned long long)s->bytes, s->elapsed_s, v, label);
	fprintf(ttcp_out, "ttcp-%s: %llu I/O calls, msec/call = %.2f, calls/sec = %.2f\n",
		side, (unsigned long long)s->calls,
		s->calls ? 1000.0 * t / (double)s->calls : 0.0,
		(double)s->calls / t);
}

json_t *ttcp_params(const char *method, const char *recv_method,
		    const struct cfg *c, const char *role, const char *source)
{
	return json_pack("{s:s, s:s, s:I, s:s, s:s, s:s}", "method", method,
			 "recv_method", recv_method, "size",
			 (json_int_t)c->buflen, "proto", c->udp ? "udp" : "tcp",
			 "role", role, "source", source);
}

/* --confidence: 1 when the interval of the throughputs so far is tight
 * enough (at least 3 samples), or the repeats are used up (then warn). */
int ttcp_confidence_done(const struct cfg *c, const double *mbps, int n,
			 struct res_doc *d)
{
	if (c->conf_level <= 0)
		return n >= c->repeat;
	if (n >= 3 && stats_confidence_reached(mbps, (size_t)n,
					       c->conf_level, c->conf_width))
		return 1;
	if (n < c->repeat)
		return 0;
	res_warn(d, "confidence %.0f%%,%.1f%% not reached in %d samples (ci95 half width %.1f%% of the mean)",
		 c->conf_level, c->conf_width, n,
		 100.0 * stats_ci_halfwidth(mbps, (size_t)n, c->conf_level / 100) /
			 stats_mean(mbps, (size_t)n));
	log_warn("confidence %.0f,%.1f not reached in %d samples", c->conf_level,
		 c->conf_width, n);
	return 1;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die_errno("--affinity %d", cpu);
}

int main(int argc, char **argv)
{
	struct res_doc *d;
	struct cfg c;
	char err[512];
	int r;

	log_init(argv[0]);
	cfg_defaults(&c);
	parse_opts(&c, argc, argv);
	if (!c.json_stdout && res_check_output(c.out, err, sizeof(err)))
		die("%s", err);
	ttcp_out = c.json_stdout ? stderr : stdout;
	sig_install();
	d = res_new("ttcp-sf", argc, argv);
	if (c.label)
		res_set_label(d, c.label);
	res_set_output(d, c.json_stdout ? "-" : c.out);
	res_set(d, "config", cfg_json(&c));
	res_metric(d, "throughput_MBps", "MB/s", RES_HIGHER, 1);
	res_metric(d, "elapsed_s", "s", RES_LOWER, 0);
	if (c.affinity >= 0)
		pin(c.affinity);
	r = c.trans ? do_transmit(&c, d) : do_receive(&c, d);
	if (sig_stop) {
		res_fail(d, "stopped by signal %d", (int)sig_stop);
		res_finish(d);
		return sig_exit_status();
	}
	if (res_finish(d))
		return 1;
	return r ? 1 : 0;
}
