/*
 * cli.h: option values for a tool's main: parse, or die_usage (exit 2)
 * with one line naming the option, the value and what was expected.
 * Mains only: these exit, like die().
 */
#ifndef ZCB_CLI_H
#define ZCB_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

/* A whole number in [min, max] (decimal, or 0x hex). */
long cli_long(const char *opt, const char *s, long min, long max);
/* A size with k/m/g suffixes (lib/core/units.h) in [min, max]. */
uint64_t cli_size(const char *opt, const char *s, uint64_t min, uint64_t max);
/* A decimal number in [lo, hi]. */
double cli_double(const char *opt, const char *s, double lo, double hi);
/*
 * netperf's -I: "LEVEL,WIDTH" (95,5) or "LEVEL" (width 5): a confidence
 * level in [50, 100) and an interval width in (0, 100] percent.
 */
void cli_confidence(const char *opt, const char *s, double *level,
		    double *width);
/* A positive duration ("10", "250ms", "2m") in [min, max] seconds. */
double cli_duration(const char *opt, const char *s, double min, double max);
/* --disturbance's "S,O" or "S" (O 5): two percentages in [0, 100]. */
void cli_disturbance(const char *opt, const char *s, double *steal,
		     double *outside);

/* s is one of the names (a NULL-ended list): its index, or die naming
 * opt and the names allowed. */
int cli_choice(const char *opt, const char *s, const char *const *names);

/* Run this process on cpu only (an option's value, e.g. -B 1), or die
 * naming opt. */
void cli_pin_cpu(const char *opt, int cpu);

/*
 * getopt returned '?' (set opterr = 0 before the loop, so getopt's own
 * message doesn't double ours): one line naming the argument, exit 2.
 */
void cli_bad_option(char *const *argv) __attribute__((noreturn));

/*
 * The options every tool shares, parsed in one place (fio's options as
 * data, at the scale of our tools): a tool describes its own options in
 * a struct cli_tool (a row each, below) and names which common ones it
 * has; cli_parse runs getopt over both, fills struct cli_common itself
 * and hands the tool only its own options; --help prints the tool's
 * synopsis, its rows and then one common block (made from rows too) for
 * the common options it has.
 */
struct cli_common {
	int cpu;		/* -c or --cpu given */
	const char *cpu_list;	/* --cpu=LIST; NULL = the default meters */
	int profile;		/* --profile[=FREQ]: profile added to the list
				 * (FREQ into $ZCB_PROFILE_FREQ) */
	int repeat;		/* --repeat N: set the default before */
	double conf_level;	/* --confidence LEVEL[,WIDTH]; 0 = off */
	double conf_width;	/* percent */
	int json_stdout;	/* -J */
	const char *out;	/* -o / --output FILE; NULL = none */
	const char *label;	/* --label L; NULL = the kernel release */
	int rcvbuf, sndbuf;	/* -i, -o SIZE: SO_RCVBUF, SO_SNDBUF; 0 =
				 * leave (CLI_SOCKBUF) */
	double interval;	/* -i, --interval T: seconds between interval
				 * reports (lib/cpu/ival); 0 = none */
	int json_stream;	/* --json-stream: the intervals as JSON lines
				 * on stdout (--interval 1 unless given) */
	double omit;		/* --omit T: seconds of each sample run but
				 * not measured (iperf3's -O); 0 = none */
	int reruns;		/* --reruns N: disturbed samples made again
				 * per case (CLI_RERUNS: cli_parse sets it,
				 * given or not: $ZCB_RERUNS, else
				 * CLI_RERUNS_DEFAULT) */
	double steal_max;	/* --disturbance S,O: a sample is disturbed
				 * past S% steal of the box */
	double outside_max;	/* or past O% of the box taken by processes
				 * outside the run (lib/cpu/quiet.h) */
	double probe_ms;	/* --probe[=MS] (or $ZCB_PROBE=MS): the box's
				 * speed before each sample (lib/run/probe.h);
				 * 0 = none */
	int reruns_set, disturbance_set, probe_set; /* given (cli_parse's) */
};

#define CLI_RERUNS_DEFAULT 1	/* --reruns unless given or $ZCB_RERUNS */
#define CLI_OMIT_MAX 3600	/* --omit at most, seconds */
#define CLI_PROBE_MS_DEFAULT 100 /* --probe without a value (lib/run/probe.h) */
#define CLI_PROBE_MS_MAX 10000	/* --probe at most, ms */

/* Which common options a tool has (struct cli_tool.common). */
enum {
	CLI_CPU = 1 << 0,	 /* -c, --cpu[=LIST] */
	CLI_METERS = 1 << 1,	 /* --cpu=LIST only (a tool that always
				  * measures: cyclesoak) */
	CLI_REPEAT = 1 << 2,	 /* --repeat N */
	CLI_CONFIDENCE = 1 << 3, /* --confidence L[,W] */
	CLI_RESULT = 1 << 4,	 /* -J, --output FILE, --label L */
	CLI_RESULT_O = 1 << 5,	 /* and -o FILE (zcs and zcc keep the
				  * original's -o: SO_SNDBUF) */
	CLI_SOCKBUF = 1 << 6,	 /* -i SIZE, -o SIZE: the socket buffers
				  * (zcs and zcc, as the originals) */
	CLI_INTERVAL = 1 << 7,	 /* -i, --interval T and --json-stream
				  * (with CLI_SOCKBUF, -i is SO_RCVBUF's:
				  * --interval only) */
	CLI_OMIT = 1 << 8,	 /* --omit T (a tool that measures a rate) */
	CLI_RERUNS = 1 << 9,	 /* --reruns N and --disturbance S[,O]:
				  * disturbed samples made again; --probe */
	/* a benchmark client's: CPU, repeats, its document, intervals */
	CLI_BENCH = CLI_CPU | CLI_REPEAT | CLI_RESULT | CLI_RESULT_O |
		    CLI_INTERVAL,
};

/*
 * A tool's options as data (report/ropts.c's way, for every tool): each
 * option is one row of a table that ends with {0}: what getopt returns
 * for it, its long name, the name of its value and its help in the
 * usage, and what it is. getopt's short and long tables and the --help
 * text are made from the rows, so they cannot drift apart.
 *
 * A row's opt is its short letter ('l' is -l), or for a long-only one a
 * value of CLI_OPT_LONG and up (so it can never be a letter):
 *	enum { O_HOT = CLI_OPT_LONG, O_CC };
 * A row that only stores its value (a string, a flag, a number in a
 * range) into a field of the tool's cfg is all there is to that option:
 *	CLI_VALUE('R', "rounds", "N", CLI_INT, CS(rounds), 2, 1000,
 *		  "calibration rounds (default 5)"),
 *	CLI_STRING(O_CPUS, "cpus", "LIST", CS(cpus), "CPUs to soak"),
 *	CLI_SWITCH('f', "force", CS(force), "store it anyway"),
 * (a row with a message name of its own is all nine fields in order:
 * {'n', NULL, "N", CLI_INT, CO(cli.repeat), 1, 100, "runs", "--repeat"}).
 * One that does more is a CLI_OWN row (it stores nothing; the tool's
 * take groups or option() handle it), a heading or a note between rows
 * is a CLI_TEXT row:
 *	CLI_TAKE('t', NULL, NULL, NULL),	-t, no help: not listed
 *	CLI_HEAD("Additions:"),
 */
enum cli_kind {
	CLI_STR = 1, /* const char *: the argument */
	CLI_FLAG,    /* int: 1 */
	CLI_INT,     /* int: cli_long in [min, max] */
	CLI_LONG,    /* long: cli_long */
	CLI_U32,     /* uint32_t: cli_long */
	CLI_SIZE,    /* uint64_t: cli_size (k/m/g) */
	CLI_SIZE_T,  /* size_t: cli_size (a buffer's length) */
	CLI_DUR,     /* double seconds: cli_duration */
	CLI_DBL,     /* double: cli_double */
	CLI_MS,	     /* int milliseconds (the ms below): cli_duration in
		      * [min, max] seconds */
	CLI_OWN,     /* stores nothing: the tool's take groups or option()
		      * get it */
	CLI_TEXT,    /* no option: help is a line (or lines) of the usage
		      * between rows, a heading or a note */
};

#define CLI_OPT_LONG 256	/* a tool's long-only options: from here */
#define CLI_OPT_COMMON 4096	/* the common long-only options' values */

struct cli_set {
	int opt;	   /* what getopt returns: the short letter, or
			    * CLI_OPT_LONG + n (long only); 0 in CLI_TEXT */
	const char *lname; /* the long name ("port": --port); NULL: none */
	const char *arg;   /* the value's name in the usage ("N"); NULL:
			    * it takes none. "[=X]": an optional value
			    * (after '='); "=X": shown after '=' */
	enum cli_kind kind; /* 0 ends the table */
	size_t off;	   /* offsetof(the tool's cfg, the field) */
	double min, max;   /* the range of a number */
	const char *help;  /* its usage line, or lines split by \n; NULL:
			    * not listed (told in the text around) */
	const char *name;  /* in messages; NULL: "-l" when it has a
			    * letter, else "--long" */
};

#define CLI_VALUE(c, ln, a, k, o, lo, hi, h)                                 \
	{ .opt = (c), .lname = (ln), .arg = (a), .kind = (k), .off = (o),    \
	  .min = (lo), .max = (hi), .help = (h) }
#define CLI_STRING(c, ln, a, o, h)                                           \
	{ .opt = (c), .lname = (ln), .arg = (a), .kind = CLI_STR,            \
	  .off = (o), .help = (h) }
#define CLI_SWITCH(c, ln, o, h)                                              \
	{ .opt = (c), .lname = (ln), .kind = CLI_FLAG, .off = (o),           \
	  .help = (h) }
#define CLI_TAKE(c, ln, a, h)                                                \
	{ .opt = (c), .lname = (ln), .arg = (a), .kind = CLI_OWN, .help = (h) }
#define CLI_HEAD(h) { .kind = CLI_TEXT, .help = (h) }

/* Store one plain option (a row of a cli_set table) into cfg. */
void cli_store(const struct cli_set *s, void *cfg, const char *arg);
/* The row's name in messages (its .name, else "-l" or "--long"). */
const char *cli_set_name(const struct cli_set *s, char *buf, size_t len);
/* getopt's has_arg for the row: from its .arg. */
int cli_set_has_arg(const struct cli_set *s);
/*
 * The row's usage: "  -l, --long ARG" (letter 0: "      --long ARG",
 * no long name: "  -l ARG") and its help from column CLI_USAGE_COL, the
 * help's further lines indented to it. A row without help prints nothing.
 */
void cli_set_usage(const struct cli_set *s, int letter, FILE *f);
#define CLI_USAGE_COL 24

struct cli_tool {
	const char *text;	/* --help's preamble: the synopsis lines;
				 * the rows' lines follow, then the
				 * common block */
	unsigned common;	/* CLI_* */
	int repeat_max;		/* upper bound of --repeat */
	int stop;		/* 1: stop at the first argument that is
				 * not an option (cyclesoak's -- CMD) */
	const struct cli_set *sets; /* every option of its own, a row each,
				     * in the usage's order */
	/* the tool's own options in groups (what to run, where, limits):
	 * each returns 1 when opt was one of its own, 0 when not; tried in
	 * order before option() */
	int (*take[3])(void *cfg, int opt, const char *arg);
	/* one of the tool's own options no group took, as getopt returned
	 * it; dies on a bad value (cli_long and friends) */
	void (*option)(void *cfg, int opt, const char *arg);
};

/*
 * A tool's options, in one statement: its --help preamble and the common
 * options it has (CLI_*), then the rest of struct cli_tool (.sets,
 * .repeat_max, .stop, .take, .option).
 */
#define CLI_TOOL(name, txt, com, ...)                                        \
	static const struct cli_tool name = { .text = (txt),                 \
					      .common = (com),               \
					      __VA_ARGS__ }

/*
 * Parse argv: common options into c (defaults as the caller set them),
 * the tool's own through t->option(cfg, ...). -h prints cli_usage and
 * exits 0; a bad option is one line and exit 2. Returns optind: the
 * first argument that is not an option (the tool takes it from there).
 */
int cli_parse(const struct cli_tool *t, void *cfg, struct cli_common *c,
	      int argc, char **argv);
/* The tool's preamble, its rows' lines, then the common options it has. */
void cli_usage(const struct cli_tool *t, FILE *f);

struct res_doc;
/* Where the common options send the result document: "-" (-J), the
 * --output (or -o) file, or NULL (none asked for). */
const char *cli_result_path(const struct cli_common *c);
/*
 * The tool's result document as the common options say: its label (when
 * --label) and its output (cli_result_path), that path checked now, so a
 * bad one dies before the run, naming it.
 */
struct res_doc *cli_result_doc(const struct cli_common *c, const char *tool,
			       int argc, char **argv);
/* Where the result document goes (res_set_output): "-" for -J, the
 * FILE of -o/--output, or NULL for none. */
static inline const char *cli_doc_path(const struct cli_common *c)
{
	return c->json_stdout ? "-" : c->out;
}
/* Where the text goes: stderr when -J took stdout. */
static inline FILE *cli_text(const struct cli_common *c)
{
	return c->json_stdout ? stderr : stdout;
}

#endif
