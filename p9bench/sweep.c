/*
 * sweep.c: seed 000's experiment: for every repeat, every IO size, write
 * then read, each path in turn (ABBA across repeats, so drift cancels),
 * one sample each, bracketed by the CPU meters: local (-c), the server's
 * host (--remote-cpu, cyclesoak --serve) and a local server process
 * (--server-pid). Samples go to the result document and the table cells.
 */
#include "config.h"
#include "p9bench.h"
#include "clock.h"
#include "log.h"
#include "pidcpu.h"
#include "remotecpu.h"
#include "result.h"
#include "sig.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cpuwin {
	struct meterset ms; /* -c */
	int have_ms;
	struct remotecpu *rc; /* --remote-cpu */
	struct pidcpu pc;     /* --server-pid */
	int have_pc;
	struct cpu_sample srv; /* the server process's window */
};

static void cpu_open(struct bench *b, struct res_doc *doc, struct cpuwin *w)
{
	const struct cfg *cfg = b->cfg;
	struct meter_opts mo = {0};
	char err[512];
	json_t *host;

	if (cfg->cpu) {
		const char *list =
			cfg->cpu_list ? cfg->cpu_list : meter_default_list(&mo);

		if (meterset_open(&w->ms, list, &mo, err, sizeof(err)))
			die("CPU meters '%s': %s", list, err);
		w->have_ms = 1;
	}
	if (cfg->remote_cpu) {
		w->rc = remotecpu_open(cfg->remote_cpu,
				       (int)(cfg->timeout * 1000), err,
				       sizeof(err));
		if (!w->rc)
			die("remote CPU (cyclesoak --serve): %s", err);
		host = remotecpu_host(w->rc);
		if (host) {
			char me[256] = "";
			const char *hn = json_string_value(
				json_object_get(host, "hostname"));

			gethostname(me, sizeof(me) - 1);
			b->same_box = hn && !strcmp(hn, me);
			res_set_peer(doc, host);
		}
	}
	if (cfg->server_pid > 0) {
		if (pidcpu_open(&w->pc, NULL, cfg->server_pid, 1, err,
				sizeof(err)))
			die("--server-pid %d: %s", (int)cfg->server_pid, err);
		w->have_pc = 1;
	}
}

static void cpu_start(struct cpuwin *w)
{
	char err[512];

	if (w->have_ms && meterset_start(&w->ms))
		die("cannot start the CPU meters");
	if (w->rc && remotecpu_start(w->rc, NULL, err, sizeof(err)))
		die("remote CPU: %s", err);
	if (w->have_pc)
		pidcpu_start(&w->pc);
}

static void cpu_stop(struct bench *b, struct cpuwin *w)
{
	char err[512];
	int n;

	if (w->have_pc)
		pidcpu_stop(&w->pc, &w->srv);
	if (w->rc) {
		n = remotecpu_stop(w->rc, b->s.remote, METER_MAX, err,
				   sizeof(err));
		if (n < 0)
			die("remote CPU: %s", err);
		b->s.nremote = n;
	}
	if (w->have_ms)
		b->s.ncpu = meterset_stop(&w->ms, b->s.cpu);
}

static void cpu_close(struct cpuwin *w)
{
	if (w->have_ms)
		meterset_close(&w->ms);
	if (w->rc)
		remotecpu_close(w->rc);
}

/* The first usable figure of a set (its meter into name), or -1. */
static double first_pct(const struct cpu_sample *s, int n, char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (s[i].ok) {
			snprintf(name, 16, "%s", s[i].meter);
			return s[i].busy_pct;
		}
	return -1;
}

static uint64_t ops_for(const struct cfg *cfg, size_t size)
{
	if (cfg->duration)
		return UINT64_MAX;
	if (cfg->total)
		return cfg->total / size ? cfg->total / size : 1;
	return cfg->ops;
}

static void record(struct bench *b, struct res_doc *doc, struct cpuwin *w,
		   int op, int si, int path, uint64_t copied)
{
	const struct cfg *cfg = b->cfg;
	const size_t size = cfg->sizes[si];
	const struct sample *s = &b->s;
	struct cell *c = &b->cells[op][si][path];
	uint64_t ops = ops_for(cfg, size);
	double mbps = s->elapsed > 0 ? s->bytes / s->elapsed / 1e6 : 0;
	json_t *kase, *js;
	double pct;

	kase = res_case(
		doc,
		json_pack("{s:s, s:I, s:I, s:s, s:i, s:I, s:s}", "op",
			  op ? "read" : "write", "iosize", (json_int_t)size,
			  "total_bytes",
			  (json_int_t)(cfg->duration ? 0 : ops * size), "path",
			  b->bk->path_name[path], "qd", cfg->qd, "msize",
			  (json_int_t)(b->bk == &bk_9p ? b->c.msize : 0),
			  "mode", b->bk->mode));
	js = json_pack("{s:I, s:I, s:I, s:f, s:I}", "bytes",
		       (json_int_t)s->bytes, "ops", (json_int_t)s->ops, "msgs",
		       (json_int_t)s->msgs, "elapsed_s", s->elapsed,
		       "copied_bytes", (json_int_t)copied);
	if (cfg->verify && b->verify_ok && op)
		json_object_set_new(js, "verify_bad_bytes",
				    json_integer((json_int_t)b->verify_bad));
	res_sample_set(js, "throughput_MBps", mbps);
	res_sample_set(js, "ops_per_s",
		       s->elapsed > 0 ? s->ops / s->elapsed : 0);
	res_sample_set(js, "elapsed_s", s->elapsed);
	if (s->ncpu) {
		meter_add_metrics(doc, js, "local", s->cpu, s->ncpu, s->bytes, 0);
		meter_add_raw(js, "local", s->cpu, s->ncpu);
	}
	if (s->nremote && b->same_box)
		json_object_set_new(js, "same_box", json_true());
	if (s->nremote) {
		meter_add_metrics(doc, js, "remote", s->remote, s->nremote,
				  s->bytes, 0);
		meter_add_raw(js, "remote", s->remote, s->nremote);
	}
	if (w->have_pc) {
		meter_add_metrics(doc, js, "server", &w->srv, 1, s->bytes, 0);
		meter_add_raw(js, "server", &w->srv, 1);
	}
	res_sample(kase, js);

	c->n++;
	c->bytes += s->bytes;
	c->secs += s->elapsed;
	c->ops += s->ops;
	if (c->n == 1 || mbps < c->mbps_min)
		c->mbps_min = mbps;
	if (c->n == 1 || mbps > c->mbps_max)
		c->mbps_max = mbps;
	if ((pct = first_pct(s->cpu, s->ncpu, b->cpu_meter)) >= 0) {
		c->cpu_sum += pct;
		c->cpu_n++;
	}
	if ((pct = first_pct(s->remote, s->nremote, b->remote_meter)) >= 0) {
		c->remote_sum += pct;
		c->remote_n++;
	}
	if (w->have_pc && w->srv.ok) {
		c->server_sum += w->srv.busy_pct;
		c->server_n++;
	}
}

static int sample(struct bench *b, struct res_doc *doc, struct cpuwin *w,
		  int op, int si, int path, int rep)
{
	const struct cfg *cfg = b->cfg;
	const size_t size = cfg->sizes[si];
	uint64_t copied0 = b->c.copied;
	char phase[200], rate[32];
	int r;

	if (sig_stop)
		return -EINTR;
	snprintf(phase, sizeof(phase), "%s of %zu bytes, %s path (repeat %d)",
		 op ? "read" : "write", size, b->bk->path_name[path], rep + 1);
	b->phase = phase;
	memset(&b->s, 0, sizeof(b->s));
	b->verify_bad = 0;
	cpu_start(w);
	r = b->bk->run(b, !op, size, path, ops_for(cfg, size),
		       cfg->duration ? clock_now() + cfg->duration : 0);
	cpu_stop(b, w);
	if (r)
		return r;
	record(b, doc, w, op, si, path, b->c.copied - copied0);
	log_verbose("%-5s %7zu %-8s %12s  %10.0f ops/s  %.3f s",
		    op ? "read" : "write", size, b->bk->path_name[path],
		    table_rate(b->s.bytes / b->s.elapsed, rate, sizeof(rate)),
		    b->s.ops / b->s.elapsed, b->s.elapsed);
	if (b->verify_bad)
		die("%s: %s: %llu bytes read differ from p9bench's pattern (a file p9bench did not write?)",
		    phase, b->where, (unsigned long long)b->verify_bad);
	return 0;
}

int sweep_run(struct bench *b, struct res_doc *doc)
{
	const struct cfg *cfg = b->cfg;
	struct cpuwin w;
	int rep, si, op, k, r = 0;

	memset(&w, 0, sizeof(w));
	res_metric(doc, "throughput_MBps", "MB/s", RES_HIGHER, 1);
	res_metric(doc, "ops_per_s", "ops/s", RES_HIGHER, 1);
	res_metric(doc, "elapsed_s", "s", RES_LOWER, 0);
	cpu_open(b, doc, &w);
	for (rep = 0; rep < cfg->repeat && !r; rep++)
		for (si = 0; si < cfg->nsizes && !r; si++)
			for (op = 0; op < 2 && !r; op++) {
				if (!(cfg->ops_mask &
				      (op ? OP_READ : OP_WRITE)))
					continue;
				for (k = 0; k < NPATHS && !r; k++) {
					/* ABBA: odd repeats run paths backwards
					 */
					int path = rep % 2 ? NPATHS - 1 - k : k;

					if (cfg->paths & (1 << path))
						r = sample(b, doc, &w, op, si,
							   path, rep);
				}
			}
	cpu_close(&w);
	return r;
}
