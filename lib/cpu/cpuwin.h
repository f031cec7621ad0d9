/*
 * cpuwin.h: the CPU windows of one run, every side at once: this box's
 * meters (-c/--cpu), a host measured by `cyclesoak --serve`
 * (--remote-cpu), a server process on this box (--server-pid) and the
 * tool's own peer (a ttcp-sf receiver, a chatbench server: it measures
 * itself and reports after the run), with the paired runs of a meter
 * that perturbs (lib/cpu/meter.h) across all of them. A tool opens one
 * cpuwin, and per run: cpuwin_metered (when paired), then cpuwin_start
 * and cpuwin_stop around the measured work, cpuwin_peer_figures with
 * what its peer reported, then cpuwin_add into the run's result sample.
 * Every window also says whether the box was quiet (quiet.h: its steal,
 * the CPU outside the run), with a meter or without.
 *
 * Library code: returns 0 or -errno with err filled, never prints.
 */
#ifndef ZCB_CPUWIN_H
#define ZCB_CPUWIN_H

#include <jansson.h>
#include <stddef.h>
#include <sys/types.h>

#include "meter.h"
#include "pidcpu.h"
#include "quiet.h"

struct remotecpu;
struct res_doc;

struct cpuwin_cfg {
	int local;		 /* measure this box (-c) */
	const char *local_list;	 /* --cpu list, NULL = meter_default_list */
	const char *remote;	 /* --remote-cpu host[:port], NULL = none */
	const char *remote_list; /* its meters, NULL = the server's default */
	pid_t server_pid;	 /* --server-pid, 0 = none */
	const char *server_side; /* side of the pid figures: "server"
				  * (default), or "remote" (first of the
				  * remote side's samples, nfsbench) */
	int timeout_ms;		 /* each exchange with the remote */
	const char *local_side;	 /* this box's side in the document:
				  * "local" (default), chatbench's "box" */
	const char *peer_side;	 /* the tool's own peer's side ("remote",
				  * "server"); NULL: no such peer */
};

struct cpuwin {
	struct cpuwin_cfg cfg;
	int have_local;
	struct meterset ms;	/* -c */
	struct remotecpu *rc;	/* --remote-cpu */
	int have_pid;
	struct pidcpu pc;	/* --server-pid */
	int paired;		/* some side measures with soak */
	int remote_paired;	/* the remote side does */
	int local_paired;	/* this box does */
	int peer_paired;	/* the tool's peer does (cpuwin_peer_pairs) */
	int metered;		/* the current run's kind (paired) */
	struct quiet q;		/* the box's steal and the CPU outside the
				 * run, every window (lib/cpu/quiet.h) */
};

/* What one run's windows read. */
struct cpuwin_sample {
	int metered;		/* paired: the soakers ran in this run */
	int paired;
	const char *paired_by;	/* paired: "soak" or "profile"
				 * (cpuwin_paired_by) */
	int nlocal, nremote;
	struct cpu_sample local[METER_MAX];
	struct cpu_sample remote[METER_MAX];
	int have_server;
	struct cpu_sample server;	/* --server-pid, meter "pid" */
	int npeer;			/* the tool's peer's report */
	struct cpu_sample peer[METER_MAX];
	const char *local_side, *peer_side; /* cpuwin_cfg's */
	struct quiet_sample quiet; /* was the box quiet (every window, -c
				    * or not): the sched meter's other
				    * share when it ran here, the server
				    * process counted as the run's */
};

/* The sides of a sample, for cpuwin_add_side. */
enum cpuwin_side { CPUWIN_LOCAL, CPUWIN_REMOTE, CPUWIN_SERVER, CPUWIN_PEER };

int cpuwin_open(struct cpuwin *w, const struct cpuwin_cfg *c, char *err,
		size_t len);
/* The remote's host facts (new reference) or NULL. */
json_t *cpuwin_peer(struct cpuwin *w);
/* "soak,procstat" (local) or "" when the box is not measured. */
const char *cpuwin_local_names(const struct cpuwin *w, char *buf,
			       size_t len);
/* Some side measures with soak: runs go in pairs (meter_runs). */
int cpuwin_paired(const struct cpuwin *w);
/* The meter the runs are paired for ("soak", "profile"), NULL unpaired. */
const char *cpuwin_paired_by(const struct cpuwin *w);
/* The tool's peer measures with a paired meter and parks its soakers by
 * the run kinds the tool tells it (its own protocol): the runs go in
 * pairs. Before the first run. */
void cpuwin_peer_pairs(struct cpuwin *w, int paired);
/* After cpuwin_stop: the n figures the tool's peer reported, into s. */
void cpuwin_peer_figures(struct cpuwin_sample *s,
			 const struct cpu_sample *cpu, int n);
/* Before run i of a paired case: park (0) or wake (1) the soakers of
 * every measured box. 0 or -errno. */
int cpuwin_metered(struct cpuwin *w, int metered, char *err, size_t len);
int cpuwin_start(struct cpuwin *w, char *err, size_t len);
/* Fills s; s->metered from the last cpuwin_metered. */
int cpuwin_stop(struct cpuwin *w, struct cpuwin_sample *s, char *err,
		size_t len);
/*
 * The run's figures into a result sample: metrics (meter_add_metrics,
 * per side "local", "remote" and the server side) and raw "cpu" entries.
 * bytes: the work for service demand (0 = none).
 */
void cpuwin_add(struct res_doc *d, json_t *sample,
		const struct cpuwin_sample *s, double bytes);
/* One side of it (a tool that puts its own figures between the sides,
 * or one whose sides moved different bytes). */
void cpuwin_add_side(struct res_doc *d, json_t *sample,
		     const struct cpuwin_sample *s, enum cpuwin_side side,
		     double bytes);
/* The window's "quiet" object into the sample (quiet_json). */
void cpuwin_add_quiet(json_t *sample, const struct cpuwin_sample *s);
void cpuwin_close(struct cpuwin *w);

#endif
