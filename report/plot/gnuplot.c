/*
 * gnuplot.c: zcbreport plot's drawing (plot.h): a script per terminal,
 * every string in it one single-quoted gnuplot string (escaped, with
 * noenhanced terminals: a document's text is drawn as it reads, never
 * run), gnuplot run on it with a time limit, and the dumb terminal's
 * output tidied for a plain-text mail.
 *
 * gnuplot never outlives us: INT, TERM and HUP (sig_install, from the
 * temporary directory on) end the gnuplot running and remove what it
 * was writing; a SIGKILL reaches gnuplot through PR_SET_PDEATHSIG.
 */
#include "config.h"
#include "esc.h"
#include "log.h"
#include "plot.h"
#include "sig.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GNUPLOT_TIMEOUT_S 60 /* a gnuplot that hangs is killed */
#define GNUPLOT_GRACE_S	  2  /* after SIGTERM, before SIGKILL */

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

/* Axes, title and key: words from plot.c, every one through gp_str. */
static void script_frame(FILE *f, const struct ropts *c,
			 const struct plot_data *pd, int dumb)
{
	fprintf(f, "set title ");
	gp_str(f, c->title ? c->title : pd->title);
	if (pd->subtitle[0]) {
		fprintf(f, " . \"\\n\" . ");
		gp_str(f, pd->subtitle);
	}
	fprintf(f, "\nset xlabel ");
	gp_str(f, pd->xlabel);
	fprintf(f, "\nset ylabel ");
	gp_str(f, pd->ylabel);
	fprintf(f, "\n");
	if (pd->logx)
		fprintf(f, "set logscale x 2\nset format x '%%.0f'\n");
	if (pd->logy)
		fprintf(f, "set logscale y 10\n");
	else if (!pd->ratio)
		fprintf(f, "set yrange [0:*]\n");
	else if (pd->ymin > 0 && pd->ymax > 0)
		/* the ratios and 1 in view: a band of few runs can be
		 * hundreds wide, and is cut at the edges */
		fprintf(f, "set yrange [%.4g:%.4g]\n",
			fmin(pd->ymin, 1) / 1.25, fmax(pd->ymax, 1) * 1.25);
	fprintf(f,
		"set grid\nset offsets graph 0.05, graph 0.05, graph "
		"0.05, %s\n",
		pd->ratio || pd->logy ? "graph 0.05" : "0");
	/* the legend outside the data: under the plot */
	fprintf(f, "set key outside below %s\n",
		dumb ? "left Left reverse maxcols 1" : "center");
}

/* One plot command: each line (a ratio with its interval: a band on
 * images, error bars on text), and a ratio's line of no change. */
static void script_plot(FILE *f, const struct ropts *c,
			const struct plot_data *pd, const char *data, int dumb)
{
	size_t i;

	fprintf(f, "plot ");
	for (i = 0; i < pd->nseries; i++) {
		fprintf(f, "%s", i ? ", \\\n     " : "");
		if (pd->ratio && !dumb) {
			gp_str(f, data);
			fprintf(f,
				" index %zu using 1:3:4 with filledcurves "
				"fs transparent solid 0.2 noborder lt %zu "
				"notitle, \\\n     ",
				i, i + 1);
		}
		gp_str(f, data);
		if (pd->ratio && dumb)
			fprintf(f,
				" index %zu using 1:2:3:4 with yerrorbars "
				"lt %zu notitle, \\\n     '' index %zu "
				"using 1:2 with linespoints lt %zu title ",
				i, i + 1, i, i + 1);
		else if (pd->ratio)
			fprintf(f,
				" index %zu using 1:2 with linespoints "
				"lt %zu title ",
				i, i + 1);
		else if (dumb && c->err != ERR_NONE)
			/* text: the bars apart, the key a plain line */
			fprintf(f,
				" index %zu using 1:2:3 with yerrorbars "
				"lt %zu notitle, \\\n     '' index %zu "
				"using 1:2 with linespoints lt %zu title ",
				i, i + 1, i, i + 1);
		else
			fprintf(f,
				" index %zu using 1:2:3 with %s lt %zu "
				"title ",
				i,
				c->err == ERR_NONE ? "linespoints"
						   : "yerrorlines",
				i + 1);
		gp_str(f, pd->series[i]);
	}
	if (pd->ratio)
		fprintf(f, ", \\\n     1 with lines dt 2 lc 0 title "
			   "'1 = no change'");
	fprintf(f, "\n");
}

void gp_write_script(FILE *f, const struct ropts *c, const struct plot_data *pd,
		     const char *data, const char *term, const char *output)
{
	int dumb = !strncmp(term, "dumb", 4);

	fprintf(f, "set terminal %s\nset termoption noenhanced\nset output ",
		term);
	gp_str(f, output);
	fprintf(f, "\n");
	script_frame(f, c, pd, dumb);
	script_plot(f, c, pd, data, dumb);
}

void gp_script_file(const char *path, const struct ropts *c,
		    const struct plot_data *pd, const char *data,
		    const char *term, const char *output)
{
	FILE *f = fopen(path, "w");

	if (!f)
		die_errno("cannot write %s", path);
	gp_write_script(f, c, pd, data, term, output);
	if (fclose(f))
		die_errno("cannot write %s", path);
}

/* Write a script for one terminal and run it. */
int gp_render(const struct ropts *c, const struct plot_data *pd,
	      const char *dir, const char *data, const char *term,
	      const char *output)
{
	char script[4200], err[256];

	snprintf(script, sizeof(script), "%s/plot.gp", dir);
	gp_script_file(script, c, pd, data, term, output);
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
int gp_tidy_ascii(const char *path)
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

void gp_print_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		fputs(line, stdout);
	fclose(f);
}
