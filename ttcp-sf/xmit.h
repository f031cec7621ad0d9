/* xmit.h: the transmitter (-t) as its modes (mode.h) see it: the
 * settings, the document, the CPU window, the source, the sample under
 * way. */
#ifndef ZCB_TTCP_XMIT_H
#define ZCB_TTCP_XMIT_H

#include "mode.h"
#include "series.h"
#include "ttcp.h"

struct xmit {
	const struct ttcp_mode *mode; /* the workload (mode.h) */
	const struct cfg *c;
	const struct xfer_ops *ops;
	struct series ser;	/* which run comes next, and the rates */
	struct sample s;	/* the run being made (run, then done) */
	struct res_doc *d;
	struct cpuwin w;	/* this side's CPU (-c) */
	const char *paired_by;	/* "soak", "profile" or NULL: the meter
				 * whose cost makes the runs go in pairs */
	struct xfer_source src;	/* what the samples send, when they do */
	int have_src;		/* src is open */
	const char *source;	/* "file" / "hot" */
	uint64_t zc_completions, zc_copied; /* over all samples */
	char me[256], boot[40];
	/* the run's end-of-run exchange, made before the series judges it
	 * (run), its next frame after (done) */
	struct ctl_report rep;	/* the receiver's report */
	int have_rep;		/* 1: rep is filled */
	int ctl_fd;		/* the exchange's connection, for the next
				 * frame; -1 none */
	char why[600];		/* no report: why */
	int outcome;		/* series_quiet's: SERIES_OK, _DISTURBED */
	int omit_told;		/* the ends' --omit differ: said */
	char quiet_why[300];	/* and in words */
};

/* The source every sample sends from (the file, or a temp file of the
 * pattern), made before the first connection; its lines. */
void xmit_open_source(struct xmit *t);

#endif
