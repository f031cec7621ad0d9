/*
 * cpuwin.c: one run's CPU windows on every side (this box, a remote
 * `cyclesoak --serve`, a local server process) and the soak meter's
 * paired runs across them. See cpuwin.h.
 */
#include "config.h"
#include "cpuwin.h"
#include "remotecpu.h"
#include "result.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int cpuwin_open(struct cpuwin *w, const struct cpuwin_cfg *c, char *err,
		size_t len)
{
	struct meter_opts mo = {0};
	char e2[512];

	memset(w, 0, sizeof(*w));
	w->cfg = *c;
	if (!w->cfg.server_side)
		w->cfg.server_side = "server";
	if (!w->cfg.local_side)
		w->cfg.local_side = "local";
	w->metered = 1;
	if (c->local) {
		if (meterset_open(&w->ms, c->local_list, &mo, e2, sizeof(e2))) {
			snprintf(err, len, "--cpu: %s", e2);
			return -EINVAL;
		}
		w->have_local = 1;
		w->local_paired = meterset_paired(&w->ms);
		w->paired = w->local_paired;
	}
	if (c->server_pid > 0) {
		if (pidcpu_open(&w->pc, NULL, c->server_pid, 1, e2,
				sizeof(e2))) {
			snprintf(err, len, "--server-pid %d: %s",
				 (int)c->server_pid, e2);
			cpuwin_close(w);
			return -ESRCH;
		}
		w->have_pid = 1;
	}
	if (c->remote) {
		w->rc = remotecpu_open(c->remote, c->timeout_ms, e2,
				       sizeof(e2));
		if (!w->rc) {
			snprintf(err, len, "remote CPU (cyclesoak --serve): %s",
				 e2);
			cpuwin_close(w);
			return -ECONNREFUSED;
		}
		w->remote_paired = remotecpu_paired(w->rc, c->remote_list);
		w->paired |= w->remote_paired;
	}
	return 0;
}

json_t *cpuwin_peer(struct cpuwin *w)
{
	return w->rc ? remotecpu_host(w->rc) : NULL;
}

const char *cpuwin_local_names(const struct cpuwin *w, char *buf,
			       size_t len)
{
	if (!w->have_local) {
		buf[0] = '\0';
		return buf;
	}
	return meterset_names(&w->ms, buf, len);
}

void cpuwin_peer_pairs(struct cpuwin *w, int paired)
{
	w->peer_paired = paired;
	w->paired |= paired;
}

void cpuwin_peer_figures(struct cpuwin_sample *s,
			 const struct cpu_sample *cpu, int n)
{
	s->npeer = n < 0 ? 0 : n > METER_MAX ? METER_MAX : n;
	memcpy(s->peer, cpu, (size_t)s->npeer * sizeof(*cpu));
}

int cpuwin_paired(const struct cpuwin *w)
{
	return w->paired;
}

const char *cpuwin_paired_by(const struct cpuwin *w)
{
	const char *by = w->have_local ? meterset_paired_by(&w->ms) : NULL;

	/* unnamed: the remote side's soakers */
	return !w->paired ? NULL : by ? by : meter_pairer();
}

int cpuwin_metered(struct cpuwin *w, int metered, char *err, size_t len)
{
	char e2[512];
	int r;

	w->metered = metered;
	if (!w->paired)
		return 0;
	if (w->local_paired) {
		r = meterset_metered(&w->ms, metered, err, len);
		if (r)
			return r;
	}
	if (w->remote_paired) {
		r = remotecpu_soak(w->rc, metered, e2, sizeof(e2));
		if (r) {
			snprintf(err, len, "remote CPU: %s", e2);
			return r;
		}
	}
	return 0;
}

int cpuwin_start(struct cpuwin *w, char *err, size_t len)
{
	char e2[512];

	quiet_start(&w->q, NULL); /* outermost: its /proc walk too */
	if (w->rc && remotecpu_start(w->rc, w->cfg.remote_list, e2,
				     sizeof(e2))) {
		snprintf(err, len, "remote CPU: %s", e2);
		return -EIO;
	}
	if (w->have_pid && pidcpu_start(&w->pc)) {
		snprintf(err, len, "server process %d (%s) is gone",
			 (int)w->pc.pid, w->pc.comm);
		return -ESRCH;
	}
	/* the local window last, so it is the tightest around the work */
	if (w->have_local && meterset_start(&w->ms)) {
		snprintf(err, len, "cannot start the CPU meters");
		return -EIO;
	}
	return 0;
}

/* The box's quiet figures, last: the sched meter's other share when it
 * ran here, the server process's CPU the run's own. */
static void stop_quiet(struct cpuwin *w, struct cpuwin_sample *s)
{
	const struct cpu_sample *pid = NULL;
	int i;

	quiet_stop(&w->q, &s->quiet);
	for (i = 0; i < s->nlocal; i++)
		if (s->local[i].ok && (meter_flags_of(s->local[i].meter) &
				       METER_SHARES))
			quiet_use_sched(&s->quiet, &s->local[i]);
	if (s->have_server)
		pid = &s->server;
	else if (w->have_pid && s->nremote)
		pid = &s->remote[0];
	if (pid && pid->ok)
		quiet_add_run(&s->quiet, pid->busy_pct);
}

int cpuwin_stop(struct cpuwin *w, struct cpuwin_sample *s, char *err,
		size_t len)
{
	char e2[512];
	int n;

	memset(s, 0, sizeof(*s));
	s->paired = w->paired;
	s->paired_by = cpuwin_paired_by(w);
	s->metered = w->paired ? w->metered : 0;
	s->local_side = w->cfg.local_side;
	s->peer_side = w->cfg.peer_side;
	if (w->have_local)
		s->nlocal = meterset_stop(&w->ms, s->local);
	if (w->have_pid && !strcmp(w->cfg.server_side, "remote")) {
		pidcpu_stop(&w->pc, &s->remote[0]); /* the remote side's first */
		s->nremote = 1;
	} else if (w->have_pid) {
		pidcpu_stop(&w->pc, &s->server);
		s->have_server = 1;
	}
	if (w->rc) {
		n = remotecpu_stop(w->rc, s->remote + s->nremote,
				   METER_MAX - s->nremote, e2, sizeof(e2));
		if (n < 0) {
			snprintf(err, len, "remote CPU: %s", e2);
			return n;
		}
		s->nremote += n;
	}
	stop_quiet(w, s);
	return 0;
}

void cpuwin_add_side(struct res_doc *d, json_t *sample,
		     const struct cpuwin_sample *s, enum cpuwin_side side,
		     double bytes)
{
	const struct cpu_sample *c;
	const char *name;
	int n;

	switch (side) {
	case CPUWIN_LOCAL:
		c = s->local, n = s->nlocal;
		name = s->local_side ? s->local_side : "local";
		break;
	case CPUWIN_REMOTE:
		c = s->remote, n = s->nremote, name = "remote";
		break;
	case CPUWIN_SERVER:
		c = &s->server, n = s->have_server, name = "server";
		break;
	default:
		c = s->peer, n = s->npeer;
		name = s->peer_side ? s->peer_side : "remote";
		break;
	}
	if (!n)
		return;
	meter_add_metrics(d, sample, name, c, n, bytes, s->metered);
	meter_add_raw(sample, name, c, n);
}

void cpuwin_add_quiet(json_t *sample, const struct cpuwin_sample *s)
{
	json_object_set_new(sample, "quiet", quiet_json(&s->quiet));
}

void cpuwin_add(struct res_doc *d, json_t *sample,
		const struct cpuwin_sample *s, double bytes)
{
	cpuwin_add_side(d, sample, s, CPUWIN_LOCAL, bytes);
	cpuwin_add_side(d, sample, s, CPUWIN_REMOTE, bytes);
	cpuwin_add_side(d, sample, s, CPUWIN_SERVER, bytes);
	cpuwin_add_side(d, sample, s, CPUWIN_PEER, bytes);
}

void cpuwin_close(struct cpuwin *w)
{
	if (w->have_local)
		meterset_close(&w->ms);
	w->have_local = 0;
	if (w->rc)
		remotecpu_close(w->rc);
	w->rc = NULL;
	w->have_pid = 0;
	quiet_close(&w->q);
}
