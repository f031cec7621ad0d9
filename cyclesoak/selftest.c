/*
 * selftest.c: `cyclesoak --selftest`: known loads on this box (a busy
 * duty cycle of 0, 25, 50, 75 and 100% of one CPU, then every CPU busy),
 * each meter's reading next to the true box load and the error in
 * points; then what the soakers cost the load itself (perturb.c); then
 * every meter against sched on I/O loads (judge.c) and what sched costs
 * (schedcost.c).
 */
#include "config.h"
#include "clock.h"
#include "cyclesoak.h"
#include "hostinfo.h"
#include "log.h"
#include "sig.h"
#include "soak.h"
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DUTY_PERIOD_NS 13000000ull /* not a multiple of the tick */

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
	cs_pin(cpu);
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

/* sched's share of the load itself (its "self": the leader and its
 * children) against the truth: what other tasks on a shared box do is
 * not in it, as it is in every box figure. */
static void sched_self(struct selftest *s, double truth,
		       const struct cpu_sample *smp)
{
	double self = smp->sched.self_pct;

	fprintf(s->out, "  %6.2f (%+5.2f)", self, self - truth);
	if (fabs(self - truth) > s->sched_maxerr)
		s->sched_maxerr = fabs(self - truth);
}

static void record_load(struct selftest *s, const char *load, double truth,
			const struct cpu_sample *smp, int n)
{
	json_t *kase, *x;
	int i;

	fprintf(s->out, "  %-10s %6.1f", load, truth);
	for (i = 0; i < n; i++) {
		if (!smp[i].ok) {
			fprintf(s->out, "  %15s", "n/a");
			continue;
		}
		fprintf(s->out, "  %6.1f (%+5.1f)", smp[i].busy_pct,
			smp[i].busy_pct - truth);
		if (meter_is_primary(&smp[i]) &&
		    fabs(smp[i].busy_pct - truth) > s->maxerr)
			s->maxerr = fabs(smp[i].busy_pct - truth);
		if (!s->d)
			continue;
		x = st_meter_sample(s, load, &smp[i], &kase);
		res_sample_set(x, "true_pct", truth);
		res_sample_set(x, "error_pts", smp[i].busy_pct - truth);
		if (meter_flags_of(smp[i].meter) & METER_SHARES) {
			res_sample_set(x, "load_pct", smp[i].sched.self_pct);
			res_sample_set(x, "load_error_pts",
				       smp[i].sched.self_pct - truth);
		}
		meter_add_raw(x, "box", &smp[i], 1);
		res_sample(kase, x);
	}
	for (i = 0; i < n; i++)
		if (smp[i].ok && (meter_flags_of(smp[i].meter) & METER_SHARES))
			sched_self(s, truth, &smp[i]);
	fputc('\n', s->out);
	fflush(s->out);
}

/*
 * The load runs under a leader process, held at a pipe while the meters
 * open, so the perf meter counts the leader and its children (perf on
 * ourselves counts our threads only). The leader reports the CPU time
 * its children used.
 */
static pid_t load_leader(struct selftest *s, double duty, int all, int *go,
			 int *res)
{
	pid_t kids[SOAK_MAX_CPUS], p = cs_fork_held(SIGKILL, go, res);
	int nk = 0, i;

	if (p)
		return p;
	if (all)
		for (i = 0; i < s->ncpu && i < SOAK_MAX_CPUS; i++)
			kids[nk++] = duty_child(i, 1.0, s->c->load_s);
	else if (duty > 0)
		kids[nk++] = duty_child(s->cpu[0], duty, s->c->load_s);
	if (!nk)
		clock_sleep(s->c->load_s);
	cs_give_figure(*res, cs_wait_all(kids, nk));
}

/* One known load: nproc children at duty, measured by every meter. */
static int one_load(struct selftest *s, const char *load, double duty, int all)
{
	struct cpu_sample smp[METER_MAX];
	struct meter_opts mo = s->mo;
	int n, go, res;
	double truth, used = 0, want;
	pid_t leader;

	leader = load_leader(s, duty, all, &go, &res);
	n = st_measure_held(s, &mo, leader, go, res, &used, smp);
	if (n < 0)
		return 1;
	if (!isfinite(used))
		used = 0;
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

/* Can the sched meter run here? Says why not, once. */
static int sched_here(struct selftest *s)
{
	char err[512];
	struct meter *m = meter_open("sched", &s->mo, err, sizeof(err));

	if (!m) {
		log_warn("the sched meter is left out: %s", err);
		if (s->d)
			res_warn(s->d, "the sched meter is left out: %s", err);
		return 0;
	}
	meter_close(m);
	return 1;
}

/* The CPUs the loads use, the meters and the table's header. */
static void setup(struct selftest *s, char *list, size_t len)
{
	const struct cfg *c = s->c;
	char tmp[96], *tok, *save = NULL;
	cpu_set_t allowed;
	int i, k = 0, have_soak, have_sched;

	cs_meter_opts(c, &s->mo);
	s->ncpu = host_online_cpus();
	sched_getaffinity(0, sizeof(allowed), &allowed);
	for (i = 0; i < CPU_SETSIZE && k < 2; i++)
		if (CPU_ISSET(i, &allowed))
			s->cpu[k++] = i;
	if (k < 2)
		s->cpu[1] = s->cpu[0];
	have_soak = !strcmp(meter_default_list(&s->mo), "soak");
	have_sched = sched_here(s);
	snprintf(list, len, "%s%s%s",
		 c->cli.cpu_list ? c->cli.cpu_list : have_soak ? "soak," : "",
		 c->cli.cpu_list ? "" : have_sched ? "sched," : "",
		 c->cli.cpu_list ? "" : "procstat,rusage,perf");
	s->meters = list;
	if (!have_soak && !c->cli.cpu_list)
		log_warn(
			"no usable calibration: the soak meter is left out (cyclesoak --calibrate)");
	cs_warn_calibration(c, s->d, list);
	fprintf(s->out,
		"cyclesoak selftest: %d CPUs, %.1fs per load, one-CPU loads on cpu%d\n",
		s->ncpu, c->load_s, s->cpu[0]);
	fprintf(s->out, "  %-10s %6s", "load", "true%");
	snprintf(tmp, sizeof(tmp), "%s", list);
	for (tok = strtok_r(tmp, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		fprintf(s->out, "  %8s (err)", tok);
	if (strstr(list, "sched"))
		fprintf(s->out, "  %8s (err)", "sched-load");
	fputc('\n', s->out);
}

/* The document, and the closing line. */
static int finish(struct selftest *s, const char *list)
{
	int wfail = 0;

	if (s->d) {
		res_metric(s->d, "cpu_box_pct", "%", RES_LOWER, 0);
		res_metric(s->d, "true_pct", "%", RES_LOWER, 0);
		res_metric(s->d, "error_pts", "points", RES_LOWER, 0);
		res_metric(s->d, "load_pct", "%", RES_LOWER, 0);
		res_metric(s->d, "load_error_pts", "points", RES_LOWER, 0);
		if (sig_stop)
			res_fail(s->d, "interrupted by %s",
				 strsignal(sig_stop));
		wfail = res_finish(s->d) != 0;
		res_free(s->d);
	}
	if (sig_stop) {
		fprintf(stderr, "cyclesoak: selftest interrupted\n");
		return sig_exit_status();
	}
	fprintf(stderr, "cyclesoak: selftest done");
	if (strstr(list, "soak"))
		fprintf(stderr, "; soak meter's largest error %.1f points",
			s->maxerr);
	else
		fprintf(stderr, " (no soak meter)");
	if (strstr(list, "sched"))
		fprintf(stderr,
			"; sched meter's largest error on the load's share %.2f points",
			s->sched_maxerr);
	fputc('\n', stderr);
	return wfail;
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
	struct selftest s = {.c = c, .out = cli_text(&c->cli)};
	struct soak_client keep = {.fd = -1};
	char list[96], err[512];
	int i;

	s.d = cs_doc(c);
	setup(&s, list, sizeof(list));
	/* hold the soakers across the loads (one warm set, not six) */
	if (strstr(list, "soak") &&
	    soak_join(&keep, c->cpus, cs_soaker(c), err, sizeof(err)))
		die("soakers: %s", err);
	for (i = 0; i < (int)(sizeof(loads) / sizeof(loads[0])); i++)
		if (one_load(&s, loads[i].name, loads[i].duty, loads[i].all))
			break;
	soak_leave(&keep);
	if (!sig_stop)
		selftest_perturbation(&s);
	if (!sig_stop && !c->quick)
		selftest_judge(&s);
	if (!sig_stop && !c->quick)
		selftest_sched_cost(&s);
	return finish(&s, list);
}
