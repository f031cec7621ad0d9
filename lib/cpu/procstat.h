/* procstat.h: /proc/stat CPU lines, parsed through a root prefix. */
#ifndef ZCB_PROCSTAT_H
#define ZCB_PROCSTAT_H

#include <stdint.h>

#include "meter.h"

enum {
	PS_USER, PS_NICE, PS_SYSTEM, PS_IDLE, PS_IOWAIT, PS_IRQ, PS_SOFTIRQ,
	PS_STEAL, PS_GUEST, PS_GUEST_NICE, PS_NFIELDS
};

struct procstat_snap {
	uint64_t total[PS_NFIELDS];		/* the "cpu" line */
	int ncpu;				/* "cpuN" lines seen */
	int cpu_id[METER_MAX_CPUS];		/* N of each */
	uint64_t cpu[METER_MAX_CPUS][PS_NFIELDS];
};

/* Parse text of /proc/stat. 0 or -EINVAL. */
int procstat_parse(const char *text, struct procstat_snap *s);
/* Read root/proc/stat. 0 or -errno. */
int procstat_read(const char *root, struct procstat_snap *s);
/* Fill the procstat part of out from two snapshots (percent of box). */
void procstat_delta(const struct procstat_snap *a,
		    const struct procstat_snap *b, struct cpu_sample *out);

/* Take nice time out of the load (while zcbench soakers, nice 19, run). */
void procstat_exclude_nice(const struct procstat_snap *a,
			   const struct procstat_snap *b,
			   struct cpu_sample *out);

/*
 * /proc/stat counts 1/USER_HZ ticks, so a 50 ms window on 2 CPUs has 10
 * of them, and one tick is 10% of the box. resolution_pct (filled by
 * procstat_delta) is that step. A window without a single tick is marked
 * unavailable, naming why (returns 1). One without a busy tick is kept
 * ("under X% of the box") with a note, and meter_cpu_s then makes no
 * figure per unit of work from it; one with fewer than 10 busy ticks is
 * noted as coarse.
 */
int procstat_resolution(struct cpu_sample *out);

#endif
