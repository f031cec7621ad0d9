/*
 * cyclesoak.h: what cyclesoak's files share: the settings (main.c), the
 * helpers every mode uses (common.c) and the modes (run.c, calibrate.c,
 * serve.c, selftest.c with perturb.c).
 */
#ifndef ZCB_CYCLESOAK_H
#define ZCB_CYCLESOAK_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "cli.h"
#include "meter.h"
#include "result.h"

enum cs_mode {
	CS_MONITOR,   /* print "System load" every period */
	CS_RUN,	      /* -- CMD: measure the box while CMD runs */
	CS_CALIBRATE, /* --calibrate */
	CS_SERVE,     /* --serve */
	CS_SELFTEST,  /* --selftest */
};

struct cfg {
	enum cs_mode mode;
	double period_s;	/* -p: monitor period */
	long count;		/* -n: periods, 0 = until Ctrl-C */
	const char *calib_file; /* --calib-file, NULL = state file */
	const char *cpus;	/* --cpus: CPUs to soak, NULL = online */
	struct cli_common cli;	/* --cpu=LIST (cli.cpu_list, NULL = the
				 * mode's default meters), -J, -o, --label */
	const char *events;	/* --events: perf events, NULL = defaults */
	int rounds;		/* --rounds: calibration rounds */
	double round_s;		/* --round-time: length of each */
	double tolerance_pct;	/* --tolerance: rounds may disagree by */
	int force;		/* --force: store even when they disagree */
	const char *soaker;	/* --soaker: kind to calibrate (NULL = spin) */
	const char *bind;	/* --bind: serve address */
	int port;		/* --port: serve port (0 = any, printed) */
	int max_clients;	/* --max-clients */
	double idle_s;		/* --idle-timeout: serve hangs up on a client
				 * with no window silent this long */
	double max_window_s;	/* --max-window: longest window or SOAK off */
	int host_details;	/* --host-details: HOST shows cmdline, memory */
	unsigned serve_allow;	/* --serve-allow: the meters served that
				 * expose what the kernel may refuse a
				 * client (meter_ops.exposes), a bit per
				 * meter_table index */
	double load_s;		/* --duration: selftest seconds per load */
	int quick;		/* --quick: selftest without the stream part */
	char **cmd;		/* -- CMD ARGS */
	int argc;		/* of the whole command line, for the doc */
	char **argv;
};

/* --serve-allow: the meters that read more than the box's load, served
 * to a client only when the operator names them. */

/* --- common.c: what every mode uses ----------------------------------- */

/* The meter options every mode uses (calibration file, CPUs, events). */
void cs_meter_opts(const struct cfg *c, struct meter_opts *o);
/* The result document, with -o/-J and --label; NULL when not asked. */
struct res_doc *cs_doc(const struct cfg *c);
/* The soaker kind of the stored calibration ("spin" when none). */
const char *cs_soaker(const struct cfg *c);
/* res_warn the calibration mismatch when the soak meter is in list. */
void cs_warn_calibration(const struct cfg *c, struct res_doc *d,
			 const char *list);
/* Pin the calling process to cpu. */
void cs_pin(int cpu);
/* Wait for n children (a signal stops them); their CPU seconds. */
double cs_wait_all(pid_t *p, int n);
/* In a child: write its figure v to fd and _exit (1 when it cannot). */
void cs_give_figure(int fd, double v) __attribute__((noreturn));
/* The figure a child wrote to fd (NAN when none came), fd closed and
 * the n children p waited for. */
double cs_take_figure(int fd, pid_t *p, int n);
/*
 * Fork a child held until the parent writes a byte to *go, so meters
 * can open on it first. It dies with die_sig when we die. Returns 0 in
 * the child (*back: its end of the pipe back), the pid in the parent
 * (*back: our end); dies when it cannot fork.
 */
pid_t cs_fork_held(int die_sig, int *go, int *back);

/* --- the modes ---------------------------------------------------------- */

int do_monitor(const struct cfg *c);
int do_run(const struct cfg *c);
int do_calibrate(const struct cfg *c);
int do_serve(const struct cfg *c);
/* serve.c: 0 when every meter of list may be served, else -EPERM with
 * why naming the first that may not and --serve-allow. */
int cs_serve_allowed(const struct cfg *c, const char *list, char *why,
		     size_t len);
int do_selftest(const struct cfg *c);

/* --- selftest.c and perturb.c ------------------------------------------- */

struct selftest {
	const struct cfg *c;
	struct res_doc *d;
	FILE *out;
	struct meter_opts mo;
	const char *meters; /* list measured at each load */
	int ncpu;	    /* online CPUs (the box) */
	int cpu[2];	    /* the CPUs the loads use */
	double maxerr;	    /* of the soak meter on the loads */
	double sched_maxerr; /* of the sched meter on the loads */
};

/* What the soakers cost a load: parked against running, in pairs. */
void selftest_perturbation(struct selftest *s);
/*
 * A load held by its leader (cs_fork_held's go and res pipes) measured
 * by every meter of s->meters: the set opened on the leader (mo's pid,
 * its peers), started, the load let go, its one double result read back
 * (*v, NAN when none came), the leader reaped, the set stopped into smp.
 * Returns how many samples, -1 when a signal stopped it.
 */
int st_measure_held(struct selftest *s, struct meter_opts *mo, pid_t leader,
		    int go, int res, double *v, struct cpu_sample *smp);
/* A meter's figure of a load in the document: its case (load, meter)
 * into *kase, and a new sample holding cpu_box_pct and
 * cpu_box_<meter>_pct; the caller adds its own and files it. */
json_t *st_meter_sample(struct selftest *s, const char *load,
			const struct cpu_sample *m, json_t **kase);
struct stats_ratio;
/* A paired ratio in a sample: name (the geometric mean), name_min and
 * name_max (the range of the pairs' ratios). */
void st_put_ratio(json_t *x, const char *name, const struct stats_ratio *r);
/* Declare the three metrics st_put_ratio writes, better one way. */
void st_ratio_metric(struct res_doc *d, const char *name,
		     enum res_better better);

/* The loads (perturb.c), each in children of the caller: a fixed CPU
 * task on cpu (its seconds), a loopback TCP stream from cpu a to b for
 * seconds (MB/s), 1-byte TCP request/response, client on a, server on
 * b (transactions/s). */
double st_cpu_task(int cpu, uint64_t loops);
double st_stream(int a, int b, double seconds);
double st_pingpong(int a, int b, double seconds);

/* Every meter against sched on I/O loads (judge.c): the stream, 1-byte
 * request/response and, with diod and p9bench here, a 9P read. */
void selftest_judge(struct selftest *s);
/* What the sched meter costs (schedcost.c): ns per event on loads with
 * known switches and softirqs, and its perturbation, paired. */
void selftest_sched_cost(struct selftest *s);

#endif
