/* cli.c: the common option set and the parse of a tool's options (cli.h);
 * one option's value is cli_value.c's. */
#include "config.h"
#include "cli.h"
#include "log.h"
#include "result.h"
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* --- the common option set ---------------------------------------------- */

enum {
	O_CPU = CLI_OPT_COMMON,
	O_REPEAT,
	O_CONFIDENCE,
	O_OUTPUT,
	O_LABEL,
	O_PROFILE,
	O_VERSION,
	O_INTERVAL,
	O_JSON_STREAM,
	O_OMIT,
	O_RERUNS,
	O_DISTURBANCE,
	O_PROBE,
};

/* Every common option: which flag brings it, its short letter (0 =
 * none; -i's is not its long form's value) and its row. */
static const struct {
	unsigned flag;
	int letter;
	struct cli_set row;
} common[] = {
	{ CLI_CPU, 'c',
	  CLI_TAKE('c', NULL, NULL,
		   "measure CPU with the default meters: soak and\n"
		   "procstat in paired runs when the box is calibrated\n"
		   "(cyclesoak --calibrate), else procstat") },
	{ CLI_CPU | CLI_METERS, 0,
	  CLI_TAKE(O_CPU, "cpu", "[=LIST]",
		   "the meters: soak,procstat,rusage,perf (soak runs\n"
		   "in pairs, metered and unmetered, and adds procstat),\n"
		   "profile (kernel profile by family, paired too) and\n"
		   "sched (exact, from the kernel's events by BPF)") },
	{ CLI_CPU | CLI_METERS, 0,
	  CLI_TAKE(O_PROFILE, "profile", "[=FREQ]",
		   "add the profile meter (to --cpu's list, else\n"
		   "to procstat) sampling at FREQ Hz (999)") },
	{ CLI_REPEAT, 0,
	  CLI_TAKE(O_REPEAT, "repeat", "N",
		   "N samples of each case (with soak: N pairs)") },
	{ CLI_CONFIDENCE, 0,
	  CLI_TAKE(O_CONFIDENCE, "confidence", "L[,W]",
		   "repeat until the L% interval of the rate is\n"
		   "within W% (default 5) of it, at most --repeat") },
	{ CLI_OMIT, 0,
	  CLI_TAKE(O_OMIT, "omit", "T",
		   "the first T (e.g. 2, 500ms) of each sample runs\n"
		   "but stays out of its rate and its CPU window\n"
		   "(iperf3's -O; the document says what it left out)") },
	{ CLI_RERUNS, 0,
	  CLI_TAKE(O_RERUNS, "reruns", "N",
		   "a disturbed sample is kept, marked, and made\n"
		   "again, at most N times a case (default 1, or\n"
		   "$ZCB_RERUNS; 0: marked only)") },
	{ CLI_RERUNS, 0,
	  CLI_TAKE(O_DISTURBANCE, "disturbance", "S[,O]",
		   "a sample is disturbed when the box's steal time\n"
		   "passes S% of it or processes outside the run take\n"
		   "more than O% (default 2,5)") },
	{ CLI_RERUNS, 0,
	  CLI_TAKE(O_PROBE, "probe", "[=MS]",
		   "before each sample, time a fixed loop on each of\n"
		   "its CPUs for MS (default 100; $ZCB_PROBE=MS): the\n"
		   "box's speed, kept in the sample (compare --history\n"
		   "adjusts for it)") },
	{ CLI_SOCKBUF, 'i',
	  CLI_TAKE('i', NULL, "SIZE", "TCP receive buffer (SO_RCVBUF)") },
	{ CLI_SOCKBUF, 'o',
	  CLI_TAKE('o', NULL, "SIZE",
		   "TCP send buffer (SO_SNDBUF; the result\n"
		   "document goes to --output)") },
	{ CLI_RESULT, 'J',
	  CLI_TAKE('J', NULL, NULL,
		   "result document to stdout (text to stderr)") },
	{ CLI_RESULT_O, 'o',
	  CLI_TAKE('o', NULL, "FILE", "result document to FILE") },
	{ CLI_RESULT, 0,
	  CLI_TAKE(O_OUTPUT, "output", "FILE",
		   "result document to FILE (a failed run's goes\n"
		   "to FILE.failed when FILE holds a good one)") },
	{ CLI_RESULT, 0,
	  CLI_TAKE(O_LABEL, "label", "L",
		   "what runs are compared by (default: the\n"
		   "kernel release)") },
	{ CLI_INTERVAL, 'i',
	  CLI_TAKE(O_INTERVAL, "interval", "T",
		   "a line per interval of T (e.g. 1, 500ms) while\n"
		   "it runs: the rate and, with -c, the box's CPU;\n"
		   "kept in the result (each sample's intervals)") },
	{ CLI_INTERVAL, 0,
	  CLI_TAKE(O_JSON_STREAM, "json-stream", NULL,
		   "also one JSON object per interval and one at\n"
		   "the end, a line each on stdout (text to stderr;\n"
		   "an interval of 1 s unless one is given)") },
	{ ~0u, 'v',
	  CLI_TAKE('v', "verbose", NULL, "more output; -q, --quiet: less") },
	{ ~0u, 'q', CLI_TAKE('q', "quiet", NULL, NULL) },
	{ ~0u, 'h', CLI_TAKE('h', "help", NULL, "this help") },
	{ ~0u, 0,
	  CLI_TAKE(O_VERSION, "version", NULL,
		   "\"NAME zcbench VERSION\" (scripts check that\n"
		   "both hosts run the same)") },
};
#define NCOMMON (sizeof(common) / sizeof(common[0]))

static int has(const struct cli_tool *t, unsigned flag)
{
	return flag == ~0u || (t->common & flag);
}

/* -i is --interval's short form: not where it is SO_RCVBUF's (zcc). */
static int short_of(const struct cli_tool *t, size_t i)
{
	if (common[i].flag == CLI_INTERVAL && has(t, CLI_SOCKBUF))
		return 0;
	return common[i].letter;
}

void cli_usage(const struct cli_tool *t, FILE *f)
{
	const struct cli_set *s;
	size_t i;

	fputs(t->text, f);
	for (s = t->sets; s && s->kind; s++)
		if (s->kind == CLI_TEXT)
			fprintf(f, "%s\n", s->help);
		else
			cli_set_usage(s, s->opt < CLI_OPT_LONG ? s->opt : 0, f);
	fputs("\nCommon options:\n", f);
	for (i = 0; i < NCOMMON; i++)
		if (has(t, common[i].flag))
			cli_set_usage(&common[i].row, short_of(t, i), f);
}

/* A common letter of the tool's common options (its rows may not have
 * it). */
static int common_letter(const struct cli_tool *t, int v)
{
	size_t i;

	for (i = 0; i < NCOMMON; i++)
		if (common[i].letter == v && has(t, common[i].flag))
			return 1;
	return 0;
}

/* A short letter for getopt: "l", "l:" or "l::" by its has_arg. */
static void add_short(char *shorts, size_t slen, int letter, int has_arg)
{
	char l[4] = { (char)letter, 0, 0, 0 };

	if (has_arg != no_argument)
		l[1] = ':';
	if (has_arg == optional_argument)
		l[2] = ':';
	strncat(shorts, l, slen - strlen(shorts) - 1);
}

/* A common option's long name the tool has (its own may not). */
static int common_long(const struct cli_tool *t, const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMON; i++)
		if (common[i].row.lname && has(t, common[i].flag) &&
		    !strcmp(common[i].row.lname, name))
			return 1;
	return 0;
}

/* One of the tool's rows checked (a bad one is the tool's bug: die
 * loudly): a letter of its own (not a common one) or a long-only value
 * with a long name (not a common one), each once, and a value's name
 * where it stores one. */
static void check_row(const struct cli_tool *t, const struct cli_set *s)
{
	const struct cli_set *o;
	char nm[64];

	if (s->kind == CLI_TEXT)
		return;
	cli_set_name(s, nm, sizeof(nm));
	if (s->opt < CLI_OPT_LONG && !isalnum(s->opt))
		die("cli: option %d: a letter, or CLI_OPT_LONG and up", s->opt);
	if (s->opt < CLI_OPT_LONG && common_letter(t, s->opt))
		die("cli: -%c is both common and the tool's", s->opt);
	if (s->opt >= CLI_OPT_COMMON || (s->opt >= CLI_OPT_LONG && !s->lname))
		die("cli: option %d: a long-only option below %d needs its "
		    "long name", s->opt, CLI_OPT_COMMON);
	if (s->lname && common_long(t, s->lname))
		die("cli: --%s is both common and the tool's", s->lname);
	if (!s->arg && s->kind != CLI_FLAG && s->kind != CLI_OWN)
		die("cli: %s stores a value: its row names it (.arg)", nm);
	for (o = t->sets; o != s; o++)
		if (o->kind != CLI_TEXT &&
		    (o->opt == s->opt ||
		     (s->lname && o->lname && !strcmp(s->lname, o->lname))))
			die("cli: %s is two rows", nm);
}

/* The tool's rows into getopt's tables: letters into shorts, long names
 * into lo from n. Returns the new n. */
static size_t row_options(const struct cli_tool *t, char *shorts, size_t slen,
			  struct option *lo, size_t n)
{
	const struct cli_set *s;

	for (s = t->sets; s && s->kind; s++) {
		check_row(t, s);
		if (s->kind == CLI_TEXT)
			continue;
		if (s->opt < CLI_OPT_LONG)
			add_short(shorts, slen, s->opt, cli_set_has_arg(s));
		if (s->lname)
			lo[n++] = (struct option){ s->lname, cli_set_has_arg(s),
						   NULL, s->opt };
	}
	return n;
}

/* getopt's tables: the tool's rows, then the common ones it has. A clash
 * is the tool's bug: die loudly. Free the result. */
static struct option *tables(const struct cli_tool *t, char *shorts,
			     size_t slen)
{
	const struct cli_set *s;
	struct option *lo;
	size_t nr = 0, i, n;

	for (s = t->sets; s && s->kind; s++)
		nr++;
	lo = calloc(nr + NCOMMON + 1, sizeof(*lo));
	if (!lo)
		abort();
	/* '+' (stop at the first argument that is not an option, cyclesoak's
	 * -- CMD) must come before getopt's ':' */
	snprintf(shorts, slen, "%s:", t->stop ? "+" : "");
	n = row_options(t, shorts, slen, lo, 0);
	if (has(t, CLI_SOCKBUF) && has(t, CLI_RESULT_O))
		die("cli: -o is both SO_SNDBUF and the result document");
	for (i = 0; i < NCOMMON; i++) {
		const struct cli_set *r = &common[i].row;

		if (!has(t, common[i].flag))
			continue;
		if (short_of(t, i))
			add_short(shorts, slen, common[i].letter,
				  cli_set_has_arg(r));
		if (r->lname)
			lo[n++] = (struct option){ r->lname, cli_set_has_arg(r),
						   NULL, r->opt };
	}
	return lo;
}

/* --omit's T: a duration of 0 (none) to CLI_OMIT_MAX seconds. */
static double cli_omit(const char *opt, const char *s)
{
	double v;

	if (units_parse_duration(s, &v) || !(v >= 0) || v > CLI_OMIT_MAX)
		die_usage("%s: \"%s\" is not a duration in 0s..%ds (e.g. 2s, 500ms)",
			  opt, s, CLI_OMIT_MAX);
	return v;
}

/* CLI_RERUNS: what was not given, from $ZCB_RERUNS and the defaults. */
static void rerun_defaults(const struct cli_tool *t, struct cli_common *c)
{
	const char *e = getenv("ZCB_RERUNS");
	long v;

	if (!has(t, CLI_RERUNS))
		return;
	if (!c->reruns_set && e && *e) {
		if (units_parse_long(e, 0, 100, &v))
			die_usage("ZCB_RERUNS=%s: not a number of re-runs (0 to 100)",
				  e);
		c->reruns = (int)v;
	} else if (!c->reruns_set) {
		c->reruns = CLI_RERUNS_DEFAULT;
	}
	if (!c->disturbance_set) {
		c->steal_max = 2;
		c->outside_max = 5;
	}
	e = getenv("ZCB_PROBE");
	if (!c->probe_set && e && *e) {
		if (units_parse_long(e, 0, CLI_PROBE_MS_MAX, &v))
			die_usage("ZCB_PROBE=%s: not a probe length in ms (0 to %d)",
				  e, CLI_PROBE_MS_MAX);
		c->probe_ms = (double)v;
	}
}

/* A common option; 0 when opt is not one. */
static int take_common(const struct cli_tool *t, struct cli_common *c,
		       int opt, const char *arg)
{
	/* a letter the tool has as its own (no clash: tables() checked) */
	if ((opt == 'c' && !has(t, CLI_CPU)) ||
	    (opt == 'J' && !has(t, CLI_RESULT)) ||
	    (opt == 'o' && !has(t, CLI_RESULT_O | CLI_SOCKBUF)) ||
	    (opt == 'i' && !has(t, CLI_SOCKBUF | CLI_INTERVAL)))
		return 0;
	switch (opt) {
	case 'c':
		c->cpu = 1;
		return 1;
	case O_CPU:
		c->cpu = 1;
		if (arg && !*arg)
			die_usage("--cpu=: an empty meter list");
		if (arg)
			c->cpu_list = arg;
		return 1;
	case O_PROFILE: /* the meter reads its frequency from there */
		c->cpu = c->profile = 1;
		if (arg) {
			cli_long("--profile", arg, 1, 10000);
			if (setenv("ZCB_PROFILE_FREQ", arg, 1))
				die("--profile: %s", strerror(errno));
		}
		return 1;
	case O_REPEAT:
		c->repeat = (int)cli_long("--repeat", arg, 1,
					  t->repeat_max > 0 ? t->repeat_max :
							      1000000);
		return 1;
	case O_CONFIDENCE:
		cli_confidence("--confidence", arg, &c->conf_level,
			       &c->conf_width);
		return 1;
	case 'J':
		c->json_stdout = 1;
		return 1;
	case 'i':
		if (!has(t, CLI_SOCKBUF)) {
			c->interval = cli_duration("-i", arg, 0.01, 86400);
			return 1;
		}
		c->rcvbuf = (int)cli_size("-i", arg, 1, INT_MAX / 2);
		return 1;
	case O_INTERVAL:
		c->interval = cli_duration("--interval", arg, 0.01, 86400);
		return 1;
	case O_JSON_STREAM:
		c->json_stream = 1;
		return 1;
	case O_OMIT:
		c->omit = cli_omit("--omit", arg);
		return 1;
	case O_RERUNS:
		c->reruns = (int)cli_long("--reruns", arg, 0, 100);
		c->reruns_set = 1;
		return 1;
	case O_DISTURBANCE:
		cli_disturbance("--disturbance", arg, &c->steal_max,
				&c->outside_max);
		c->disturbance_set = 1;
		return 1;
	case O_PROBE:
		c->probe_ms = arg ? (double)cli_long("--probe", arg, 1,
						     CLI_PROBE_MS_MAX)
				  : CLI_PROBE_MS_DEFAULT;
		c->probe_set = 1;
		return 1;
	case 'o': /* the socket's, or the document's */
		if (has(t, CLI_SOCKBUF))
			c->sndbuf = (int)cli_size("-o", arg, 1, INT_MAX / 2);
		else
			c->out = arg;
		return 1;
	case O_OUTPUT:
		c->out = arg;
		return 1;
	case O_LABEL:
		c->label = arg;
		return 1;
	case 'v':
		log_level++;
		return 1;
	case 'q':
		log_level = LOG_QUIET;
		return 1;
	case 'h':
		cli_usage(t, stdout);
		exit(0);
	case O_VERSION:
		printf("%s zcbench %s\n", log_prog, PACKAGE_VERSION);
		exit(0);
	}
	return 0;
}

/*
 * "--cpu soak,procstat": getopt leaves an optional value that is not
 * after '=' for an argument; when the next word is a list of meters
 * only, say where it goes rather than let the tool call it a stray
 * argument (or its target).
 */
static void cpu_list_apart(int o, const char *arg, int argc, char **argv)
{
	static const char meters[] = ",soak,procstat,rusage,perf,profile,sched,";
	const char *s, *e;
	char tok[24];

	if (o != O_CPU || arg || optind >= argc || argv[optind][0] == '-')
		return;
	for (s = argv[optind]; *s; s = *e ? e + 1 : e) {
		e = strchrnul(s, ',');
		if (e == s || e - s > 16)
			return;
		snprintf(tok, sizeof(tok), ",%.*s,", (int)(e - s), s);
		if (!strstr(meters, tok))
			return;
	}
	die_usage("--cpu %s: the meter list goes after '=' (--cpu=%s)",
		  argv[optind], argv[optind]);
}

/* One of the tool's own options: a plain one from its table, else the
 * first group that takes it, else option(); none at all is the tool's
 * bug. */
static void take_own(const struct cli_tool *t, void *cfg, int o,
		     const char *arg)
{
	const struct cli_set *s;
	size_t i;

	for (s = t->sets; s && s->kind; s++)
		if (s->kind != CLI_TEXT && s->opt == o) {
			if (s->kind != CLI_OWN) {
				cli_store(s, cfg, arg);
				return;
			}
			break;
		}

	for (i = 0; i < sizeof(t->take) / sizeof(t->take[0]); i++)
		if (t->take[i] && t->take[i](cfg, o, arg))
			return;
	if (!t->option)
		die("cli: nothing takes option %d", o);
	t->option(cfg, o, arg);
}

/* --profile: the profile meter joins --cpu's list (procstat's when none
 * was given: the profile comes paired, and soak's soakers would fill it
 * as user time), once. */
static void add_profile(struct cli_common *c)
{
	static char list[256];
	const char *l = c->cpu_list ? c->cpu_list : "procstat", *p;
	size_t n = strlen(l);

	if (!c->profile)
		return;
	for (p = l; (p = strstr(p, "profile")); p += 7)
		if ((p == l || p[-1] == ',') && (p[7] == ',' || !p[7]))
			return; /* already there */
	if (n + sizeof(",profile") > sizeof(list))
		die_usage("--cpu=%s: a list too long to add profile to", l);
	snprintf(list, sizeof(list), "%s,profile", l);
	c->cpu_list = list;
}

int cli_parse(const struct cli_tool *t, void *cfg, struct cli_common *c,
	      int argc, char **argv)
{
	char shorts[256];
	struct option *lo = tables(t, shorts, sizeof(shorts));
	int o;

	opterr = 0; /* one line of our own per bad option */
	while ((o = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		if (o == ':')
			die_usage("%s: needs a value", argv[optind - 1]);
		if (o == '?')
			cli_bad_option(argv);
		cpu_list_apart(o, optarg, argc, argv);
		if (!take_common(t, c, o, optarg))
			take_own(t, cfg, o, optarg);
	}
	free(lo);
	add_profile(c);
	rerun_defaults(t, c);
	if (c->json_stdout && c->out)
		die_usage("-J and --output: one place for the result document");
	if (c->json_stream && c->json_stdout)
		die_usage("--json-stream and -J: both want stdout (use --output FILE for the document)");
	if (c->json_stream && c->interval <= 0)
		c->interval = 1;
	return optind;
}

const char *cli_result_path(const struct cli_common *c)
{
	return c->json_stdout ? "-" : c->out;
}

struct res_doc *cli_result_doc(const struct cli_common *c, const char *tool,
			       int argc, char **argv)
{
	const char *path = cli_result_path(c);
	struct res_doc *d;
	char err[512];

	if (res_check_output(path, err, sizeof(err)))
		die("%s", err);
	d = res_new(tool, argc, argv);
	if (c->label)
		res_set_label(d, c->label);
	res_set_output(d, path);
	return d;
}
