/*
 * html.c: zcbreport html [BASE] PATH... -o FILE: the nightly page. One
 * self-contained file that needs no network and no JavaScript: the
 * verdict table first (regressions on top; the first PATH is the
 * baseline of the others, as for compare), each seed table of the
 * newest PATH, its plots as SVG images inside the page, the host facts
 * of every PATH with the ones that differ from the baseline marked, and
 * the samples behind each flagged verdict. Written to FILE.tmp.XXXXXX,
 * then renamed: a reader never sees half a page.
 */
#include "config.h"
#include "cmpin.h"
#include "esc.h"
#include "htmlesc.h"
#include "htmlverd.h"
#include "log.h"
#include "plot.h"
#include "report.h"
#include "sig.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SVG_TERM                                                               \
	"svg size 900,560 noenhanced font 'sans,11' background '#ffffff'"

static const char style[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222}"
	"table{border-collapse:collapse;margin:.5em 0}"
	"th,td{border:1px solid #bbb;padding:2px 6px;font-size:90%}"
	"th{background:#eee}td.num{text-align:right;white-space:nowrap}"
	"tr.regression td{background:#fdd}tr.improved td{background:#dfd}"
	"td.diff{background:#ffd}td.absent{color:#888}"
	"pre{background:#f6f6f6;padding:.5em;overflow-x:auto}"
	"figure{display:inline-block;margin:.5em}"
	"figure img{border:1px solid #ddd;max-width:100%}"
	"p.summary{font-weight:bold}";

static void page_head(FILE *f, const struct cmp_inputs *in)
{
	char when[64];
	time_t now = time(NULL);
	size_t i;

	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		   "<meta charset=\"utf-8\">\n<title>zcbench report: ");
	html_text(f, in->name[in->n - 1]);
	fprintf(f,
		"</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<h1>zcbench report: ",
		style);
	html_text(f, in->name[in->n - 1]);
	fprintf(f, "</h1>\n<p>Made %s from:", when);
	for (i = 0; i < in->n; i++) {
		fprintf(f, "%s <code>", i ? "," : "");
		html_text(f, in->name[i]);
		fprintf(f, "</code>%s", !i && in->n > 1 ? " (baseline)" : "");
	}
	fprintf(f, ". Sections: <a href=\"#verdicts\">verdicts</a>, "
		   "<a href=\"#tables\">seed tables</a>, <a href=\"#plots\">"
		   "plots</a>, <a href=\"#hosts\">hosts</a>.</p>\n");
}

/* The seed tables of a set, as the mails printed them. */
static void seed_tables(FILE *f, const struct res_pool *s)
{
	struct layout_opts lo = {.fmt = FMT_TEXT, .stat = ST_AUTO, .all = 1};
	char *text = NULL;
	size_t size = 0;

	lo.out = open_memstream(&text, &size);
	if (!lo.out)
		abort();
	layout_print("all", s, &lo);
	fclose(lo.out);
	fprintf(f, "<h2 id=\"tables\">Seed tables</h2>\n<pre>");
	html_lines(f, text);
	fprintf(f, "</pre>\n");
	free(text);
}

/* A file's bytes as base64, for a data: URL. */
static void base64_file(FILE *f, FILE *in)
{
	static const char t[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		"0123456789+/";
	unsigned char b[3];
	size_t n;

	while ((n = fread(b, 1, 3, in)) > 0) {
		if (n < 3)
			memset(b + n, 0, 3 - n);
		fputc(t[b[0] >> 2], f);
		fputc(t[((b[0] & 3) << 4) | (b[1] >> 4)], f);
		fputc(n > 1 ? t[((b[1] & 15) << 2) | (b[2] >> 6)] : '=', f);
		fputc(n > 2 ? t[b[2] & 63] : '=', f);
	}
}

/* One plot as an SVG image in the page; 1 when drawn. */
static int figure(FILE *f, const struct ropts *po, const struct res_pool *s,
		  const char *dir)
{
	char path[4200], title[512] = "";
	FILE *in;
	int r;

	snprintf(path, sizeof(path), "%s/plot.svg", dir);
	r = plot_file(po, s, SVG_TERM, path, title, sizeof(title));
	if (sig_stop)
		return -1;
	in = r ? NULL : fopen(path, "r");
	if (!in)
		return 0;
	fprintf(f, "<figure class=\"plot\"><img alt=\"");
	html_text(f, title);
	fprintf(f, "\" src=\"data:image/svg+xml;base64,");
	base64_file(f, in);
	fclose(in);
	unlink(path);
	fprintf(f, "\"><figcaption>");
	html_text(f, title);
	fprintf(f, "</figcaption></figure>\n");
	return 1;
}

/* A tool's plots, as the main job draws them; the count, -1 on a
 * signal. */
static int tool_plots(FILE *f, const struct res_pool *s, const char *tool,
		      const char *dir)
{
	const char *metric =
		strcmp(tool, "chatbench") ? "throughput_MBps" : "msgs_per_s";
	struct ropts po = {.tool = tool, .err = ERR_SD, .stat = ST_AUTO};
	static const char *const zc[] = {"sendfile", "splice", "msg-zerocopy",
					 "mmap", NULL};
	int n = 0, r, i;

#define FIG()                                                                  \
	do {                                                                   \
		r = figure(f, &po, s, dir);                                    \
		if (r < 0)                                                     \
			return -1;                                             \
		n += r;                                                        \
	} while (0)
	po.metric = metric;
	FIG();
	po.metric = "cpu_local_pct";
	FIG();
	po.metric = metric;
	po.x = "clients";
	FIG();
	po.x = NULL;
	po.ratio = "";
	po.ratio_key = "path";
	po.ratio_a = "copy";
	po.ratio_b = "direct";
	if (!strcmp(tool, "p9bench"))
		FIG();
	po.ratio_key = "method";
	po.ratio_a = "write";
	for (i = 0; zc[i] && !strcmp(tool, "ttcp-sf"); i++) {
		po.ratio_b = zc[i];
		FIG();
	}
#undef FIG
	return n;
}

/* The plots of a set, a tool after another; -1 on a signal. */
static int plots(FILE *f, const struct res_pool *s)
{
	char dir[] = "/tmp/zcbhtml.XXXXXX";
	json_t *tools = json_object(), *v;
	const char *tool;
	size_t i;
	int n = 0, r = 0;

	if (!mkdtemp(dir))
		die_errno("mkdtemp %s", dir);
	for (i = 0; i < s->ndocs; i++)
		json_object_set_new(tools, s->docs[i].tool, json_true());
	fprintf(f, "<h2 id=\"plots\">Plots</h2>\n");
	json_object_foreach(tools, tool, v)
	{
		r = tool_plots(f, s, tool, dir);
		if (r < 0)
			break;
		n += r;
	}
	if (r >= 0 && !n)
		fprintf(f, "<p>Nothing to plot: no size or client count "
			   "varies.</p>\n");
	json_decref(tools);
	rmdir(dir);
	return r < 0 ? -1 : n;
}

/* Kernel B/A of each flagged metric: base and kernel in one set, the
 * ratio of their labels; -1 on a signal. */
static int kernel_ratios(FILE *f, const struct cmp_cfg *c,
			 const struct cmp_inputs *in, const struct cmp_multi *m)
{
	char dir[] = "/tmp/zcbhtml.XXXXXX", *paths[2];
	struct ropts po = {.err = ERR_SD, .stat = ST_AUTO, .ratio = ""};
	json_t *done = json_object();
	size_t k, i;
	int r = 0;

	if (!mkdtemp(dir))
		die_errno("mkdtemp %s", dir);
	for (k = 0; k < m->nk && r >= 0; k++)
		for (i = 0; i < m->st[k].nrows && r >= 0; i++) {
			const struct crow *cr = &m->st[k].rows[i];
			const struct ckey *key = &m->st[k].keys[cr->key];
			struct res_pool s;
			char id[600];

			po.tool = key->c[1][0]->doc->tool;
			po.ratio_a = key->c[0][0]->doc->label;
			po.ratio_b = key->c[1][0]->doc->label;
			snprintf(id, sizeof(id), "%zu %s %s", k, po.tool,
				 cr->metric);
			if (!cr->flag || !strcmp(po.ratio_a, po.ratio_b) ||
			    json_object_get(done, id))
				continue;
			json_object_set_new(done, id, json_true());
			po.metric = cr->metric;
			po.ratio_key = "label";
			paths[0] = c->o.paths[0];
			paths[1] = c->o.paths[k + 1];
			load_inputs(&s, paths, 2);
			r = figure(f, &po, &s, dir);
			res_pool_free(&s);
		}
	json_decref(done);
	rmdir(dir);
	(void)in;
	return r < 0 ? -1 : 0;
}

static void host_fact(json_t *host, const char *field, char *buf, size_t len)
{
	char tmp[512];
	const char *s = res_param_str(host, field, tmp, sizeof(tmp));

	snprintf(buf, len, "%s", s && *s ? s : "unknown");
}

/* A fact of every input as one value ("a | b" when its runs differ). */
static void fact_of(const struct res_sel *sel, const char *field, char *buf,
		    size_t len)
{
	char v[512];
	size_t i;

	buf[0] = 0;
	for (i = 0; i < sel->n; i++) {
		json_t *h = json_object_get(sel->v[i].doc->root, "host");

		if (!strncmp(field, "sysctl ", 7))
			snprintf(v, sizeof(v), "%s",
				 json_string_value(json_object_get(
					 json_object_get(h, "sysctls"),
					 field + 7))
					 ?: "unknown");
		else
			host_fact(h, field, v, sizeof(v));
		if (!strstr(buf, v))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
				 buf[0] ? " | " : "", v);
	}
}

static void hosts(FILE *f, const struct cmp_inputs *in)
{
	static const char *const fields[] = {
		"hostname",  "kernel_release", "kernel_version", "cmdline",
		"cpu_model", "online_cpus",    "mem_bytes",	 NULL};
	json_t *all = json_object(), *v;
	char base[2048], val[2048], key[300];
	const char *name;
	size_t i, j;

	for (i = 0; fields[i]; i++)
		json_object_set_new(all, fields[i], json_true());
	for (i = 0; i < in->n; i++)
		for (j = 0; j < in->sel[i].n; j++)
			json_object_foreach(
				json_object_get(
					json_object_get(
						in->sel[i].v[j].doc->root,
						"host"),
					"sysctls"),
				name, v)
			{
				snprintf(key, sizeof(key), "sysctl %s", name);
				json_object_set_new(all, key, json_true());
			}
	fprintf(f, "<h2 id=\"hosts\">Hosts</h2>\n<table class=\"hosts\">"
		   "<thead><tr><th>fact</th>");
	for (i = 0; i < in->n; i++) {
		fprintf(f, "<th>");
		html_text(f, in->name[i]);
		fprintf(f, "</th>");
	}
	fprintf(f, "</tr></thead><tbody>\n");
	json_object_foreach(all, name, v)
	{
		fprintf(f, "<tr><th>");
		html_text(f, name);
		fprintf(f, "</th>");
		fact_of(&in->sel[0], name, base, sizeof(base));
		for (i = 0; i < in->n; i++) {
			fact_of(&in->sel[i], name, val, sizeof(val));
			fprintf(f, "<td%s>",
				i && strcmp(val, base) ? " class=\"diff\""
						       : "");
			html_text(f, val);
			fprintf(f, "</td>");
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</tbody></table>\n<p>Marked: differs from the baseline; "
		   "\"unknown\": not recorded.</p>\n");
	json_decref(all);
}

/* mkstemp made it 0600: a report is read by others (0644). */
static int fchmod_tmp(const char *path)
{
	return chmod(path, 0644);
}

/* The whole page; the plots drawn, or -1 on a signal. */
static int page(FILE *f, const struct cmp_cfg *c, const struct cmp_inputs *in,
		const struct cmp_multi *m, size_t *flagged)
{
	int n;

	page_head(f, in);
	fprintf(f, "<h2 id=\"verdicts\">Verdicts</h2>\n");
	*flagged = 0;
	if (m)
		html_verdicts(f, c, m, flagged);
	else
		fprintf(f, "<p class=\"summary\">One set of runs: nothing "
			   "compared (give the baseline first).</p>\n");
	seed_tables(f, &in->set[in->n - 1]);
	n = plots(f, &in->set[in->n - 1]);
	if (n >= 0 && m && *flagged) {
		char *kr = NULL;
		size_t klen = 0;
		FILE *ks = open_memstream(&kr, &klen);

		if (!ks)
			abort();
		if (kernel_ratios(ks, c, in, m) < 0)
			n = -1;
		fclose(ks);
		if (klen)
			fprintf(f,
				"<h3>Kernel against baseline, flagged "
				"metrics</h3>\n%s",
				kr);
		free(kr);
	}
	if (n < 0)
		return -1;
	hosts(f, in);
	if (m)
		html_samples(f, m);
	fprintf(f, "<p><small>zcbreport html, zcbench " PACKAGE_VERSION
		   "</small></p>\n</body>\n</html>\n");
	return n;
}

int cmd_html(const struct rcmd *self, int argc, char **argv)
{
	struct cmp_cfg c = {.o = {CMP_DEFAULT_OPTS, .out = "report.html"}};
	struct cmp_inputs in;
	struct cmp_multi m;
	size_t nbad = 0, flagged, k;
	char tmp[4200], eo[1024];
	FILE *f;
	int r, fd;

	ropt_parse(self, argc, argv, &c.o);
	if (c.o.npaths < 1)
		die_usage("html: no result files or directories given");
	if (!*c.o.out || esc_needed(c.o.out))
		die_usage("--output: empty, or control characters in the name");
	r = cmp_inputs_open(&c, 0, &in, &nbad);
	if (r)
		return r;
	if (in.n > 1)
		cmp_inputs_judge(&c, &in, &m, &nbad);
	sig_install();
	snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", c.o.out);
	fd = mkstemp(tmp);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f)
		die_errno("cannot write %s", esc_text(eo, sizeof(eo), tmp));
	r = page(f, &c, &in, in.n > 1 ? &m : NULL, &flagged);
	if (fclose(f) || r < 0 || fchmod_tmp(tmp) || rename(tmp, c.o.out)) {
		unlink(tmp);
		cmp_inputs_close(&in);
		if (sig_stop)
			return sig_exit_status();
		die_errno("cannot write %s", esc_text(eo, sizeof(eo), c.o.out));
	}
	printf("zcbreport html: %s (%zu regression%s flagged, %d plot%s)\n",
	       esc_text(eo, sizeof(eo), c.o.out), flagged,
	       flagged == 1 ? "" : "s", r, r == 1 ? "" : "s");
	for (k = 0; in.n > 1 && k < m.nk; k++)
		nbad += m.st[k].failed; /* a row GSL refused: not judged */
	cmp_inputs_close(&in);
	return nbad ? 2 : 0;
}
