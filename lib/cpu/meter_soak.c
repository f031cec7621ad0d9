/*
 * meter_soak.c: the soak meter (cyclesoak's method) behind the meter
 * interface, and the default meter list. A window is two readings of the
 * box's shared soaker counters (lib/cpu/soak.c); the load is what the soakers
 * could not get, against the stored idle calibration.
 */
#include "config.h"
#include "hostinfo.h"
#include "meter.h"
#include "soak.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct soak_priv {
	struct soak_calib cal; /* idle rates */
	struct soak_client cl; /* our view of the soaker set */
	struct soak_snap a;    /* reading at start */
	char warn[512];	       /* calibration mismatch, or "" */
};

static int soak_open(struct meter *m, const struct meter_opts *o, char *err,
		     size_t len)
{
	struct soak_priv *p = m->priv;
	char path[4096];
	struct hostinfo h;
	int r, i;

	r = soak_calib_path(o ? o->calib_file : NULL, path, sizeof(path));
	if (!r)
		r = soak_calib_load(path, &p->cal, err, len);
	if (r)
		return r;
	hostinfo_read(NULL, &h);
	soak_calib_check(&p->cal, &h, p->warn, sizeof(p->warn));
	hostinfo_free(&h);
	r = soak_join(&p->cl, o ? o->cpus : NULL, p->cal.soaker, err, len);
	if (r)
		return r;
	for (i = 0; i < p->cl.ncpu; i++) {
		if (soak_calib_rate(&p->cal, p->cl.cpu_id[i]) <= 0) {
			snprintf(
				err, len,
				"calibration %s has no rate for CPU %d (cyclesoak --calibrate)",
				path, p->cl.cpu_id[i]);
			soak_leave(&p->cl);
			return -ENOENT;
		}
	}
	return 0;
}

static int soak_start(struct meter *m)
{
	struct soak_priv *p = m->priv;

	return soak_read(&p->cl, &p->a);
}

static int soak_stop(struct meter *m, struct cpu_sample *out)
{
	struct soak_priv *p = m->priv;
	struct soak_snap b;
	int r;

	if (soak_read(&p->cl, &b)) {
		snprintf(out->why, sizeof(out->why),
			 "the soak host (pid %d) went away during the window",
			 (int)p->cl.host_pid);
		return -EPIPE;
	}
	r = soak_load(&p->cal, &p->cl, &p->a, &b, out);
	if (r)
		return r;
	{
		char off[sizeof(out->note)], all[400]; /* off: soak_load's */

		snprintf(off, sizeof(off), "%s", out->note);
		snprintf(all, sizeof(all), "%.*s%s%.*s%s%.*s", 190, p->cl.note,
			 p->warn[0] ? "; " : "", 60, p->warn,
			 off[0] ? "; " : "", 120, off);
		snprintf(out->note, sizeof(out->note), "%.*s",
			 (int)sizeof(out->note) - 1, all);
	}
	return 0;
}

static int soak_meter_pause(struct meter *m, int pause, char *err,
			    size_t len)
{
	struct soak_priv *p = m->priv;

	if (p->cl.holding == pause)
		return 0;
	return soak_pause(&p->cl, pause, err, len);
}

static void soak_close(struct meter *m)
{
	struct soak_priv *p = m->priv;

	soak_leave(&p->cl);
}

static const struct meter_words soak_words = {
	.title = "Soak",
	.metered_run = "metered run: soakers on (its CPU is the soak figure; "
		       "its rate is not the result)",
	.unmetered_run = "unmetered run: soakers parked (this rate is the "
			 "result)",
	.pairs = "soak runs in pairs: metered, then unmetered (the rate)",
	.agent = "soakers",
	.figure = "CPU",
	.from = "soak CPU",
	.from_all = "soak CPU and service demand",
};

METER_DEFINE(meter_soak_ops, "soak",
	     "cyclesoak: idle cycles lost, against an idle calibration (box)",
	     .flags = METER_PAIRED | METER_PRIMARY | METER_LOADS_BOX |
		      METER_WITH_PROCSTAT,
	     .words = &soak_words,
	     .open = soak_open, .close = soak_close,
	     .start = soak_start, .stop = soak_stop, .pause = soak_meter_pause,
	     .priv_size = sizeof(struct soak_priv));

/* Usable: a calibration that has a rate for every online CPU. */
const char *meter_default_list(const struct meter_opts *o)
{
	static unsigned char on[HOST_MAX_CPUS / 8 + 1];
	char path[4096], err[512], online[256];
	struct soak_calib c;
	int i;

	if (soak_calib_path(o ? o->calib_file : NULL, path, sizeof(path)) ||
	    soak_calib_load(path, &c, err, sizeof(err)))
		return "procstat";
	if (host_read_file("", "/sys/devices/system/cpu/online", online,
			   sizeof(online)) <= 0)
		snprintf(online, sizeof(online), "0-%d",
			 host_online_cpus() - 1);
	memset(on, 0, sizeof(on));
	if (host_parse_cpulist(online, on, HOST_MAX_CPUS) <= 0)
		return "procstat";
	for (i = 0; i < HOST_MAX_CPUS; i++)
		if ((on[i / 8] & (1u << (i % 8))) &&
		    soak_calib_rate(&c, i) <= 0)
			return "procstat";
	return "soak";
}
