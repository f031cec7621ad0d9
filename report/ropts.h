/*
 * ropts.h: zcbreport's options, as data (fio's struct fio_option at our
 * scale): one table says, for every option, which subcommands take it,
 * its letter and name, what kind of value it has and where the value
 * goes in struct ropts; one parser and one usage printer serve every
 * subcommand. A subcommand sets its defaults, calls ropt_parse with its
 * row of the subcommand table (main.c), then checks the combinations
 * its options allow.
 */
#ifndef ZCB_ROPTS_H
#define ZCB_ROPTS_H

#include "rsel.h"
#include "tbl.h"

#define RPT_MAX_METRICS 32 /* --metric M[,M] */

/* The subcommands, as bits (which ones an option serves). */
enum {
	RC_TABLE = 1,
	RC_COMPARE = 2,
	RC_PLOT = 4,
	RC_HTML = 8,
	RC_PLAN = 16,
	RC_TREND = 32
};

/* plot --errors: the error bars. */
enum err_kind { ERR_SD, ERR_CI95, ERR_NONE };

struct ropts {
	/* every subcommand */
	const char *where[RPT_MAX_WHERE]; /* --where PARAM=VALUE */
	size_t nwhere;
	char **paths; /* the arguments after the options */
	int npaths;
	/* table and compare */
	const char *metrics[RPT_MAX_METRICS]; /* --metric M[,M] */
	size_t nmetrics;
	/* table and plot */
	const char *tool;    /* --tool */
	enum stat_kind stat; /* --stat */
	/* table */
	const char *layout;		/* --layout: a seed layout or all */
	const char *rows[RPT_MAX_KEYS]; /* --rows (grid) */
	size_t nrows;
	const char *cols; /* --cols (grid) */
	int show_sd;	  /* --sd (grid) */
	enum tbl_fmt fmt; /* --format */
	/* compare */
	double threshold; /* --threshold, percent */
	double alpha;	  /* --alpha (with --looks: a look's level) */
	double alpha_all; /* --alpha as given: all --looks together */
	long looks;	  /* --looks K: one of K planned looks (Pocock) */
	double looks_z;	  /* with looks > 1: the boundary, a look's z */
	double max_cov;	  /* --max-cov, percent */
	long min_n;	  /* --min-n */
	int paired;	  /* --paired */
	int history;	  /* --history: the paths are nights, then NEW */
	int no_probe;	  /* --no-probe: history rows not adjusted for the
			   * samples' box probe (compare/cmpprobe.h) */
	char *split;	  /* --split PARAM=A,B */
	int cfmt;	  /* --format: enum cmp_fmt (compare/cmp.h) */
	int judge;	  /* --judge: enum cmp_judge (compare/cmp.h) */
	int mw;		  /* --mann-whitney: enum cmp_mw (compare/cmp.h) */
	/* plan */
	double change; /* --change PCT to find */
	double power;  /* --power */
	long rounds;   /* --rounds: the baseline's rounds */
	long cap;      /* --cap: most rounds */
	/* plot */
	const char *out;		 /* --output PREFIX */
	const char *x;			 /* --x */
	const char *metric;		 /* --metric (y) */
	const char *lines[RPT_MAX_KEYS]; /* --lines */
	size_t nlines;
	enum err_kind err; /* --errors */
	const char *title; /* --title */
	int print;	   /* --print */
	int png;	   /* 0: --no-png */
	char *ratio;	   /* --ratio KEY=A,B (taken apart into the next) */
	const char *ratio_key, *ratio_a, *ratio_b;
	int script; /* --script: keep PREFIX.gp and PREFIX.dat */
};

/*
 * A subcommand: one row of zcbreport's table (main.c), which makes
 * zcbreport's usage and its errors, and the command's own usage here.
 */
struct rcmd {
	const char *name;     /* "compare" */
	const char *args;     /* its arguments in zcbreport's usage */
	const char *help;     /* what it does, in zcbreport's usage */
	unsigned opts;	      /* RC_*: the bit its options carry */
	const char *synopsis; /* the first lines of its own usage */
	const char *footer;   /* its own usage's last words */
	int (*run)(const struct rcmd *self, int argc, char **argv);
};

/*
 * Parse the options of subcommand cmd into o (defaults set before); the
 * rest of argv becomes o->paths. -h prints the usage and exits 0; a bad
 * option or value is one line and exit 2.
 */
void ropt_parse(const struct rcmd *cmd, int argc, char **argv,
		struct ropts *o);
/* The usage of subcommand cmd. */
void ropt_usage(const struct rcmd *cmd, FILE *f);

#endif
