/*
 * plot.c: zcbreport plot: a metric against a size param (log2 x axis),
 * one line per label/method, error bars of the spread, drawn by gnuplot
 * as a PNG (pngcairo, else png) and as ASCII (dumb terminal, 72x20) for
 * a plain-text mail. The title names the meter and the run count.
 *
 * gnuplot never outlives us: from the temporary directory on, INT, TERM
 * and HUP (unless ignored at start, as nohup does) end the gnuplot
 * running, remove what it was writing and the temporary files, and exit
 * 128 + the signal; a SIGKILL reaches gnuplot through PR_SET_PDEATHSIG.
 */
#include "config.h"
#include "esc.h"
#include "log.h"
#include "report.h"
#include "sig.h"
#include "stats.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GNUPLOT_TIMEOUT_S 60 /* a gnuplot that hangs is killed */
#define GNUPLOT_GRACE_S	  2  /* after SIGTERM, before SIGKILL */

enum err_kind { ERR_SD, ERR_CI95, ERR_NONE };

struct plot_cfg {
	const char *out;		 /* PREFIX: PREFIX.png and PREFIX.txt */
	const char *tool;		 /* which tool's cases */
	const char *x;			 /* size param; default by tool */
	const char *metric;		 /* y */
	const char *lines[RPT_MAX_KEYS]; /* series keys */
	size_t nlines;
	enum err_kind err;
	enum stat_kind stat;
	const char *where[RPT_MAX_WHERE];
	size_t nwhere;
	const char *title; /* overrides the generated title */
	int print;	   /* print the ASCII plot to stdout */
	int png;	   /* 0: ASCII only */
	char **paths;
	int npaths;
};

static void usage(void)
{
	printf("usage: zcbreport plot [options] PATH...\n"
	       "  -o, --output PREFIX  write PREFIX.png and PREFIX.txt "
	       "(default zcbplot)\n"
	       "  -t, --tool TOOL      the tool's cases (needed when several)\n"
	       "  -x, --x PARAM        x axis (default size, iosize or "
	       "rsize), log2 scale\n"
	       "  -y, --metric M       y axis (default throughput_MBps)\n"
	       "  -l, --lines K[,K]    one line per value of these keys "
	       "(default: label and\n"
	       "                       the params that vary besides x)\n"
	       "  -e, --errors E       sd (default), ci95 or none\n"
	       "  -s, --stat S         auto (default: hmean for rates, else mean),\n"
	       "                       mean, median or hmean\n"
	       "  -w, --where P=V      only cases whose param P is V\n"
	       "      --title T        the plot's title\n"
	       "  -p, --print          print the ASCII plot to stdout\n"
	       "      --no-png         the ASCII plot only\n"
	       "gnuplot: $GNUPLOT, else the configured one, else PATH.\n");
}

static void parse_opts(int argc, char **argv, struct plot_cfg *c)
{
	static const struct option opts[] = {
		{"output", required_argument, NULL, 'o'},
		{"tool", required_argument, NULL, 't'},
		{"x", required_argument, NULL, 'x'},
		{"metric", required_argument, NULL, 'y'},
		{"lines", required_argument, NULL, 'l'},
		{"errors", required_argument, NULL, 'e'},
		{"stat", required_argument, NULL, 's'},
		{"where", required_argument, NULL, 'w'},
		{"title", required_argument, NULL, 'T'},
		{"print", no_argument, NULL, 'p'},
		{"no-png", no_argument, NULL, 'P'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	char *tok, *save = NULL;
	int o;

	while ((o = getopt_long(argc, argv, "o:t:x:y:l:e:s:w:phvq", opts,
				NULL)) != -1) {
		switch (o) {
		case 'o':
			c->out = optarg;
			break;
		case 't':
			c->tool = optarg;
			break;
		case 'x':
			c->x = optarg;
			break;
		case 'y':
			c->metric = optarg;
			break;
		case 'l':
			for (tok = strtok_r(optarg, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save))
				if (c->nlines < RPT_MAX_KEYS - 1)
					c->lines[c->nlines++] = tok;
			break;
		case 'e':
			if (!strcmp(optarg, "sd"))
				c->err = ERR_SD;
			else if (!strcmp(optarg, "ci95"))
				c->err = ERR_CI95;
			else if (!strcmp(optarg, "none"))
				c->err = ERR_NONE;
			else
				die_usage("--errors: \"%s\" is not sd, ci95 or "
					  "none",
					  optarg);
			break;
		case 's':
			if (parse_stat(optarg, &c->stat))
				die_usage("--stat: \"%s\" is not auto, mean, median "
					  "or hmean",
					  optarg);
			break;
		case 'w':
			if (!strchr(optarg, '=') || c->nwhere == RPT_MAX_WHERE)
				die_usage("--where: \"%s\" is not PARAM=VALUE",
					  optarg);
			c->where[c->nwhere++] = optarg;
			break;
		case 'T':
			c->title = optarg;
			break;
		case 'p':
			c->print = 1;
			break;
		case 'P':
			c->png = 0;
			break;
		case 'h':
			usage();
			exit(0);
		case 'v':
			log_level++;
			break;
		case 'q':
			log_level = LOG_QUIET;
			break;
		default:
			die_usage("see zcbreport plot --help");
		}
	}
	c->paths = argv + optind;
	c->npaths = argc - optind;
	if (!c->npaths)
		die_usage("plot: no result files or directories given");
	if (!*c->out)
		die_usage("--output: empty prefix");
	if (esc_needed(c->out))
		die_usage("--output: the prefix holds control characters or "
			  "is not UTF-8");
}

/* The one tool of the selection, or NULL when there are several. */
static const char *only_tool(const struct rsel *sel)
{
	size_t i;

	for (i = 1; i < sel->n; i++)
		if (strcmp(sel->v[i].doc->tool, sel->v[0].doc->tool))
			return NULL;
	return sel->n ? sel->v[0].doc->tool : NULL;
}

static const char *default_x(const struct rsel *sel)
{
	static const char *const xs[] = {"size",  "iosize",	    "rsize",
					 "wsize", "bytes_per_loop", "clients",
					 NULL};
	size_t i;
	int k;

	for (k = 0; xs[k]; k++)
		for (i = 0; i < sel->n; i++)
			if (json_is_number(
				    json_object_get(sel->v[i].params, xs[k])))
				return xs[k];
	return NULL;
}

/*
 * Every string gnuplot reads goes through here: a single-quoted gnuplot
 * string, where a backslash, a backquote and '@' are plain text and a
 * quote is doubled. Control characters (a newline would end the command
 * and start the next: system("...")) are escaped to visible text first;
 * with noenhanced terminals nothing else in the string is interpreted.
 */
static void gp_str(FILE *f, const char *s)
{
	char *e = esc_dup(s), *p;

	fputc('\'', f);
	for (p = e; *p; p++) {
		if (*p == '\'')
			fputc('\'', f);
		fputc(*p, f);
	}
	fputc('\'', f);
	free(e);
}

/* End a gnuplot child: SIGTERM, then SIGKILL after the grace time. */
static void end_child(pid_t pid)
{
	struct timespec ts = {0, 50000000};
	int st, i;

	kill(pid, SIGTERM);
	for (i = 0; i < GNUPLOT_GRACE_S * 20; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return;
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
}

static int run_gnuplot(const char *script, char *err, size_t len)
{
	const char *gp = getenv("GNUPLOT");
	pid_t pid, me = getpid();
	int st, i;

#ifdef GNUPLOT_PATH
	if (!gp && access(GNUPLOT_PATH, X_OK) == 0)
		gp = GNUPLOT_PATH;
#endif
	if (!gp)
		gp = "gnuplot";
	pid = fork();
	if (pid < 0) {
		snprintf(err, len, "fork: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		sig_default();
		sig_die_with_parent(SIGTERM, me);
		execlp(gp, gp, script, (char *)NULL);
		fprintf(stderr, "zcbreport: cannot run %s: %s\n", gp,
			strerror(errno));
		_exit(127);
	}
	for (i = 0; i < GNUPLOT_TIMEOUT_S * 20 && !sig_stop; i++) {
		struct timespec ts = {0, 50000000};

		if (waitpid(pid, &st, WNOHANG) == pid) {
			if (WIFEXITED(st) && !WEXITSTATUS(st))
				return 0;
			snprintf(err, len, "%s failed (exit %d)", gp,
				 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
			return -1;
		}
		nanosleep(&ts, NULL);
	}
	end_child(pid);
	if (sig_stop)
		snprintf(err, len, "%s ended: zcbreport got signal %d", gp,
			 (int)sig_stop);
	else
		snprintf(err, len, "%s did not finish within %d s", gp,
			 GNUPLOT_TIMEOUT_S);
	return -1;
}

struct plot_data {
	char title[512];
	char ylabel[128];
	size_t nseries;
	char series[64][256]; /* line titles */
};

/* Whether param p has one value per value of x (total_bytes with
 * iosize): such a param names no line of its own. */
static int tied_to(const struct rsel *sel, const char *x, const char *p)
{
	char a[256], b[256], c[256], d[256];
	size_t i, j;

	for (i = 0; i < sel->n; i++)
		for (j = i + 1; j < sel->n; j++)
			if (!strcmp(case_key(&sel->v[i], x, a, sizeof(a)),
				    case_key(&sel->v[j], x, b, sizeof(b))) &&
			    strcmp(case_key(&sel->v[i], p, c, sizeof(c)),
				   case_key(&sel->v[j], p, d, sizeof(d))))
				return 0;
	return 1;
}

static size_t drop_tied(const struct rsel *sel, const char *x,
			const char **keys, size_t nk)
{
	size_t i, k = 1;

	for (i = 1; i < nk; i++)
		if (!tied_to(sel, x, keys[i]))
			keys[k++] = keys[i];
	return k;
}

/* Write the data blocks (one per series); fills pd. 0 or -1. */
static int write_data(const struct plot_cfg *c, const struct rl_set *s,
		      const struct rsel *sel, const char *x, FILE *f,
		      struct plot_data *pd)
{
	const char *keys[RPT_MAX_KEYS], *excl[3] = {x, NULL, NULL};
	size_t nk = 0, r, k, nmin = (size_t)-1, nmax = 0;
	struct rgroups g;
	char prev[1024] = "", cur[1024];
	int transcribed = 0;

	if (c->nlines) {
		memcpy(keys, c->lines, c->nlines * sizeof(*keys));
		nk = c->nlines;
	} else {
		keys[nk++] = "label";
		nk += sel_varying(sel, excl, keys + nk, RPT_MAX_KEYS - 1 - nk);
		nk = drop_tied(sel, x, keys, nk);
	}
	keys[nk++] = x;
	grp_build(sel, keys, nk, &g);
	for (r = 0; r < g.n; r++) {
		struct cellv v;
		double e = NAN, xv = strtod(g.g[r].vals[nk - 1], NULL);

		cell_value(g.g[r].cases, g.g[r].n, c->metric, c->stat, NULL,
			   NULL, &v);
		if (!v.ok || !(xv > 0))
			continue;
		cur[0] = 0;
		for (k = 0; k + 1 < nk; k++)
			snprintf(cur + strlen(cur), sizeof(cur) - strlen(cur),
				 "%s%s", k ? " " : "", g.g[r].vals[k]);
		if (strcmp(cur, prev)) {
			if (pd->nseries == 64)
				break;
			if (pd->nseries)
				fprintf(f, "\n\n");
			snprintf(pd->series[pd->nseries++], 256, "%s", cur);
			snprintf(prev, sizeof(prev), "%s", cur);
		}
		if (v.n > 1 && isfinite(v.sd))
			e = c->err == ERR_SD ? v.sd
			    : c->err == ERR_CI95
				    ? stats_t_quantile(0.95, (double)v.n - 1) *
					      v.sd / sqrt((double)v.n)
				    : 0;
		fprintf(f, "%.17g %.17g %.17g\n", xv, v.v, isfinite(e) ? e : 0);
		nmin = v.n < nmin ? v.n : nmin;
		nmax = v.n > nmax ? v.n : nmax;
		for (k = 0; k < g.g[r].n; k++)
			transcribed |= g.g[r].cases[k]->doc->transcribed;
	}
	grp_free(&g);
	if (!pd->nseries)
		return -1;
	{
		const char *meter = NULL, *side = "local", *kind = "";
		unsigned kinds = 0;
		char runs[64];

		if (!strncmp(c->metric, "cpu_remote", 10))
			side = "remote";
		for (r = 0; r < sel->n; r++) {
			if (!meter)
				meter = case_meter(sel->v[r].kase, side);
			kinds |= case_runs(sel->v[r].kase, c->metric);
		}
		/* paired runs: which of the pair the figures are */
		if (kinds == RUN_UNMETERED)
			kind = "unmetered ";
		else if (kinds == RUN_METERED)
			kind = "metered ";
		if (nmin == nmax)
			snprintf(runs, sizeof(runs), "%zu %srun%s", nmin, kind,
				 nmin == 1 ? "" : "s");
		else
			snprintf(runs, sizeof(runs), "%zu-%zu %sruns", nmin,
				 nmax, kind);
		snprintf(pd->title, sizeof(pd->title),
			 "%s %s: %s of %s%s, meter %s%s", sel->v[0].doc->tool,
			 c->metric,
			 stat_name(&sel->v[0], c->metric, c->stat), runs,
			 c->err == ERR_SD     ? " +- sd"
			 : c->err == ERR_CI95 ? " +- ci95"
					      : "",
			 meter ? meter : "none",
			 transcribed ? " (transcribed)" : "");
		snprintf(pd->ylabel, sizeof(pd->ylabel), "%s (%s)", c->metric,
			 rl_unit(s, c->metric));
	}
	return 0;
}

static void write_script(FILE *f, const struct plot_cfg *c,
			 const struct plot_data *pd, const char *x,
			 const char *data, const char *term, const char *output)
{
	char xlabel[300];
	size_t i;

	fprintf(f, "set terminal %s\nset termoption noenhanced\nset output ",
		term);
	gp_str(f, output);
	fprintf(f, "\nset title ");
	gp_str(f, c->title ? c->title : pd->title);
	snprintf(xlabel, sizeof(xlabel), "%s (log2 scale)", x);
	fprintf(f, "\nset xlabel ");
	gp_str(f, xlabel);
	fprintf(f, "\nset ylabel ");
	gp_str(f, pd->ylabel);
	fprintf(f,
		"\nset logscale x 2\nset format x '%%.0f'\nset grid\n"
		"set key %s\n"
		"set offsets graph 0.05, graph 0.05, graph 0.05, 0\n"
		"set yrange [0:*]\nplot ",
		strstr(term, "dumb") ? "top left reverse Left" : "below");
	for (i = 0; i < pd->nseries; i++) {
		fprintf(f, "%s", i ? ", \\\n     " : "");
		gp_str(f, data);
		fprintf(f, " index %zu using 1:2:3 with %s title ", i,
			c->err == ERR_NONE ? "linespoints" : "yerrorlines");
		gp_str(f, pd->series[i]);
	}
	fprintf(f, "\n");
}

/* Write a script for one terminal and run it. */
static int render(const struct plot_cfg *c, const struct plot_data *pd,
		  const char *x, const char *dir, const char *data,
		  const char *term, const char *output)
{
	char script[4200], err[256];
	FILE *f;

	snprintf(script, sizeof(script), "%s/plot.gp", dir);
	f = fopen(script, "w");
	if (!f)
		die_errno("cannot write %s", script);
	write_script(f, c, pd, x, data, term, output);
	if (fclose(f))
		die_errno("cannot write %s", script);
	if (sig_stop)
		return -1;
	if (run_gnuplot(script, err, sizeof(err))) {
		log_verbose("gnuplot with terminal %s: %s", term, err);
		/* stopped half way, its output would be half a plot */
		if (sig_stop)
			unlink(output);
		return -1;
	}
	return 0;
}

/* The dumb terminal starts with a form feed and pads lines with blanks:
 * drop both, and the blank lines above the title, for a mail. Any other
 * control character is escaped: the file is printed to terminals. */
static int tidy_ascii(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024], *text = NULL;
	size_t size = 0;
	FILE *m;
	int started = 0;

	if (!f)
		return -1;
	m = open_memstream(&text, &size);
	if (!m)
		abort();
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *e;

		while (*p == '\f')
			p++;
		e = p + strlen(p);
		while (e > p && (e[-1] == '\n' || e[-1] == ' '))
			e--;
		*e = 0;
		if (!started && !*p)
			continue;
		started = 1;
		e = esc_dup(p);
		fprintf(m, "%s\n", e);
		free(e);
	}
	fclose(f);
	fclose(m);
	f = fopen(path, "w");
	if (!f || fputs(text, f) == EOF || fclose(f)) {
		free(text);
		return -1;
	}
	free(text);
	return 0;
}

static void print_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		fputs(line, stdout);
	fclose(f);
}

int cmd_plot(int argc, char **argv)
{
	struct plot_cfg c = {.out = "zcbplot",
			     .metric = "throughput_MBps",
			     .err = ERR_SD,
			     .stat = ST_AUTO,
			     .png = 1};
	struct rfilter f = {0};
	struct plot_data pd = {0};
	char dir[] = "/tmp/zcbplot.XXXXXX", data[4200], png[4200], txt[4200];
	const char *need[2] = {NULL, NULL}, *x;
	struct rl_set s;
	struct rsel sel;
	FILE *df;
	int r;

	parse_opts(argc, argv, &c);
	load_inputs(&s, c.paths, c.npaths);
	f.tool = c.tool;
	f.where = c.where;
	f.nwhere = c.nwhere;
	need[0] = c.metric;
	f.need_metrics = need;
	sel_build(&s, &f, &sel);
	if (!sel.n) {
		char em[256], et[256];

		/* --tool may come from a document (scripts/main.d) */
		log_err("no cases with metric %s%s%s",
			esc_text(em, sizeof(em), c.metric),
			c.tool ? " from " : "",
			esc_text(et, sizeof(et), c.tool ? c.tool : ""));
		r = 2;
		goto out;
	}
	if (!only_tool(&sel))
		die_usage("plot: the input has several tools; choose one "
			  "with --tool");
	x = c.x ? c.x : default_x(&sel);
	if (!x) {
		log_err("no size param to plot against; name one with --x");
		r = 2;
		goto out;
	}
	/* from here on a signal must not leave gnuplot or the files */
	sig_install();
	if (!mkdtemp(dir))
		die_errno("mkdtemp %s", dir);
	snprintf(data, sizeof(data), "%s/data", dir);
	df = fopen(data, "w");
	if (!df)
		die_errno("cannot write %s", data);
	r = write_data(&c, &s, &sel, x, df, &pd);
	fclose(df);
	if (r) {
		log_err("no case has a positive %s and the metric %s", x,
			c.metric);
		r = 2;
		goto clean;
	}
	snprintf(png, sizeof(png), "%s.png", c.out);
	snprintf(txt, sizeof(txt), "%s.txt", c.out);
	r = 0;
	if (c.png &&
	    render(&c, &pd, x, dir, data,
		   "pngcairo size 960,600 noenhanced font 'sans,10'", png) &&
	    render(&c, &pd, x, dir, data, "png size 960,600 noenhanced", png)) {
		if (!sig_stop)
			log_err("gnuplot could not write %s (pngcairo and png "
				"failed; -v says why)",
				png);
		r = 1;
	}
	if (render(&c, &pd, x, dir, data, "dumb size 72,20", txt) ||
	    tidy_ascii(txt)) {
		if (!sig_stop)
			log_err("gnuplot could not write %s", txt);
		r = 1;
	}
	if (sig_stop) {
		log_err("stopped by signal %d: gnuplot ended, and the file it "
			"was writing removed",
			(int)sig_stop);
		r = sig_exit_status();
	}
	if (!r && c.print)
		print_file(txt);
	if (!r)
		printf("zcbreport plot: %s%s%s (%zu line%s)\n",
		       c.png ? png : "", c.png ? " and " : "", txt, pd.nseries,
		       pd.nseries == 1 ? "" : "s");
clean:
	unlink(data);
	snprintf(data, sizeof(data), "%s/plot.gp", dir);
	unlink(data);
	rmdir(dir);
out:
	sel_free(&sel);
	rl_free(&s);
	return r;
}
