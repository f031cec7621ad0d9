/*
 * meter.h: CPU meters behind one interface.
 *
 *   soak      cyclesoak: what soakers on every CPU could not get, against
 *             an idle-box calibration (catches softirq, irq, cache damage)
 *   procstat  /proc/stat deltas: user, nice, system, irq, softirq, steal
 *   rusage    getrusage of this process and its reaped children (what
 *             ttcp and iperf3 report; kept to show how far off it is)
 *   perf      perf_event_open counters named as libpfm4 strings
 *   profile   a kernel profile of every CPU by symbol and family
 *             (lib/cpu/profile.h); runs paired, like soak
 *   sched     exact: the scheduler's and the interrupts' events counted
 *             by a BPF program (lib/cpu/schedcpu.h): busy time per CPU,
 *             this process's and its peers' shares, softirq by vector;
 *             no soakers, so unpaired
 *
 * A meter is opened once, then start/stop brackets a window; stop fills a
 * struct cpu_sample. Library code never prints; errors land in err.
 */
#ifndef ZCB_METER_H
#define ZCB_METER_H

#include <jansson.h>
#include <stdio.h>
#include <sys/types.h>

#include "profile.h"
#include "schedcpu.h"

#define METER_MAX_CPUS 256	/* per-CPU figures kept for this many */
#define METER_MAX_COUNTERS 16	/* perf counters per meter */
#define METER_MAX 6		/* meters in a set */

struct meter_counter {
	char name[64];		/* libpfm4 event string as asked */
	int ok;			/* 0: unavailable, see why */
	char why[128];
	double value;		/* scaled for multiplexing */
	double per_sec;
};

struct cpu_sample {
	char meter[16];		/* "soak", "procstat", "rusage", "perf" */
	int ok;			/* 0: unavailable or failed, see why */
	int paused;		/* soak: the soakers were parked during the
				 * window (the unmetered run of a pair) */
	char why[256];
	char scope[16];		/* "box" (whole machine) or "process" */
	double elapsed_s;	/* the window */
	int ncpu;		/* CPUs the figures cover */
	double busy_pct;	/* box load, percent of all CPUs; for a
				 * process meter: its CPU time over
				 * elapsed * ncpu */
	double resolution_pct;	/* one step of busy_pct in this window
				 * (procstat: one 1/USER_HZ tick over the
				 * window's ticks); 0 = finer than printed */
	int have_percpu;
	double percpu_busy[METER_MAX_CPUS]; /* percent of each CPU */
	/* procstat breakdown, percent of the box */
	double user_pct, nice_pct, sys_pct, irq_pct, softirq_pct;
	double steal_pct, iowait_pct, idle_pct;
	/* rusage (also filled by perf task-clock when present) */
	double utime_s, stime_s;
	long nvcsw, nivcsw;
	/* perf */
	int ncounters;
	struct meter_counter ctr[METER_MAX_COUNTERS];
	char note[256];		/* e.g. "soakers in cgroup cpu.idle=1" */
	struct prof_summary prof; /* profile: families, top symbols */
	struct sched_summary sched; /* sched: shares, softirq by vector */
};

struct meter_opts {
	const char *proc_root;	/* NULL = live system (or ZCB_PROC_ROOT) */
	const char *calib_file;	/* soak: NULL = default state file */
	const char *perf_events; /* perf: comma list; NULL = defaults */
	int perf_system_wide;	/* perf: per CPU instead of per process */
	pid_t pid;		/* perf: process to count; sched: the one
				 * told apart as "self" (0 = this one) */
	const pid_t *peers;	/* sched: peer processes told apart
				 * (--cpu-pid), npeers of them */
	int npeers;
	const char *cpus;	/* soak: CPU list to soak (NULL = online) */
};

struct meter;
struct res_doc;

/* What a meter is, for the code that reads its figures (lib/table,
 * report/, the tools): by property, never by name. */
enum meter_flags {
	METER_PAIRED = 1 << 0,	/* it perturbs what it measures: its runs
				 * go in pairs, metered and unmetered
				 * (it has .pause) */
	METER_PRIMARY = 1 << 1,	/* a side that has it shows its figure as
				 * the side's CPU (soak: sees softirq, irq
				 * and cache damage); first among pairers */
	METER_LOADS_BOX = 1 << 2, /* while its window is open it loads
				 * every CPU (soakers): a run beside it on
				 * that box is slowed */
	METER_NO_LOAD = 1 << 3,	/* no busy figure of its own: its figures
				 * come through its hooks (profile) */
	METER_PROCESS = 1 << 4,	/* it measures one process, not the box */
	METER_WITH_PROCSTAT = 1 << 5, /* a set with it gets procstat: free,
				 * and it describes both runs of a pair */
	METER_OPTIONAL = 1 << 6, /* one that cannot run here is a line, not
				 * the end of the run: the set goes on
				 * with the others (profile, sched) */
	METER_SHARES = 1 << 7,	/* it splits the box's time by process:
				 * this tool's share, its peers', the
				 * rest (sched: cpu_sample.sched) */
	METER_EXACT = 1 << 8,	/* it counts every CPU's time from the
				 * kernel's own events: the reference the
				 * self-test judges the others by (sched) */
};

/* A paired meter's words, in every output that speaks of its runs. */
struct meter_words {
	const char *title;	   /* "Soak": "Soak meter perturbation ..." */
	const char *metered_run;   /* the line before a metered run */
	const char *unmetered_run; /* and before an unmetered one */
	const char *pairs;	   /* the meters line: "soak runs in pairs:
				    * metered, then unmetered (the rate)" */
	const char *agent;	   /* "soakers": "the soakers did not change
				    * the rate" */
	const char *figure;	   /* "CPU": "its CPU describes that slower
				    * run" */
	const char *from;	   /* "soak CPU": "; soak CPU from the
				    * metered runs" */
	const char *from_all;	   /* "soak CPU and service demand": what
				    * comes from the metered runs, in full */
};

struct meter_ops {
	const char *name;
	const char *help;
	unsigned flags;		/* enum meter_flags */
	const struct meter_words *words; /* METER_PAIRED: its words */
	const char *exposes;	/* what a client of cyclesoak --serve would
				 * read through it that the kernel may
				 * refuse an unprivileged user ("perf
				 * counters"); NULL: nothing such */
	/* 0, or -errno with err saying why the meter cannot run here */
	int (*open)(struct meter *m, const struct meter_opts *o, char *err,
		    size_t len);
	int (*start)(struct meter *m);
	int (*stop)(struct meter *m, struct cpu_sample *out);
	void (*close)(struct meter *m);
	/* optional: stop perturbing the box (pause 1) for the following
	 * windows, or resume; only a meter with a cost has it (soak) */
	int (*pause)(struct meter *m, int pause, char *err, size_t len);
	/* optional hooks for the meter's own part of a sample: */
	/* its JSON, the value of the sample's key json_key
	 * (cpu_sample_to_json) */
	const char *json_key;
	json_t *(*to_json)(const struct cpu_sample *s);
	/* and back from that value, checked (it may come from a peer): 0
	 * or -EINVAL */
	int (*from_json)(json_t *v, struct cpu_sample *s, char *err,
			 size_t len);
	/* its metrics beyond cpu_<side>_<meter>_pct (meter_add_metrics);
	 * m: they describe a slowed run (store them metered_) */
	void (*metrics)(struct res_doc *d, json_t *sample, const char *side,
			const struct cpu_sample *s, int m);
	/* its lines of the CPU block: after the common part of its line
	 * (METER_NO_LOAD: the whole of it) */
	void (*print)(FILE *f, const char *side, const struct cpu_sample *s);
	/* and lines of its own after that line (sched's breakdown) */
	void (*print_lines)(FILE *f, const char *side,
			    const struct cpu_sample *s);
	/* optional: one more peer process to tell apart from now on (a
	 * meter that splits the box by process: sched) */
	int (*peer)(struct meter *m, pid_t pid, char *err, size_t len);
	size_t priv_size;	/* bytes of private state */
};

/*
 * A meter, in one statement: its ops' name and line of help (what
 * `--cpu=help` and the documents show), then its flags, words and
 * hooks (.flags, .words, .open, .start, .stop, .close, .pause, .peer,
 * .json_key, .to_json, .from_json, .metrics, .print, .print_lines,
 * .priv_size).
 */
#define METER_DEFINE(ops, nm, hl, ...)                                      \
	const struct meter_ops ops = { .name = nm, .help = hl, __VA_ARGS__ }

struct meter {
	const struct meter_ops *ops;
	void *priv;
};

extern const struct meter_ops meter_soak_ops, meter_procstat_ops,
	meter_rusage_ops, meter_perf_ops, meter_profile_ops, meter_sched_ops;

/* NULL-terminated table of all meters, in preference order. */
extern const struct meter_ops *const meter_table[];

const struct meter_ops *meter_find(const char *name);
/* Its index in meter_table, -1 for a name the table lacks. */
int meter_index(const char *name);
/* Its flags (enum meter_flags), 0 for a name the table lacks ("pid"). */
unsigned meter_flags_of(const char *name);
/* The meters' names, in the table's order, joined by sep, into buf:
 * "soak, procstat, rusage, perf, profile". Returns buf. */
const char *meter_names(char *buf, size_t len, const char *sep);
/* The name of the primary paired meter (soak): the pairing of runs
 * whose metered runs name no meter (a remote side's soakers). */
const char *meter_pairer(void);
/* The words of the paired meter `by` (NULL, or a meter without words:
 * the primary paired meter's, soak's). */
const struct meter_words *meter_words_of(const char *by);
/* The sample of a side whose figure is the side's CPU: the primary
 * meter's when the side has it (-1 when it was paused: the unmetered run
 * of a pair has none), else the first usable one with a load; -1 for
 * none. */
int meter_primary(const struct cpu_sample *s, int n);
/* s is the primary meter's (soak): its figures of a metered run are its
 * own, where every other meter's describe a slowed run. */
int meter_is_primary(const struct cpu_sample *s);
struct meter *meter_open(const char *name, const struct meter_opts *o,
			 char *err, size_t len);
int meter_start(struct meter *m);
int meter_stop(struct meter *m, struct cpu_sample *out);
void meter_close(struct meter *m);

/*
 * A set of meters read together. list is "soak,procstat" or NULL for the
 * default: soak when a calibration exists, else procstat (the caller's
 * output should name it). A list with soak gets procstat appended when it
 * lacks it (free, and it describes both runs of a pair), and so does a
 * list with profile or sched, which may not run here. A meter that
 * cannot open stays in the set as unavailable (its sample says why)
 * unless it is the only one; profile and sched never end a run: where
 * they cannot run, their line says why and procstat measures.
 */
struct meterset {
	int n;
	struct meter *m[METER_MAX];
	char name[METER_MAX][16];
	char why[METER_MAX][256]; /* open failure, "" when open */
};

int meterset_open(struct meterset *s, const char *list,
		  const struct meter_opts *o, char *err, size_t len);
int meterset_start(struct meterset *s);
/* A peer process to tell apart from now on, for every meter of the set
 * that splits the box by process (sched). 0 (also when none does), or
 * -errno with err from the first that failed. */
int meterset_peer(struct meterset *s, pid_t pid, char *err, size_t len);
/* "soak,procstat": the meters of the set, as opened. */
const char *meterset_names(const struct meterset *s, char *buf, size_t len);
/* Fills out[0..n-1]; returns n. */
int meterset_stop(struct meterset *s, struct cpu_sample *out);
void meterset_close(struct meterset *s);
/* "soak" if a usable calibration exists for this box, else "procstat". */
const char *meter_default_list(const struct meter_opts *o);

/*
 * Paired runs (lib/doc/SCHEMA.md, "Paired runs"). Soakers slow what they
 * measure (request/response most: every wake-up of a soaked CPU is an
 * IPI, on a VM an exit too), so a case measured with soak runs its
 * samples in pairs, interleaved: a metered run (soakers on) and an
 * unmetered one (the box's soakers parked). The rate comes from the
 * unmetered runs, the soak CPU from the metered ones, /proc/stat from
 * both; their ratio is the case's perturbation (lib/doc/result.c).
 *
 * meterset_paired: 1 when the set holds an open meter with a cost (soak).
 * meterset_metered: before a run, park (metered 0) or wake (1) the
 * soakers of this box for the following windows. 0 or -errno, err filled.
 */
int meterset_paired(const struct meterset *s);
/* The meter that makes the pairs: "soak" (first when both are there) or
 * "profile" (static: it outlives the set); NULL when the set is not
 * paired. */
const char *meterset_paired_by(const struct meterset *s);
int meterset_metered(struct meterset *s, int metered, char *err,
		     size_t len);
/* 1 when a soak sample among s ran (the run was slowed by soakers). */
int meter_soak_ran(const struct cpu_sample *s, int n);
/*
 * Paired runs with a server from before them (chatbench's, zcc's zcs):
 * it cannot park its soakers, so its side runs unpaired (said once, by
 * *told), and an unmetered run (metered 0, number run) in which its
 * soakers ran (its samples peer, npeer) is slowed by them. Each is said
 * on out as "TOOL: ..." and kept as a warning of doc, in the words of w.
 */
struct meter_old_server {
	const char *tool;   /* this program, "zcc" */
	const char *server; /* "the server is a zcs from before..." */
	const char *parker; /* "(a zcs of this version parks them)" */
};
void meter_old_server(FILE *out, struct res_doc *doc,
		      const struct meter_old_server *w, int metered,
		      const struct cpu_sample *peer, int npeer, long run,
		      int *told);
/* A ratio outside [0.95, 1.05]: every table marks the case. */
#define METER_PERTURB_LO 0.95
#define METER_PERTURB_HI 1.05
int meter_perturbed(double ratio);
/*
 * The footnote of a perturbed case (or the line of any paired one), by
 * the meter whose runs were metered ("soak" or "profile"): "soak run
 * reached 0.32x (0.30-0.35, 3 pairs) of the unmetered rate; its CPU
 * describes that slower run".
 */
struct stats_ratio;
void meter_perturbation_by(char *buf, size_t len, const char *meter,
			   const struct stats_ratio *r);
/* What one run of a pair is, for the line before its figures: "metered
 * run: soakers on (...)" or, paired for the profile (by "profile"),
 * "metered run: profiler on (...)"; the unmetered runs likewise. */
const char *meter_pair_run(const char *by, int metered);
/* What the meters line says of the pairs the meter by ("soak",
 * "profile") runs: "soak runs in pairs: metered, then unmetered (the
 * rate)" or the profile's. */
const char *meter_pairs_words(const char *by);
/* Runs to make for `repeat` results: 2 * repeat when paired. */
int meter_runs(int paired, int repeat);
/* Is run i (0-based) of a paired case the metered one? Metered first,
 * then unmetered, and so on (ABAB): a remote peer learns the next run's
 * kind only at the end of the one before, and starts metered. */
int meter_run_metered(int paired, int i);

/*
 * CPU-seconds of the window (busy% / 100 x CPUs x window), the base of
 * every figure per unit of work; NAN when the meter is unusable or its
 * figure is below its resolution (busy under half of resolution_pct: a
 * procstat window in which not one busy tick landed), so no tool states
 * "0.00 us per transaction" for work it could not see.
 */
double meter_cpu_s(const struct cpu_sample *s);
/* Service demand, netperf's: CPU microseconds per KB (1024 bytes) moved;
 * NAN as meter_cpu_s. */
double meter_service_demand(const struct cpu_sample *s, double bytes);
/* The CPU-normalised rate: work (MB, messages, transactions) per
 * CPU-second of the window, work / (busy% / 100 x CPUs x window); NAN
 * without a load (busy 0, or the meter unusable). */
double meter_per_cpu_s(const struct cpu_sample *s, double work);

/* JSON of samples and back: lib/cpu/cpujson.h. */

/* The profile meter's part of a sample (lib/cpu/profile_out.c): its
 * "profile" JSON object and back (checked: it may come from a peer), its
 * metrics prof_<side>_<family>_pct, its lines of the CPU block. */
json_t *prof_sample_json(const struct cpu_sample *s);
int prof_sample_from_json(json_t *j, struct cpu_sample *s, char *err,
			  size_t len);
struct res_doc;
void prof_add_metrics(struct res_doc *d, json_t *sample, const char *side,
		      const struct cpu_sample *s, int metered);
void prof_print(FILE *f, const char *side, const struct cpu_sample *s);

/* The sched meter's part of a sample (lib/cpu/sched_out.c), the same
 * four: its "sched" object and back (checked), its metrics
 * sched_<side>_<figure>_pct (metered: stored as metered_..., the figures
 * of a run slowed by soakers), its lines of the CPU block. */
json_t *sched_sample_json(const struct cpu_sample *s);
int sched_sample_from_json(json_t *j, struct cpu_sample *s, char *err,
			   size_t len);
void sched_add_metrics(struct res_doc *d, json_t *sample, const char *side,
		       const struct cpu_sample *s, int metered);
void sched_print(FILE *f, const char *side, const struct cpu_sample *s);

/*
 * Put a window's figures into a result sample's metrics, declaring them
 * in the document too. side: "local", "remote", "box", "server"...
 *   cpu_<side>_<meter>_pct        each usable meter's box load
 *   sd_<side>_<meter>_us_per_kb   its service demand, when bytes > 0
 *   cpu_<side>_softirq_pct        procstat's softirq share
 *   cpu_<side>_pct, sd_<side>_us_per_kb   the side's primary meter: soak
 *                                 when the side has it, else the first
 *                                 usable one
 *   MB_per_cpu_s_<side>           its MB per CPU-second, when bytes > 0
 *                                 (meter_put_per_cpu)
 * metered: the run had soakers on (a metered run of a pair, or any run
 * where soak ran). Then every figure not made by the soak meter itself
 * describes a slowed run and is stored as metered_<name>, and a side
 * whose soak was paused (the unmetered run) has no primary figure: it
 * comes from the metered runs.
 */
struct res_doc;
void meter_add_metrics(struct res_doc *d, json_t *sample, const char *side,
		       const struct cpu_sample *s, int n, double bytes,
		       int metered);
/*
 * The side's CPU-normalised rate from its primary meter (meter_primary),
 * over the window the rate was measured in: <what>_per_cpu_s_<side>,
 * work per CPU-second (MB_per_cpu_s_local: MB, msgs_per_cpu_s_box:
 * messages, trans_per_cpu_s_local: transactions), higher is better;
 * named as meter_add_metrics names the primary's figures (metered_ in a
 * slowed run the primary did not make). None when the side has no
 * primary figure (the unmetered run of a pair) or work is 0. unit:
 * "MB/CPU-s", "msg/CPU-s"... meter_add_metrics puts MB_per_cpu_s itself
 * when it has bytes.
 */
void meter_put_per_cpu(struct res_doc *d, json_t *sample, const char *side,
		       const struct cpu_sample *s, int n, const char *what,
		       const char *unit, double work, int metered);
/* One figure into a sample's metrics (declared in the document too),
 * as metered_<name> when metered (a meter's .metrics hook). */
void meter_put_metric(struct res_doc *d, json_t *sample, const char *unit,
		      int metered, const char *name, double v);
/* A "cpu": {side: [...]} entry with the full samples (cpujson.c). */
void meter_add_raw(json_t *sample, const char *side,
		   const struct cpu_sample *s, int n);

/* A service demand as printed: "%.3f", or "-" when there is none (the
 * meter's line or note says why). buf has at least 16 bytes. */
const char *meter_sd_text(char *buf, size_t len, double sd);

/*
 * Print a CPU block, one line per meter:
 *   "  cpu local  soak      12.3%  (sd 1.234 us/KB)  ..."
 */
void meter_print(FILE *f, const char *side, const struct cpu_sample *s,
		 int n, double bytes);

#endif
