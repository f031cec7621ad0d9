/*
 * schedcpu.h: the exact CPU meter, "sched". A small BPF program
 * (sched.bpf.c, libbpf CO-RE, BTF-typed tracepoints: no tracefs) counts
 * in the kernel, per CPU, where the time went: the idle task, the tasks
 * (this tool's process tree, named peers, every other), hardirqs and
 * softirqs by vector, from sched_switch, irq_handler_entry/exit,
 * softirq_entry/exit and, on x86, the local timer and IPI vectors. The
 * counters live in one map indexed by CPU (bounded memory, no event ever
 * sent to user space); the reader copies them at a window's start and
 * stop and takes deltas (the accounting itself: sched_acct.h). A switch
 * the kernel does not trace (some do not, away from some tasks) is
 * noticed at the CPU's next event and made good from the tasks' runtime.
 *
 * Busy is every ns not spent in the idle task or a SCHED_IDLE task (the
 * soakers count as idle, so sched sits beside soak and measures what
 * the soakers cost), interrupts taken while idle included, and not
 * stolen by the hypervisor (steal: the kernel's own figure, taken out
 * of the spans as the kernel takes it out of a task's time). The box's
 * busy time splits into
 *   self + peer + other (each: its task time and the softirq time that
 *   ran while it was current) + idle_softirq (softirq while the CPU
 *   idled) + hardirq (every context).
 *
 * Parts: sched_probe_* (sched_load.c, only with BPF) loads and reads the
 * program; sched_summarize (sched_sum.c) turns two readings into a
 * summary; sched_out.c writes its JSON, metrics and lines; the meter is
 * meter_sched.c. Library code: 0 or -errno with err filled, never prints.
 */
#ifndef ZCB_SCHED_H
#define ZCB_SCHED_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sched_acct.h"

#define SCHED_NVEC ZS_NVEC	/* softirq vectors */
#define SCHED_NHI ZS_NHI	/* hardirq kinds */
#define SCHED_MAX_PIDS 1024	/* processes told apart (self, peers and
				 * their children), the BPF map's size */

/* "NET_RX", the kernel's name of softirq vector v; NULL past the last. */
const char *sched_vec_name(int v);
/* The vector of a name from sched_vec_name, or -1. */
int sched_vec_find(const char *name);
/* "local_timer", a hardirq kind's name (enum zs_hirq); and back. */
const char *sched_hirq_name(int k);
int sched_hirq_find(const char *name);

/*
 * The x86 vectors to trace (the local timer, the reschedule and
 * function-call IPIs) from a setting: NULL, "" or "none" none, "all"
 * every one, or a comma list of their names (sched_hirq_name; "device"
 * is always traced). Each costs its programs at every interrupt of its
 * kind; untraced, a vector's handler time goes to what it interrupted.
 * *mask gets bit k for kind k. 0, or -EINVAL with err naming the word.
 */
#define SCHED_VECTORS_ENV "ZCB_SCHED_VECTORS"
int sched_vectors_parse(const char *s, unsigned *mask, char *err, size_t len);

/* One window of the box, percent of all CPUs' time unless said. */
struct sched_summary {
	double self_pct;	/* the measuring process tree: its task time
				 * and the softirq time in its context */
	double self_task_pct, self_softirq_pct;
	double peer_pct;	/* the named peers (--cpu-pid), likewise */
	double peer_task_pct, peer_softirq_pct;
	double other_pct;	/* every other task, with its softirq */
	double idle_softirq_pct; /* softirq while the idle task or a soaker
				  * was current (no one's, but busy) */
	double hardirq_pct;	/* every hardirq traced, any context */
	double softirq_pct;	/* every softirq */
	double idle_pct;	/* the idle task, its interrupts not */
	double soaker_pct;	/* SCHED_IDLE tasks: idle to this meter */
	double unknown_pct;	/* CPUs not yet seen (none once primed) */
	double steal_pct;	/* the hypervisor's: not busy, nobody's */
	double window_s;	/* the time the figures cover: each CPU's
				 * window, from its readings, their mean */
	double vec_pct[SCHED_NVEC]; /* softirq time by vector */
	uint64_t vec_n[SCHED_NVEC]; /* softirqs run by vector */
	double hi_pct[SCHED_NHI]; /* hardirq time by kind */
	uint64_t hi_n[SCHED_NHI]; /* hardirqs by kind */
	unsigned traced;	/* bit k: hardirq kind k is traced here */
	uint64_t switches;	/* context switches in the window */
	uint64_t odd;		/* events out of order (see sched_acct.h) */
	uint64_t nested;	/* hardirqs inside the meter's own softirq
				 * update, left to its span (sched_acct.h) */
	uint64_t missed;	/* switches the kernel did not report, made
				 * good from the tasks' runtime (zs_missed) */
	int npeers;		/* peer processes named */
};

/* Events the summary counted: switches, hardirqs and softirqs. */
uint64_t sched_events(const struct sched_summary *s);

/*
 * Two readings of n CPUs (a at the start, b at the stop, each closed at
 * its time) into the summary, the busy percent of each CPU (percpu, n of
 * them) and of the box (returned). A CPU whose readings cover no time is
 * left out.
 */
double sched_summarize(const struct zs_cpu *a, const struct zs_cpu *b, int n,
		       struct sched_summary *s, double *percpu);

/* The loaded program. */
struct sched_probe;

struct sched_probe_cfg {
	pid_t self;		/* the measuring process (its tree) */
	const pid_t *peers;	/* named peers (their trees), npeers */
	int npeers;
	unsigned vectors;	/* x86 vectors to trace where the kernel
				 * has them (sched_vectors_parse) */
};

/*
 * Load and attach (root, or CAP_BPF and CAP_PERFMON; BTF at
 * /sys/kernel/btf/vmlinux), then visit every CPU so each has had an
 * event. 0, or -errno with err saying why it cannot run here: -ENOSYS
 * when this build has no BPF, -ENOENT without BTF, -EPERM when BPF is
 * not permitted, another error when the kernel refused the program.
 */
int sched_probe_open(struct sched_probe **pp, const struct sched_probe_cfg *c,
		     char *err, size_t len);
/* What is traced and what this kernel lacks, for a note. */
const char *sched_probe_traced(const struct sched_probe *p);
unsigned sched_probe_traced_mask(const struct sched_probe *p);
/* CPUs in a reading (the possible CPUs). */
int sched_probe_ncpu(const struct sched_probe *p);
/* Every CPU now, its open span closed at the time of reading: out gets
 * sched_probe_ncpu of them. 0 or -EAGAIN (a CPU's copy never settled). */
int sched_probe_read(struct sched_probe *p, struct zs_cpu *out);
/* One more process tree to tell apart as a peer (after open too). */
int sched_probe_peer(struct sched_probe *p, pid_t pid, char *err,
		     size_t len);
void sched_probe_close(struct sched_probe *p);

#endif
