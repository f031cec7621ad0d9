/*
 * profile.h: where the CPU went, by kernel symbol and by family. A
 * sampler on every CPU (perf_event_open: the hardware cycles event where
 * the machine has a PMU, the cpu-clock software event where it has none)
 * records the instruction pointer of each sample during a window; the
 * kernel ones are resolved against /proc/kallsyms (a sorted table,
 * binary search), user ones counted as "user". Counts are per symbol of
 * that table, so memory is bounded by it, whatever the window's length.
 *
 * Each symbol is classed into a family (copy, csum, pagecache, ...) by
 * the rule table in profile_family.c: first match wins; add a line there
 * (and a case to tests/unit/test_profile.c) to extend it.
 *
 * The meter "profile" (meter_profile.c) puts this behind the meter
 * interface. Library code: 0 or -errno with err filled, never prints.
 */
#ifndef ZCB_PROFILE_H
#define ZCB_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#define PROF_FREQ_DEFAULT 999	/* samples per second per CPU (perf's
				 * odd figure: not in step with the tick) */
#define PROF_TOP 10		/* top symbols a summary keeps */
#define PROF_SYM_LEN 64		/* symbol name kept in a summary */

enum prof_family {
	PROF_COPY,		/* copy_*_iter, copy_user*, memcpy, ... */
	PROF_CSUM,		/* csum_* */
	PROF_PAGECACHE,		/* filemap_*, folio_*, readahead */
	PROF_STACK,		/* TCP/IP, sockets, skbs, the device core */
	PROF_DRIVER,		/* device drivers: loopback, veth, NICs */
	PROF_SOFTIRQ,		/* softirq and NAPI: net_rx_action, polls */
	PROF_SCHED,		/* scheduler and wake-ups */
	PROF_SYSCALL,		/* syscall and interrupt entry and exit */
	PROF_IDLE,		/* idle loops and halts (paravirt too) */
	PROF_USER,		/* any user-space sample */
	PROF_OTHER,		/* the rest of the kernel */
	PROF_NFAM
};

/* Family names as they appear in documents and metric names. */
const char *prof_family_name(int fam);
/* The family of a name from prof_family_name, or -1. */
int prof_family_find(const char *name);
/* One line of help: what a family holds. */
const char *prof_family_help(int fam);
/* The family of a kernel symbol (a ".isra.0"-style suffix is fine). */
int prof_family_of(const char *sym);

/* One symbol and its share, in a summary. */
struct prof_top {
	char name[PROF_SYM_LEN]; /* kernel symbol, or "[user]", "[unknown]" */
	int family;		/* enum prof_family */
	double pct;		/* percent of all samples */
};

/* One window's profile. */
struct prof_summary {
	char event[16];		/* "cycles" or "cpu-clock" */
	int freq;		/* samples per second per CPU asked */
	uint64_t samples;	/* samples counted */
	uint64_t lost;		/* samples the kernel dropped (ring full) */
	double fam_pct[PROF_NFAM]; /* percent of all samples per family */
	uint64_t self_samples;	/* of them, in the measuring process */
	double self_pct[PROF_NFAM]; /* its samples per family, percent of
				    * all samples (the tool's side of a
				    * transfer, its syscalls and the softirq
				    * work done on its stack) */
	int ntop;
	struct prof_top top[PROF_TOP]; /* largest first */
};

/* The kernel's text symbols, sorted by address. */
struct prof_syms {
	size_t n;
	uint64_t *addr;		/* sorted */
	uint32_t *name;		/* offsets into names */
	char *names;
	size_t names_len;
};

/* Load path (NULL = $ZCB_PROC_ROOT/proc/kallsyms). Fails
 * with -EPERM when every address reads 0 (kernel.kptr_restrict). */
int prof_syms_load(struct prof_syms *t, const char *path, char *err,
		   size_t len);
/* Index of the symbol holding ip, or -1 (before the first, or farther
 * than PROF_SYM_SPAN past the last). */
#define PROF_SYM_SPAN (1u << 20)
long prof_syms_find(const struct prof_syms *t, uint64_t ip);
const char *prof_syms_name(const struct prof_syms *t, long i);
void prof_syms_free(struct prof_syms *t);

/* Counts of a window. */
struct prof_agg {
	const struct prof_syms *syms;
	uint32_t *count;	/* per symbol of syms */
	int8_t *fam;		/* per symbol: its family, -1 not yet */
	uint64_t self[PROF_NFAM]; /* samples of the measuring process */
	uint64_t user;		/* user-space samples */
	uint64_t unknown;	/* kernel samples outside the table */
	uint64_t total;
	uint64_t lost;
};

int prof_agg_init(struct prof_agg *a, const struct prof_syms *syms);
void prof_agg_reset(struct prof_agg *a);
/* One sample: user (in user space), self (in the measuring process). */
void prof_agg_add(struct prof_agg *a, uint64_t ip, int user, int self);
/* Shares and the top symbols; event and freq are left to the caller. */
void prof_agg_summary(const struct prof_agg *a, struct prof_summary *s);
void prof_agg_free(struct prof_agg *a);

/* The sampler: one event per online CPU, a ring each, drained by a
 * thread during the window into an agg. */
struct prof_sampler;

/* 0, or -errno with err saying why (no perf support, not permitted). */
int prof_sampler_open(struct prof_sampler **ps, int freq,
		      struct prof_agg *agg, char *err, size_t len);
const char *prof_sampler_event(const struct prof_sampler *ps);
int prof_sampler_start(struct prof_sampler *ps);
/* Stops sampling and drains what is left into the agg. */
int prof_sampler_stop(struct prof_sampler *ps);
void prof_sampler_close(struct prof_sampler *ps);

#endif
