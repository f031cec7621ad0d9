/*
 * quiet.h: was the box quiet while a sample ran? Over every sample's
 * window (lib/cpu/cpuwin opens it, with or without -c), two figures,
 * each a percent of all the box's CPU time:
 *
 *   steal    /proc/stat's steal: the hypervisor gave this box's CPUs to
 *            another guest (always available)
 *   outside  the CPU taken by processes outside the run: the sched
 *            meter's other share when it ran (cpu_sample.sched) and the
 *            run is all its self (no server or peer added), else the
 *            ticks of every process of the box (/proc/PID/stat: no
 *            kernel thread, none niced, as the soakers run at nice 19)
 *            outside this process and its descendants (their reaped
 *            children too), less the run's other processes: a server
 *            the tool was given (--server-pid) and a peer on this box
 *            that reported its own CPU (quiet_add_run). Process ticks,
 *            not /proc/stat's user and system: a kernel that charges a
 *            task the interrupts that hit it (tick accounting) charges
 *            every task alike.
 *
 * A sample past the limits (--disturbance, default 2% steal, 5% outside)
 * is disturbed: the tool returns SERIES_DISTURBED (lib/run/series.h),
 * the sample is kept in the document marked ("disturbed") and made
 * again while its case has re-runs left (--reruns).
 *
 * Library code: never prints.
 */
#ifndef ZCB_QUIET_H
#define ZCB_QUIET_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "procstat.h"

struct cpu_sample;

/* What one window found. */
struct quiet_sample {
	int ok;			/* /proc/stat read at both ends */
	double elapsed_s;	/* the window */
	int ncpu;		/* CPUs /proc/stat counted */
	double steal_pct;	/* the box's steal */
	double task_pct;	/* user + system of the box (/proc/stat) */
	double self_pct;	/* this process and its descendants; NAN
				 * when /proc could not say */
	double others_pct;	/* every other process, no kernel thread,
				 * none niced; NAN likewise */
	double run_pct;		/* the run's other processes on this box
				 * (a server, a peer): quiet_add_run */
	double sched_other_pct;	/* the sched meter's other share, NAN
				 * without it */
	double outside_pct;	/* what the run did not take: NAN unknown */
	const char *from;	/* "sched" or "procstat": outside's source */
	double tick_pct;	/* one /proc/stat tick of the window, % of
				 * the box: a figure of one tick (a daemon's
				 * wakeup caught by the tick) never disturbs */
};

/* A window of this box. */
struct quiet {
	char root[256];		 /* /proc prefix ("" = live) */
	struct procstat_snap *a; /* at the start (owned) */
	uint64_t self0, others0; /* ticks of this process tree, and of the
				  * other processes (pidcpu_split) */
	int have_a, have_self;
	double t0;
};

/* Two readings of /proc/stat, and over them the ticks of this tree and
 * of the other processes (< 0: unknown), into s: the figures above. */
void quiet_figures(const struct procstat_snap *a,
		   const struct procstat_snap *b, double self_ticks,
		   double others_ticks, double elapsed_s,
		   struct quiet_sample *s);
/* Open a window now (root: NULL = the live box or $ZCB_PROC_ROOT). */
void quiet_start(struct quiet *q, const char *root);
/* Close it into s (s->ok 0 when /proc/stat could not be read). */
void quiet_stop(struct quiet *q, struct quiet_sample *s);
void quiet_close(struct quiet *q);
/* More of the run on this box: a process's CPU as a percent of the box
 * in the window (a server's, a peer's). */
void quiet_add_run(struct quiet_sample *s, double pct);
/* The same from CPU-seconds the process reported for itself. */
void quiet_add_run_s(struct quiet_sample *s, double cpu_s);
/* The CPU-seconds of this process tree over the window (NAN unknown):
 * what a side tells its peer of itself. */
double quiet_self_cpu_s(const struct quiet_sample *s);
/* This process's CPU-seconds so far (getrusage: user + system of every
 * thread), what a peer reports of itself for the other side's
 * quiet_add_run_s: the difference over its window. */
double quiet_process_cpu_s(void);
/* The sched meter ran: outside from its other share. */
void quiet_use_sched(struct quiet_sample *s, const struct cpu_sample *sched);
/* 1 when the sample is past the limits (why: "steal 3.1% > 2%"), else
 * 0; an unknown figure never disturbs, nor does a tick-counted one under
 * two ticks (in a window of 20 ticks one tick is 5% of the box). */
int quiet_disturbed(const struct quiet_sample *s, double steal_max,
		    double outside_max, char *why, size_t len);
/* The sample's "quiet" object: steal_pct, outside_pct (null: unknown),
 * from, task_pct, run_pct (self and the rest of the run). */
json_t *quiet_json(const struct quiet_sample *s);
/* "disturbed": {steal_pct, outside_pct, steal_max, outside_max, rerun}
 * (rerun 1: made again, so it stands for no result). */
json_t *quiet_disturbed_json(const struct quiet_sample *s, double steal_max,
			     double outside_max, int rerun);

#endif
