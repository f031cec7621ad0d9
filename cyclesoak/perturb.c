/*
 * perturb.c: the self-test's second part: what the soakers cost the load
 * itself. A fixed CPU-bound task, a loopback TCP stream and a 1-byte
 * request/response, with both ends on one CPU and on two, each with the
 * box's soakers parked and running, in pairs, as ratios. A soaker on an
 * otherwise idle CPU makes every wake-up of that CPU an IPI to a busy
 * CPU: on bare metal a cross-CPU stream ran at 0.70-0.73x (in a VM whose
 * idle vCPUs halt, soakers can make it faster instead). Shown, never
 * hidden.
 *
 * A third, meterless arm in each round: every load once with no soak
 * host at all, after PERTURB_QUIET_S without soakers. The parked run of a
 * pair is the unmetered run every tool takes its rate from; parked over
 * meterless is what that rate still owes the soakers (on a VM the host
 * keeps the vCPUs awake for a while after them: the settle of
 * soak_pause, soak.h, waits that out), the bias.
 */
#include "config.h"
#include "clock.h"
#include "cyclesoak.h"
#include "log.h"
#include "series.h"
#include "sig.h"
#include "soak.h"
#include "sock.h"
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define STREAM_CHUNK 65536
#define PERTURB_REPS 3 /* running/parked pairs, interleaved */
#define PERTURB_LOADS 5 /* loads at most */
#define PERTURB_QUIET_S 5.0 /* no soakers this long before the meterless
			     * arm: longer than their mark lasts here */
#define PERTURB_GONE_S 60.0 /* the soak host exits within this (its
			     * idle-class soakers may wait for a CPU on a
			     * loaded box: a hang's limit, not a speed) */

/* A fixed amount of CPU work pinned to cpu; returns its seconds. */
double st_cpu_task(int cpu, uint64_t loops)
{
	volatile uint64_t x = 1;
	int fd[2];
	double t;
	pid_t p, me = getpid();

	if (pipe(fd))
		die_errno("pipe");
	p = fork();
	if (p == 0) {
		uint64_t i;

		sig_die_with_parent(SIGKILL, me);
		cs_pin(cpu);
		t = clock_now();
		for (i = 0; i < loops; i++)
			x = x * 2862933555777941757ull + 3037000493ull;
		cs_give_figure(fd[1], clock_now() - t);
	}
	close(fd[1]);
	return cs_take_figure(fd[0], &p, 1);
}

double st_stream(int a, int b, double seconds)
{
	static char buf[STREAM_CHUNK];
	char err[256];
	int lfd, port, fd[2];
	pid_t p[2], me = getpid();

	lfd = sock_listen("127.0.0.1", 0, SOCK_STREAM, 4, &port, err,
			  sizeof(err));
	if (lfd < 0 || pipe(fd))
		die("selftest stream: %s", lfd < 0 ? err : strerror(errno));
	p[0] = fork();
	if (p[0] == 0) { /* receiver */
		int c;
		ssize_t n;
		double bytes = 0, t0;

		sig_die_with_parent(SIGKILL, me);
		cs_pin(b);
		c = accept(lfd, NULL, NULL);
		t0 = clock_now();
		while (c >= 0 && (n = read(c, buf, sizeof(buf))) > 0)
			bytes += (double)n;
		cs_give_figure(fd[1], bytes / 1e6 / (clock_now() - t0));
	}
	p[1] = fork();
	if (p[1] == 0) { /* sender */
		int c;
		double end;

		sig_die_with_parent(SIGKILL, me);
		cs_pin(a);
		c = sock_connect("127.0.0.1", port, SOCK_STREAM, 5000, err,
				 sizeof(err));
		end = clock_now() + seconds;
		while (c >= 0 && clock_now() < end)
			if (write(c, buf, sizeof(buf)) < 0)
				break;
		_exit(0);
	}
	close(lfd);
	close(fd[1]);
	return cs_take_figure(fd[0], p, 2);
}

double st_pingpong(int a, int b, double seconds)
{
	char err[256], c1 = 'x';
	int lfd, port, fd[2], one = 1;
	pid_t p[2];

	lfd = sock_listen("127.0.0.1", 0, SOCK_STREAM, 4, &port, err,
			  sizeof(err));
	if (lfd < 0 || pipe(fd))
		die("selftest ping-pong: %s", lfd < 0 ? err : strerror(errno));
	p[0] = fork();
	if (p[0] == 0) { /* server: echo each byte */
		int c;

		cs_pin(b);
		c = accept(lfd, NULL, NULL);
		setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		while (c >= 0 && read(c, &c1, 1) == 1)
			if (write(c, &c1, 1) != 1)
				break;
		_exit(0);
	}
	p[1] = fork();
	if (p[1] == 0) { /* client: count round trips */
		double t0, n = 0;
		int c;

		cs_pin(a);
		c = sock_connect("127.0.0.1", port, SOCK_STREAM, 5000, err,
				 sizeof(err));
		if (c >= 0)
			setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one,
				   sizeof(one));
		t0 = clock_now();
		while (c >= 0 && clock_now() - t0 < seconds &&
		       write(c, &c1, 1) == 1 && read(c, &c1, 1) == 1)
			n++;
		cs_give_figure(fd[1], n / (clock_now() - t0));
	}
	close(lfd);
	close(fd[1]);
	return cs_take_figure(fd[0], p, 2);
}

struct perturb {
	const char *load; /* case name */
	const char *what; /* printed */
	const char *unit;
	const char *metric; /* name part: "s", "MBps", "tps" */
	int higher;	    /* 1: a rate, 0: seconds */
	int kind, a, b;	    /* 0 task, 1 stream, 2 ping-pong; CPUs */
};

static double run_perturb(struct selftest *s, const struct perturb *pt,
			  uint64_t loops)
{
	double secs = s->c->quick ? 0.5 : 1.0;

	switch (pt->kind) {
	case 1:
		return st_stream(pt->a, pt->b, secs);
	case 2:
		return st_pingpong(pt->a, pt->b, secs);
	default:
		return st_cpu_task(pt->a, loops);
	}
}

/* The loads of the series (a cell each) and what they share. */
struct perturbs {
	struct selftest *s;
	struct soak_client *cl;
	const struct perturb *pt;
	int n;			/* loads */
	uint64_t loops;
	int none_rep;		/* the last round with its meterless arm */
	double none[PERTURB_LOADS][PERTURB_REPS]; /* its speeds */
	int host_stayed;	/* a meterless arm found the soak host kept
				 * by another client (its soakers parked) */
};

/* A load's speed: its rate, or a time's inverse (the task). */
static double speed(const struct perturb *pt, double v)
{
	return pt->higher ? v : 1 / v;
}

/* Round rep's meterless arm, before its first run: our soak host left
 * (gone once no other client holds it), no soakers for PERTURB_QUIET_S,
 * every load once, then the soakers again. */
static int none_arm(struct perturbs *p, int rep, char *err, size_t len)
{
	double t0 = clock_now();
	char e2[480];
	int i;

	soak_leave(p->cl);
	while (soak_host_alive() && clock_now() - t0 < PERTURB_GONE_S &&
	       !sig_stop)
		clock_sleep(0.01);
	p->host_stayed |= soak_host_alive();
	clock_sleep(PERTURB_QUIET_S);
	for (i = 0; i < p->n && !sig_stop; i++)
		p->none[i][rep] =
			speed(&p->pt[i], run_perturb(p->s, &p->pt[i], p->loops));
	if (soak_join(p->cl, p->s->c->cpus, cs_soaker(p->s->c), e2,
		      sizeof(e2))) {
		snprintf(err, len, "soakers: %s", e2);
		return -1;
	}
	return 0;
}

/* Before a run: the box's soakers running (metered) or parked; before a
 * round's first, its meterless arm. */
static int perturb_prepare(void *ctx, const struct series_run *r, char *err,
			   size_t len)
{
	struct perturbs *p = ctx;
	char e2[480];

	if (r->rep != p->none_rep && r->rep < PERTURB_REPS) {
		p->none_rep = r->rep;
		if (none_arm(p, r->rep, err, len))
			return -1;
	}
	if (soak_pause(p->cl, !r->metered, e2, sizeof(e2))) {
		snprintf(err, len, "soakers: %s", e2);
		return -1;
	}
	return 0;
}

/* A run of load r->cell; its speed (a time's inverse for the task). */
static int perturb_run(void *ctx, const struct series_run *r, double *rate,
		       char *err, size_t len)
{
	struct perturbs *p = ctx;
	const struct perturb *pt = &p->pt[r->cell];

	(void)err, (void)len;
	*rate = speed(pt, run_perturb(p->s, pt, p->loops));
	return SERIES_OK;
}

static const struct series_ops perturb_runs = {
	.prepare = perturb_prepare,
	.run = perturb_run,
};

/* The median of a load's runs, in its own unit. */
static double load_median(const struct perturb *pt, const double *x, int n)
{
	double m = stats_median(x, (size_t)n);

	return pt->higher ? m : 1 / m;
}

/* One load's line and case: its speed with no soak host, with the
 * soakers parked and running; running over parked per pair, and parked
 * over meterless per round (the bias). */
static void one_perturb(struct selftest *s, const struct series *ser,
			const struct perturbs *p, int cell, const char *kind)
{
	const struct perturb *pt = &p->pt[cell];
	const double *wo, *wi;
	struct stats_ratio r, b;
	char wo_name[32], wi_name[32], no_name[32];
	json_t *kase, *x;
	int reps, nm;

	wo = series_results(ser, cell, &reps);
	wi = series_metered(ser, cell, &nm);
	if (series_perturbation(ser, cell, &r))
		return;
	stats_ratio_paired(wo, p->none[cell], (size_t)reps, &b);
	fprintf(s->out, "  %-28s %10.3f %10.3f %10.3f  %5.2fx", pt->what,
		load_median(pt, p->none[cell], reps), load_median(pt, wo, reps),
		load_median(pt, wi, nm), r.ratio);
	if (reps > 1)
		fprintf(s->out, " (%.2f-%.2f)", r.min, r.max);
	fprintf(s->out, "  %5.2fx", b.ratio);
	if (reps > 1)
		fprintf(s->out, " (%.2f-%.2f)", b.min, b.max);
	fputc('\n', s->out);
	fflush(s->out);
	if (!s->d)
		return;
	kase = res_case(s->d, json_pack("{s:s, s:s, s:s}", "load", pt->load,
					"meter", "soak", "soaker", kind));
	x = json_object();
	snprintf(wo_name, sizeof(wo_name), "without_%s", pt->metric);
	snprintf(wi_name, sizeof(wi_name), "with_%s", pt->metric);
	snprintf(no_name, sizeof(no_name), "meterless_%s", pt->metric);
	res_metric(s->d, wo_name, pt->unit, pt->higher ? RES_HIGHER : RES_LOWER,
		   pt->higher);
	res_metric(s->d, wi_name, pt->unit, pt->higher ? RES_HIGHER : RES_LOWER,
		   pt->higher);
	res_metric(s->d, no_name, pt->unit, pt->higher ? RES_HIGHER : RES_LOWER,
		   pt->higher);
	st_put_ratio(x, "ratio", &r);
	st_put_ratio(x, "bias", &b);
	res_sample_set(x, wo_name, load_median(pt, wo, reps));
	res_sample_set(x, wi_name, load_median(pt, wi, nm));
	res_sample_set(x, no_name, load_median(pt, p->none[cell], reps));
	json_object_set_new(x, "reps", json_integer(reps));
	res_sample(kase, x);
}

/* Loops of cpu_task taking about 0.5 s here. */
static uint64_t size_task(int cpu)
{
	uint64_t loops = 1000000;
	double t;

	while ((t = st_cpu_task(cpu, loops)) < 0.1 && loops < (1ull << 40))
		loops *= 4;
	return (uint64_t)((double)loops * 0.5 / t);
}

void selftest_perturbation(struct selftest *s)
{
	struct perturb pts[] = {
		{"perturb-cpu-task", "cpu task (s)", "s", "s", 0, 0, s->cpu[0],
		 0},
		{"perturb-tcp-1cpu", "tcp stream 1 CPU (MB/s)", "MB/s", "MBps",
		 1, 1, s->cpu[0], s->cpu[0]},
		{"perturb-rr-1cpu", "tcp 1-byte rr 1 CPU (tps)", "tps", "tps",
		 1, 2, s->cpu[0], s->cpu[0]},
		{"perturb-tcp-2cpu", "tcp stream 2 CPUs (MB/s)", "MB/s", "MBps",
		 1, 1, s->cpu[0], s->cpu[1]},
		{"perturb-rr-2cpu", "tcp 1-byte rr 2 CPUs (tps)", "tps", "tps",
		 1, 2, s->cpu[0], s->cpu[1]},
	};
	struct soak_client cl;
	char err[512];
	int i, n = s->ncpu > 1 ? 5 : 3;
	uint64_t loops;
	double settle;

	if (s->c->quick)
		n = 1;
	if (soak_settle_time(&settle, err, sizeof(err)))
		die("%s", err);
	if (soak_join(&cl, s->c->cpus, cs_soaker(s->c), err, sizeof(err)))
		die("soakers: %s", err);
	fprintf(s->out,
		"\nperturbation (%s soakers; median of %d rounds, interleaved: "
		"no soak host after %.0fs without soakers, soakers parked "
		"(%.2fs settle), running)\n"
		"  %-28s %10s %10s %10s  %-22s %s\n",
		cl.kind, s->c->quick ? 1 : PERTURB_REPS, PERTURB_QUIET_S,
		settle, "", "none", "parked", "running",
		"running/parked (min-max)", "bias: parked/none");
	loops = size_task(s->cpu[0]);
	{
		/* a round: the meterless arm, then soakers running and parked
		 * in pairs (ABAB), the loads in turn */
		struct perturbs p = {.s = s, .cl = &cl, .pt = pts, .n = n,
				     .loops = loops, .none_rep = -1};
		struct series_cfg sc = {
			.ncells = n,
			.repeat = s->c->quick ? 1 : PERTURB_REPS,
			.paired = 1,
			.paired_by = "soak",
			.stop = &sig_stop,
		};
		struct series ser;

		if (series_open(&ser, &sc, err, sizeof(err)))
			die("%s", err);
		if (series_run(&ser, &perturb_runs, &p, err, sizeof(err)))
			die("%s", err);
		for (i = 0; i < n && !sig_stop; i++)
			one_perturb(s, &ser, &p, i, cl.kind);
		if (p.host_stayed)
			fprintf(s->out,
				"  (the soak host stayed for another client: its soakers were parked, not gone, in the meterless runs)\n");
		series_close(&ser);
	}
	soak_leave(&cl);
	if (s->d) {
		st_ratio_metric(s->d, "ratio", RES_HIGHER);
		st_ratio_metric(s->d, "bias", RES_LOWER);
	}
}
