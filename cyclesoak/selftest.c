/*
 * selftest.c: `cyclesoak --selftest`: known loads on this box (a busy
 * duty cycle of 0, 25, 50, 75 and 100% of one CPU, then every CPU busy),
 * each meter's reading next to the true box load and the error in
 * points; then what the soakers cost the load itself: a fixed CPU-bound
 * task, and a loopback TCP stream with both ends on one CPU and on two,
 * each with and without soakers, as ratios. A soaker on an otherwise
 * idle CPU makes every wake-up of that CPU an IPI to a busy CPU: on bare
 * metal a cross-CPU stream ran at 0.70-0.73x (in a VM whose idle vCPUs
 * halt, soakers can make it faster instead). Shown, never hidden.
 */
#include "config.h"
#include "clock.h"
#include "cyclesoak.h"
#include "hostinfo.h"
#include "log.h"
#include "sig.h"
#include "soak.h"
#include "sock.h"
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DUTY_PERIOD_NS 13000000ull /* not a multiple of the tick */
#define STREAM_CHUNK   65536
#define PERTURB_REPS   3 /* with/without pairs, interleaved */

struct st {
	const struct cfg *c;
	struct res_doc *d;
	FILE *out;
	struct meter_opts mo;
	const char *meters; /* list measured at each load */
	int ncpu;	    /* online CPUs (the box) */
	int cpu[2];	    /* the CPUs the loads use */
	double maxerr;	    /* of the soak meter on the loads */
};

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

/* A child spinning duty (0..1) of every period on cpu for seconds. */
static pid_t duty_child(int cpu, double duty, double seconds)
{
	struct timespec next;
	uint64_t end, period_end;
	pid_t me = getpid(), p = fork();

	if (p)
		return p;
	sig_default();
	sig_die_with_parent(SIGKILL, me);
	pin(cpu);
	clock_gettime(CLOCK_MONOTONIC, &next);
	end = clock_ns() + (uint64_t)(seconds * 1e9);
	while (clock_ns() < end) {
		uint64_t busy = (uint64_t)(duty * DUTY_PERIOD_NS);

		period_end = clock_ns() + DUTY_PERIOD_NS;
		while (clock_ns() < period_end - DUTY_PERIOD_NS + busy)
			;
		if (duty < 1) {
			next.tv_sec = (time_t)(period_end / 1000000000ull);
			next.tv_nsec = (long)(period_end % 1000000000ull);
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next,
					NULL);
		}
	}
	_exit(0);
}

/* Wait for the children; returns the CPU seconds they used. */
static double wait_all(pid_t *p, int n)
{
	struct rusage ru;
	double cpu = 0;
	int i;

	for (i = 0; i < n; i++) {
		while (wait4(p[i], NULL, 0, &ru) < 0) {
			if (errno != EINTR)
				break;
			if (sig_stop)
				kill(p[i], SIGKILL);
		}
		cpu += (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	}
	return cpu;
}

static void record_load(struct st *s, const char *load, double truth,
			const struct cpu_sample *smp, int n)
{
	json_t *kase, *x;
	char name[64];
	int i;

	fprintf(s->out, "  %-10s %6.1f", load, truth);
	for (i = 0; i < n; i++) {
		if (!smp[i].ok) {
			fprintf(s->out, "  %15s", "n/a");
			continue;
		}
		fprintf(s->out, "  %6.1f (%+5.1f)", smp[i].busy_pct,
			smp[i].busy_pct - truth);
		if (!strcmp(smp[i].meter, "soak") &&
		    fabs(smp[i].busy_pct - truth) > s->maxerr)
			s->maxerr = fabs(smp[i].busy_pct - truth);
		if (!s->d)
			continue;
		kase = res_case(s->d, json_pack("{s:s, s:s}", "load", load,
						"meter", smp[i].meter));
		x = json_object();
		snprintf(name, sizeof(name), "cpu_box_%.15s_pct", smp[i].meter);
		res_sample_set(x, "cpu_box_pct", smp[i].busy_pct);
		res_sample_set(x, name, smp[i].busy_pct);
		res_sample_set(x, "true_pct", truth);
		res_sample_set(x, "error_pts", smp[i].busy_pct - truth);
		meter_add_raw(x, "box", &smp[i], 1);
		res_sample(kase, x);
		res_metric(s->d, name, "%", RES_LOWER, 0);
	}
	fputc('\n', s->out);
	fflush(s->out);
}

/*
 * The load runs under a leader process, held at a pipe while the meters
 * open, so the perf meter counts the leader and its children (perf on
 * ourselves counts our threads only). The leader reports the CPU time
 * its children used.
 */
static pid_t load_leader(struct st *s, double duty, int all, int *go, int *res)
{
	pid_t kids[SOAK_MAX_CPUS];
	int g[2], r[2], nk = 0, i;
	double used;
	char b;
	pid_t p, me = getpid();

	if (pipe(g) || pipe(r))
		die_errno("pipe");
	p = fork();
	if (p < 0)
		die_errno("fork");
	if (p == 0) {
		sig_die_with_parent(SIGKILL, me);
		close(g[1]);
		close(r[0]);
		if (read(g[0], &b, 1) != 1)
			_exit(1);
		if (all)
			for (i = 0; i < s->ncpu && i < SOAK_MAX_CPUS; i++)
				kids[nk++] = duty_child(i, 1.0, s->c->load_s);
		else if (duty > 0)
			kids[nk++] = duty_child(s->cpu[0], duty, s->c->load_s);
		if (!nk)
			clock_sleep(s->c->load_s);
		used = wait_all(kids, nk);
		if (write(r[1], &used, sizeof(used)) < 0)
			_exit(1);
		_exit(0);
	}
	close(g[0]);
	close(r[1]);
	*go = g[1];
	*res = r[0];
	return p;
}

/* One known load: nproc children at duty, measured by every meter. */
static int one_load(struct st *s, const char *load, double duty, int all)
{
	struct cpu_sample smp[METER_MAX];
	struct meter_opts mo = s->mo;
	struct meterset set;
	char err[512];
	int n, go, res;
	double truth, used = 0, want;
	pid_t leader;

	leader = load_leader(s, duty, all, &go, &res);
	mo.pid = leader;
	if (meterset_open(&set, s->meters, &mo, err, sizeof(err))) {
		kill(leader, SIGKILL);
		die("%s", err);
	}
	meterset_start(&set);
	if (write(go, "g", 1) != 1)
		die_errno("start the load");
	close(go);
	if (read(res, &used, sizeof(used)) != sizeof(used))
		used = 0;
	close(res);
	wait_all(&leader, 1);
	n = meterset_stop(&set, smp);
	meterset_close(&set);
	if (sig_stop)
		return 1;
	/* the truth is what the load really got: its CPU time over the
	 * window (on a busy box less than it asked for: say so) */
	truth = 100.0 * used / (smp[0].elapsed_s * s->ncpu);
	want = (all ? s->ncpu : duty) * s->c->load_s;
	if (want > 0 && used < 0.9 * want) {
		log_warn(
			"%s: the load got only %.0f%% of the CPU it asked for (the box is busy)",
			load, 100 * used / want);
		if (s->d)
			res_warn(
				s->d,
				"%s: the load got only %.0f%% of the CPU it asked for",
				load, 100 * used / want);
	}
	record_load(s, load, truth, smp, n);
	return 0;
}

/* --- perturbation ------------------------------------------------------- */

/* A fixed amount of CPU work pinned to cpu; returns its seconds. */
static double cpu_task(int cpu, uint64_t loops)
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
		pin(cpu);
		t = clock_now();
		for (i = 0; i < loops; i++)
			x = x * 2862933555777941757ull + 3037000493ull;
		t = clock_now() - t;
		if (write(fd[1], &t, sizeof(t)) < 0)
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], &t, sizeof(t)) != sizeof(t))
		t = NAN;
	close(fd[0]);
	wait_all(&p, 1);
	return t;
}

/* Loopback TCP for seconds, sender on cpu a, receiver on cpu b: MB/s. */
static double stream(int a, int b, double seconds)
{
	static char buf[STREAM_CHUNK];
	char err[256];
	int lfd, port, fd[2];
	double res[2] = {NAN, NAN};
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
		pin(b);
		c = accept(lfd, NULL, NULL);
		t0 = clock_now();
		while (c >= 0 && (n = read(c, buf, sizeof(buf))) > 0)
			bytes += (double)n;
		res[0] = bytes / 1e6 / (clock_now() - t0);
		if (write(fd[1], res, sizeof(res[0])) < 0)
			_exit(1);
		_exit(0);
	}
	p[1] = fork();
	if (p[1] == 0) { /* sender */
		int c;
		double end;

		sig_die_with_parent(SIGKILL, me);
		pin(a);
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
	if (read(fd[0], res, sizeof(res[0])) != sizeof(res[0]))
		res[0] = NAN;
	close(fd[0]);
	wait_all(p, 2);
	return res[0];
}

/*
 * 1-byte TCP request/response (netperf TCP_RR) for seconds, client on
 * cpu a, server on cpu b, TCP_NODELAY both ends: transactions per second.
 */
static double pingpong(int a, int b, double seconds)
{
	char err[256], c1 = 'x';
	int lfd, port, fd[2], one = 1;
	double res = NAN;
	pid_t p[2];

	lfd = sock_listen("127.0.0.1", 0, SOCK_STREAM, 4, &port, err,
			  sizeof(err));
	if (lfd < 0 || pipe(fd))
		die("selftest ping-pong: %s",
		    lfd < 0 ? err : strerror(errno));
	p[0] = fork();
	if (p[0] == 0) { /* server: echo each byte */
		int c;

		pin(b);
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

		pin(a);
		c = sock_connect("127.0.0.1", port, SOCK_STREAM, 5000, err,
				 sizeof(err));
		if (c >= 0)
			setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one,
				   sizeof(one));
		t0 = clock_now();
		while (c >= 0 && clock_now() - t0 < seconds &&
		       write(c, &c1, 1) == 1 && read(c, &c1, 1) == 1)
			n++;
		n /= clock_now() - t0;
		if (write(fd[1], &n, sizeof(n)) < 0)
			_exit(1);
		_exit(0);
	}
	close(lfd);
	close(fd[1]);
	if (read(fd[0], &res, sizeof(res)) != sizeof(res))
		res = NAN;
	close(fd[0]);
	wait_all(p, 2);
	return res;
}

struct perturb {
	const char *load; /* case name */
	const char *what; /* printed */
	const char *unit;
	const char *metric; /* name part: "s", "MBps", "tps" */
	int higher;	    /* 1: a rate, 0: seconds */
	int kind, a, b;	    /* 0 task, 1 stream, 2 ping-pong; CPUs */
};

static double run_perturb(struct st *s, const struct perturb *pt,
			  uint64_t loops)
{
	double secs = s->c->quick ? 0.5 : 1.0;

	switch (pt->kind) {
	case 1:
		return stream(pt->a, pt->b, secs);
	case 2:
		return pingpong(pt->a, pt->b, secs);
	default:
		return cpu_task(pt->a, loops);
	}
}

/*
 * Without and with soakers, in pairs (ABAB), the way a paired run sees
 * them: "without" is the box's soakers parked, "with" them running.
 */
static void one_perturb(struct st *s, struct soak_client *cl,
			const struct perturb *pt, uint64_t loops)
{
	double wo[PERTURB_REPS], wi[PERTURB_REPS], ratio;
	int reps = s->c->quick ? 1 : PERTURB_REPS, k;
	struct stats_ratio r;
	char err[512], wo_name[32], wi_name[32];
	json_t *kase, *x;

	for (k = 0; k < reps && !sig_stop; k++) {
		if (soak_pause(cl, 1, err, sizeof(err)))
			die("soakers: %s", err);
		wo[k] = run_perturb(s, pt, loops);
		if (soak_pause(cl, 0, err, sizeof(err)))
			die("soakers: %s", err);
		wi[k] = run_perturb(s, pt, loops);
	}
	if (sig_stop)
		return;
	/* ratio of the load's speed, with / without, per pair */
	if (pt->higher)
		stats_ratio_paired(wi, wo, (size_t)reps, &r);
	else
		stats_ratio_paired(wo, wi, (size_t)reps, &r);
	ratio = r.ratio;
	fprintf(s->out, "  %-28s %10.3f %10.3f  %5.2fx", pt->what,
		stats_median(wo, (size_t)reps), stats_median(wi, (size_t)reps),
		ratio);
	if (reps > 1)
		fprintf(s->out, " (%.2f-%.2f)", r.min, r.max);
	fputc('\n', s->out);
	fflush(s->out);
	if (!s->d)
		return;
	kase = res_case(s->d, json_pack("{s:s, s:s, s:s}", "load", pt->load,
					"meter", "soak", "soaker", cl->kind));
	x = json_object();
	snprintf(wo_name, sizeof(wo_name), "without_%s", pt->metric);
	snprintf(wi_name, sizeof(wi_name), "with_%s", pt->metric);
	res_metric(s->d, wo_name, pt->unit, pt->higher ? RES_HIGHER : RES_LOWER,
		   pt->higher);
	res_metric(s->d, wi_name, pt->unit, pt->higher ? RES_HIGHER : RES_LOWER,
		   pt->higher);
	res_sample_set(x, "ratio", ratio);
	res_sample_set(x, "ratio_min", r.min);
	res_sample_set(x, "ratio_max", r.max);
	res_sample_set(x, wo_name, stats_median(wo, (size_t)reps));
	res_sample_set(x, wi_name, stats_median(wi, (size_t)reps));
	json_object_set_new(x, "reps", json_integer(reps));
	res_sample(kase, x);
}

/* Loops of cpu_task taking about 0.5 s here. */
static uint64_t size_task(int cpu)
{
	uint64_t loops = 1000000;
	double t;

	while ((t = cpu_task(cpu, loops)) < 0.1 && loops < (1ull << 40))
		loops *= 4;
	return (uint64_t)((double)loops * 0.5 / t);
}

static void perturbation(struct st *s)
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

	if (s->c->quick)
		n = 1;
	if (soak_join(&cl, s->c->cpus, cs_soaker(s->c), err, sizeof(err)))
		die("soakers: %s", err);
	fprintf(s->out,
		"\nperturbation (%s soakers; median of %d pairs, interleaved)\n"
		"  %-28s %10s %10s  %s\n",
		cl.kind, s->c->quick ? 1 : PERTURB_REPS, "", "parked",
		"running", "ratio (running/parked speed; min-max)");
	loops = size_task(s->cpu[0]);
	for (i = 0; i < n && !sig_stop; i++)
		one_perturb(s, &cl, &pts[i], loops);
	soak_leave(&cl);
	if (s->d) {
		res_metric(s->d, "ratio", "x", RES_HIGHER, 0);
		res_metric(s->d, "ratio_min", "x", RES_HIGHER, 0);
		res_metric(s->d, "ratio_max", "x", RES_HIGHER, 0);
	}
}

int do_selftest(const struct cfg *c)
{
	static const struct {
		const char *name;
		double duty;
		int all;
	} loads[] = {{"idle", 0, 0},	  {"busy-25", 0.25, 0},
		     {"busy-50", 0.5, 0}, {"busy-75", 0.75, 0},
		     {"busy-100", 1, 0},  {"all-busy", 1, 1}};
	struct st s = {.c = c, .out = stdout};
	struct soak_client keep = {.fd = -1};
	cpu_set_t allowed;
	char list[64], err[512];
	int i, k = 0, have_soak, wfail = 0;

	s.d = cs_doc(c);
	if (c->json_out && !strcmp(c->json_out, "-"))
		s.out = stderr;
	cs_meter_opts(c, &s.mo);
	s.ncpu = host_online_cpus();
	sched_getaffinity(0, sizeof(allowed), &allowed);
	for (i = 0; i < CPU_SETSIZE && k < 2; i++)
		if (CPU_ISSET(i, &allowed))
			s.cpu[k++] = i;
	if (k < 2)
		s.cpu[1] = s.cpu[0];
	have_soak = !strcmp(meter_default_list(&s.mo), "soak");
	snprintf(list, sizeof(list), "%s",
		 c->meters   ? c->meters
		 : have_soak ? "soak,procstat,rusage,perf"
			     : "procstat,rusage,perf");
	s.meters = list;
	if (!have_soak && !c->meters)
		log_warn(
			"no usable calibration: the soak meter is left out (cyclesoak --calibrate)");
	cs_warn_calibration(c, s.d, list);
	fprintf(s.out,
		"cyclesoak selftest: %d CPUs, %.1fs per load, one-CPU loads on cpu%d\n",
		s.ncpu, c->load_s, s.cpu[0]);
	fprintf(s.out, "  %-10s %6s", "load", "true%");
	{
		char tmp[64], *tok, *save = NULL;

		snprintf(tmp, sizeof(tmp), "%s", list);
		for (tok = strtok_r(tmp, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save))
			fprintf(s.out, "  %8s (err)", tok);
	}
	fputc('\n', s.out);
	/* hold the soakers across the loads (one warm set, not six) */
	if (strstr(list, "soak") &&
	    soak_join(&keep, c->cpus, cs_soaker(c), err, sizeof(err)))
		die("soakers: %s", err);
	for (i = 0; i < (int)(sizeof(loads) / sizeof(loads[0])); i++)
		if (one_load(&s, loads[i].name, loads[i].duty, loads[i].all))
			break;
	soak_leave(&keep);
	if (!sig_stop)
		perturbation(&s);
	if (s.d) {
		res_metric(s.d, "cpu_box_pct", "%", RES_LOWER, 0);
		res_metric(s.d, "true_pct", "%", RES_LOWER, 0);
		res_metric(s.d, "error_pts", "points", RES_LOWER, 0);
		if (sig_stop)
			res_fail(s.d, "interrupted by %s", strsignal(sig_stop));
		wfail = res_finish(s.d) != 0;
		res_free(s.d);
	}
	if (sig_stop) {
		fprintf(stderr, "cyclesoak: selftest interrupted\n");
		return sig_exit_status();
	}
	if (strstr(list, "soak"))
		fprintf(stderr,
			"cyclesoak: selftest done; soak meter's largest error %.1f points\n",
			s.maxerr);
	else
		fprintf(stderr, "cyclesoak: selftest done (no soak meter)\n");
	return wfail;
}
