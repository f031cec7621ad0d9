/*
 * calibrate.c: `cyclesoak --calibrate`: the soakers' loop rates on the
 * idle box, several rounds, stored only when the rounds agree (else the
 * box was not idle and every later figure would be off by the same).
 */
#include "config.h"
#include "clock.h"
#include "cyclesoak.h"
#include "hostinfo.h"
#include "log.h"
#include "procstat.h"
#include "sig.h"
#include "soak.h"

#include <stdio.h>
#include <string.h>

/* The busy share of the box outside our soakers (nice 19), per procstat. */
static double others_pct(const struct procstat_snap *a,
			 const struct procstat_snap *b)
{
	struct cpu_sample s;

	memset(&s, 0, sizeof(s));
	procstat_delta(a, b, &s);
	return s.busy_pct - s.nice_pct;
}

/* Measure rounds x round_s; fills the calibration's rates and spread.
 * 0, or 1 when interrupted. */
static int measure(const struct cfg *c, struct soak_client *cl,
		   struct soak_calib *cal, double *others)
{
	static double r[1000][SOAK_MAX_CPUS];
	struct procstat_snap pa, pb;
	struct soak_snap a, b;
	int k, i;

	clock_sleep(0.3); /* soakers warm their caches */
	procstat_read(NULL, &pa);
	for (k = 0; k < c->rounds; k++) {
		soak_read(cl, &a);
		if (clock_sleep(c->round_s) || sig_stop)
			return 1;
		if (soak_read(cl, &b))
			die("the soak host went away during calibration");
		soak_rates(&a, &b, r[k]);
		log_verbose("round %d: cpu%d %.0f loops/s", k + 1,
			    cl->cpu_id[0], r[k][0]);
	}
	procstat_read(NULL, &pb);
	*others = others_pct(&pa, &pb);
	cal->ncpu = cl->ncpu;
	cal->spread_pct = 0;
	for (i = 0; i < cl->ncpu; i++) {
		double sum = 0, lo = r[0][i], hi = r[0][i], sp;

		for (k = 0; k < c->rounds; k++) {
			sum += r[k][i];
			lo = r[k][i] < lo ? r[k][i] : lo;
			hi = r[k][i] > hi ? r[k][i] : hi;
		}
		cal->cpu_id[i] = cl->cpu_id[i];
		cal->rate[i] = sum / c->rounds;
		sp = cal->rate[i] > 0 ? 100 * (hi - lo) / cal->rate[i] : 100;
		if (sp > cal->spread_pct)
			cal->spread_pct = sp;
		printf("  cpu%-3d %12.0f loops/s  (rounds %.0f .. %.0f, spread %.1f%%)\n",
		       cl->cpu_id[i], cal->rate[i], lo, hi, sp);
	}
	return 0;
}

int do_calibrate(const struct cfg *c)
{
	struct soak_client cl;
	struct soak_calib cal;
	struct hostinfo h;
	char path[4096], err[512], ts[40];
	double others = 0;
	int r;

	if (soak_calib_path(c->calib_file, path, sizeof(path)))
		die_usage("--calib-file: path too long");
	r = soak_join(&cl, c->cpus, c->soaker, err, sizeof(err));
	if (r)
		die("cannot start the soakers: %s", err);
	if (!cl.started_host)
		log_warn(
			"another soak window is open on this box (soak host pid %d): calibrating with its soakers",
			(int)cl.host_pid);
	log_verbose("soak host pid %d: %s", (int)cl.host_pid, cl.note);
	printf("cyclesoak: calibrating %d CPU%s, %d rounds of %.2fs (%s)\n",
	       cl.ncpu, cl.ncpu == 1 ? "" : "s", c->rounds, c->round_s,
	       cl.note);
	fflush(stdout);
	memset(&cal, 0, sizeof(cal));
	r = measure(c, &cl, &cal, &others);
	soak_leave(&cl);
	if (r) {
		fprintf(stderr, "cyclesoak: interrupted, nothing stored\n");
		return sig_exit_status();
	}
	for (r = 0; r < cal.ncpu; r++)
		if (!(cal.rate[r] > 0)) {
			fprintf(stderr,
				"cyclesoak: the soaker on CPU %d got no cycles at all: the box is fully busy; calibration NOT stored\n",
				cal.cpu_id[r]);
			return 1;
		}
	if (others > 10)
		log_warn(
			"the box was %.1f%% busy outside the soakers during calibration (procstat): rates may be low",
			others);
	if (cal.spread_pct > c->tolerance_pct && !c->force) {
		fprintf(stderr,
			"cyclesoak: rounds disagree by %.1f%% (more than --tolerance %.1f%%): the box was not idle; calibration NOT stored (--force stores it anyway)\n",
			cal.spread_pct, c->tolerance_pct);
		return 1;
	}
	hostinfo_read(NULL, &h);
	snprintf(cal.kernel_release, sizeof(cal.kernel_release), "%s",
		 h.kernel_release);
	snprintf(cal.cpu_model, sizeof(cal.cpu_model), "%s", h.cpu_model);
	cal.online_cpus = h.online_cpus;
	hostinfo_free(&h);
	snprintf(cal.made, sizeof(cal.made), "%s",
		 clock_iso8601(ts, sizeof(ts)));
	cal.rounds = c->rounds;
	cal.round_s = c->round_s;
	snprintf(cal.soaker, sizeof(cal.soaker), "%s", cl.kind);
	snprintf(cal.note, sizeof(cal.note), "%.200s; others busy %.1f%%",
		 cl.note, others);
	if (soak_calib_save(path, &cal, err, sizeof(err)))
		die("%s", err);
	printf("cyclesoak: calibration stored in %s (spread %.1f%%%s)\n", path,
	       cal.spread_pct,
	       cal.spread_pct > c->tolerance_pct ? ", forced" : "");
	return 0;
}
