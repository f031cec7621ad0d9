/*
 * ival.c: the interval reporter of ival.h: one thread per sample that
 * wakes at every interval boundary, reads the registered counter (under
 * a lock, so a runner can take it away), and prints and keeps the
 * interval. One sample runs at a time in a process, so the state is
 * this file's.
 */
#include "config.h"
#include "ctr.h"
#include "clock.h"
#include "ival.h"
#include "log.h"
#include "meter.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t th;
	int running, stop;
	const uint64_t *ctr; /* the runner's counter */
	uint64_t last;	     /* its value at the last boundary */
	double t0, tlast;    /* registration, last boundary (clock_now) */
	const struct cfg *c;
	const char *side;
	int idx, trans;
	json_t *list;	   /* the sample's intervals */
	struct meter *cpu; /* procstat, with -c */
} iv = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};

/* One interval [tlast, now) with count v (lock held). */
static void emit(double now, uint64_t v)
{
	double d = now - iv.tlast, rate;
	struct cpu_sample cs;
	char cpu[48] = "";
	json_t *j;

	if (d <= 0)
		return;
	rate = (double)(v - iv.last) / d / (iv.trans ? 1 : 1e6);
	j = json_pack("{s:i, s:f, s:f, s:I, s:f}", "sample", iv.idx, "start",
		      iv.tlast - iv.t0, "end", now - iv.t0,
		      iv.trans ? "transactions" : "bytes",
		      (json_int_t)(v - iv.last),
		      iv.trans ? "trans_per_s" : "MBps", rate);
	if (iv.cpu && !meter_stop(iv.cpu, &cs) && cs.ok) {
		json_object_set_new(j, "cpu_box_pct", json_real(cs.busy_pct));
		snprintf(cpu, sizeof(cpu), "  cpu %5.1f%%", cs.busy_pct);
	}
	if (iv.cpu)
		meter_start(iv.cpu);
	fprintf(ttcp_out, "ttcp-%s: [%6.2f-%6.2f s] %12llu %s %10.1f %s%s\n",
		iv.side, iv.tlast - iv.t0, now - iv.t0,
		(unsigned long long)(v - iv.last), iv.trans ? "trans" : "bytes",
		rate, iv.trans ? "trans/s" : "MB/s", cpu);
	fflush(ttcp_out);
	if (iv.c->json_stream) {
		json_t *e =
			json_pack("{s:s, s:O}", "event", "interval", "data", j);

		json_dumpf(e, stdout, JSON_COMPACT);
		fputc('\n', stdout);
		fflush(stdout);
		json_decref(e);
	}
	json_array_append_new(iv.list, j);
	iv.last = v;
	iv.tlast = now;
}

static void *reporter(void *unused)
{
	struct timespec ts;
	double next = 0, now;

	(void)unused;
	pthread_mutex_lock(&iv.lock);
	while (!iv.stop) {
		if (iv.ctr && !next)
			next = iv.t0 + iv.c->interval;
		now = clock_wall() + (next ? next - clock_now() : 0.1);
		ts.tv_sec = (time_t)now;
		ts.tv_nsec = (long)((now - (double)ts.tv_sec) * 1e9);
		pthread_cond_timedwait(&iv.cond, &iv.lock, &ts);
		if (iv.stop || !iv.ctr || !next || clock_now() < next)
			continue;
		emit(clock_now(), ctr_read(iv.ctr));
		next += iv.c->interval;
	}
	pthread_mutex_unlock(&iv.lock);
	return NULL;
}

void ival_start(const struct cfg *c, const char *side, int idx, int trans)
{
	char err[256];

	if (c->interval <= 0)
		return;
	iv.c = c;
	iv.side = side;
	iv.idx = idx;
	iv.trans = trans;
	iv.ctr = NULL;
	iv.stop = 0;
	iv.last = 0;
	iv.list = json_array();
	if (c->com.cpu && !iv.cpu)
		iv.cpu = meter_open("procstat", NULL, err, sizeof(err));
	if (pthread_create(&iv.th, NULL, reporter, NULL))
		die("-i: cannot start the interval thread");
	iv.running = 1;
}

void ival_watch(const uint64_t *counter)
{
	if (!iv.running)
		return;
	pthread_mutex_lock(&iv.lock);
	if (counter && !iv.ctr) {
		iv.t0 = iv.tlast = clock_now();
		iv.last = ctr_read(counter);
		if (iv.cpu)
			meter_start(iv.cpu);
	}
	iv.ctr = counter;
	pthread_cond_signal(&iv.cond);
	pthread_mutex_unlock(&iv.lock);
}

json_t *ival_stop(uint64_t final)
{
	json_t *list;

	if (!iv.running)
		return NULL;
	pthread_mutex_lock(&iv.lock);
	iv.stop = 1;
	pthread_cond_signal(&iv.cond);
	pthread_mutex_unlock(&iv.lock);
	pthread_join(iv.th, NULL);
	iv.running = 0;
	if (iv.tlast > 0 && final >= iv.last)
		emit(clock_now(), final); /* the last, partial interval */
	list = iv.list;
	iv.list = NULL;
	iv.ctr = NULL;
	iv.tlast = 0;
	return list;
}

void ival_stream_end(const struct cfg *c, struct res_doc *d)
{
	json_t *e;

	if (!c->json_stream)
		return;
	res_summarize(d);
	e = json_pack("{s:s, s:O}", "event", "end", "data", res_json(d));
	json_dumpf(e, stdout, JSON_COMPACT);
	fputc('\n', stdout);
	fflush(stdout);
	json_decref(e);
}
