/*
 * cmpnights.h: nights given a path each, oldest first, as zcbreport
 * trend and plan --history read them (cmpnights.c): a set per night,
 * every night's cases in one selection, matched into compare's case keys
 * (tool, params, pairing), and a key's values of a metric each with its
 * night.
 */
#ifndef ZCB_CMPNIGHTS_H
#define ZCB_CMPNIGHTS_H

#include "judge.h"

struct cmp_nights {
	struct res_pool *set; /* [c->o.npaths] a night each */
	struct res_sel all;   /* every night's cases */
	struct cmp_state st;  /* their keys and metrics */
	int keyed;	      /* st was made (to free) */
};

/* Load c->o.paths as the nights (c->nights, c->nnights then point at
 * them) and match their cases into keys; cmd names the command in a
 * message. 0, or 2 when a path was refused or no night has a usable
 * case (said). Close it either way. */
int cmp_nights_open(struct cmp_cfg *c, const char *cmd, struct cmp_nights *ns);
void cmp_nights_close(struct cmp_cfg *c, struct cmp_nights *ns);

/* Key k's values of metric (the base side: every night's), each with
 * its night, appended to f. */
void cmp_key_night_values(const struct cmp_cfg *c, const struct ckey *k,
			  const char *metric, struct kfig *f);

/* plan --history's table of the drift by the time between runs
 * (cmplag.c): each primary row's runs paired and binned by the time
 * apart, printed when any row fills two bins of them. */
void cmp_plan_lags(const struct cmp_nights *nt);

#endif
