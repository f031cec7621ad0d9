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
 * a struct cli_tool and names which common ones it has; cli_parse runs
 * getopt over both, fills struct cli_common itself and hands the tool
 * only its own options; --help prints the tool's text and then one
 * common block for the options it has.
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
};

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
	/* a benchmark client's: CPU, repeats, its document, intervals */
	CLI_BENCH = CLI_CPU | CLI_REPEAT | CLI_RESULT | CLI_RESULT_O |
		    CLI_INTERVAL,
};

/*
 * The plain options as data: one that only stores its value (a string,
 * a flag, a number in a range) into a field of the tool's cfg is a line
 * of a {0}-ended table, not a case of a switch: its letter, its name in
 * messages, its kind, its field and, for a number, its range; a string
 * or a flag has no range (CLI_STRING, CLI_SWITCH):
 *	{'R', "--rounds", CLI_INT, CS(rounds), 2, 1000},
 *	CLI_STRING('U', "--cpus", CS(cpus)),
 *	CLI_SWITCH('f', "--force", CS(force)),
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
};

struct cli_set {
	int opt;	   /* what getopt returns for it; 0 ends the table */
	const char *name;  /* in messages: "--port" */
	enum cli_kind kind;
	size_t off;	   /* offsetof(the tool's cfg, the field) */
	double min, max;   /* the range of a number */
};

#define CLI_STRING(c, nm, o)                                                 \
	{ .opt = (c), .name = (nm), .kind = CLI_STR, .off = (o) }
#define CLI_SWITCH(c, nm, o)                                                 \
	{ .opt = (c), .name = (nm), .kind = CLI_FLAG, .off = (o) }

/* Store one plain option (a line of a cli_set table) into cfg. */
void cli_store(const struct cli_set *s, void *cfg, const char *arg);

struct cli_tool {
	const char *text;	/* --help: synopsis and the tool's own
				 * options; the common block follows */
	unsigned common;	/* CLI_* */
	int repeat_max;		/* upper bound of --repeat */
	const char *shortopts;	/* the tool's own, getopt syntax; a
				 * leading '+': stop at the first
				 * argument that is not an option */
	const char *longs;	/* its own long options as data, like
				 * shortopts: "name=c" (no value),
				 * "name=c:" (a value), "name=c::" (an
				 * optional one), separated by spaces; c
				 * is what option() gets: the short letter
				 * it is the long form of, or a character
				 * of its own (not a common letter) */
	const struct cli_set *sets; /* its plain options, taken first */
	/* the tool's own options in groups (what to run, where, limits):
	 * each returns 1 when opt was one of its own, 0 when not; tried in
	 * order before option() */
	int (*take[3])(void *cfg, int opt, const char *arg);
	/* one of the tool's own options no group took, as getopt returned
	 * it; dies on a bad value (cli_long and friends) */
	void (*option)(void *cfg, int opt, const char *arg);
};

/*
 * A tool's options, in one statement: its --help text, the common options
 * it has (CLI_*) and its own short ones, then the rest of struct cli_tool
 * (.repeat_max, .longs, .sets, .take, .option).
 */
#define CLI_TOOL(name, txt, com, shorts, ...)                                \
	static const struct cli_tool name = { .text = (txt),                 \
					      .common = (com),               \
					      .shortopts = (shorts),         \
					      __VA_ARGS__ }

#define CLI_OPT_COMMON 4096	/* the common long-only options' values */

/*
 * Parse argv: common options into c (defaults as the caller set them),
 * the tool's own through t->option(cfg, ...). -h prints cli_usage and
 * exits 0; a bad option is one line and exit 2. Returns optind: the
 * first argument that is not an option (the tool takes it from there).
 */
int cli_parse(const struct cli_tool *t, void *cfg, struct cli_common *c,
	      int argc, char **argv);
/* The tool's text, then the common options it has. */
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
