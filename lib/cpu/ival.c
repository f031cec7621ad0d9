/*
 * ival.c: the interval reporter of ival.h: a thread per sample that wakes
 * at every interval boundary, reads the registered counter (under a lock,
 * so a runner can take it away), and prints and keeps the interval.
 */
#include "config.h"
#include "clock.h"
#include "ctr.h"
#include "ival.h"
#include "meter.h"
#include "result.h"
#include "thread.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* What a unit is called in the lines and the JSON, and its rate's scale. */
struct ival_unit {
	const char *name; /* ival_opts.unit, and the JSON count's key */
	const char *word; /* the count in a line */
	const char *rate; /* the rate in a line */
	const char *key;  /* the rate's JSON key */
	double scale;	  /* count / s / scale = the rate */
};

static const struct ival_unit units[] = {
	{"bytes", "bytes", "MB/s", "MBps", 1e6},
	{"transactions", "trans", "trans/s", "trans_per_s", 1},
	{"messages", "msgs", "msg/s", "msgs_per_s", 1},
	{"ops", "ops", "ops/s", "ops_per_s", 1},
	{0},
};

/* The unit called name, or NULL. */
static const struct ival_unit *unit_of(const char *name)
{
	const struct ival_unit *u;

	for (u = units; u->name && strcmp(u->name, name); u++)
		;
	return u->name ? u : NULL;
}

struct ival {
	struct ival_opts o;
	const struct ival_unit *u;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t th;
	int running, stop;
	uint64_t (*read)(void *); /* the runner's progress */
	void *arg;
	ival_extra_fn extra;	   /* what it adds to an interval */
	void *extra_arg;
	uint64_t last;	   /* its value at the last boundary */
	double t0, tlast;  /* registration, last boundary (o.now) */
	double next;	   /* the next boundary, 0 = not watching yet */
	const char *label; /* this sample's */
	int idx;
	json_t *list;	   /* the sample's intervals */
	struct meter *cpu; /* procstat, with o.cpu */
};

static uint64_t read_ctr(void *arg)
{
	return ctr_read(arg);
}

/* The interval's JSON object; its CPU (and the line's column) with a
 * meter. */
static json_t *interval_json(struct ival *iv, double now, uint64_t n,
			     double rate, char *cpu, size_t len)
{
	struct cpu_sample cs;
	json_t *j;

	j = json_pack("{s:i, s:f, s:f, s:I, s:f}", "sample", iv->idx, "start",
		      iv->tlast - iv->t0, "end", now - iv->t0, iv->u->name,
		      (json_int_t)n, iv->u->key, rate);
	if (iv->cpu && !meter_stop(iv->cpu, &cs) && cs.ok) {
		json_object_set_new(j, "cpu_box_pct", json_real(cs.busy_pct));
		snprintf(cpu, len, "  cpu %5.1f%%", cs.busy_pct);
	}
	if (iv->cpu)
		meter_start(iv->cpu);
	return j;
}

/* One interval [tlast, now) with count v (lock held). */
static void emit(struct ival *iv, double now, uint64_t v)
{
	double d = now - iv->tlast, rate;
	char cpu[48] = "", suffix[256] = "", lines[4096] = "";
	json_t *j;

	if (d <= 0)
		return;
	rate = (double)(v - iv->last) / d / iv->u->scale;
	j = interval_json(iv, now, v - iv->last, rate, cpu, sizeof(cpu));
	if (iv->extra)
		iv->extra(iv->extra_arg, iv->label, d, j, suffix,
			  sizeof(suffix), lines, sizeof(lines));
	fprintf(iv->o.out, "%s: [%6.2f-%6.2f s] %12llu %s %10.1f %s%s%s\n%s",
		iv->label, iv->tlast - iv->t0, now - iv->t0,
		(unsigned long long)(v - iv->last), iv->u->word, rate,
		iv->u->rate, cpu, suffix, lines);
	fflush(iv->o.out);
	if (iv->o.json_stream) {
		json_t *e =
			json_pack("{s:s, s:O}", "event", "interval", "data", j);

		json_dumpf(e, iv->o.stream, JSON_COMPACT);
		fputc('\n', iv->o.stream);
		fflush(iv->o.stream);
		json_decref(e);
	}
	json_array_append_new(iv->list, j);
	iv->last = v;
	iv->tlast = now;
}

/* ival_tick with the lock held. */
static int tick_locked(struct ival *iv)
{
	double now = iv->o.now();

	if (!iv->read || !iv->next || now < iv->next)
		return 0;
	emit(iv, now, iv->read(iv->arg));
	iv->next += iv->o.interval;
	return 1;
}

int ival_tick(struct ival *iv)
{
	int n;

	if (!iv)
		return 0;
	pthread_mutex_lock(&iv->lock);
	n = tick_locked(iv);
	pthread_mutex_unlock(&iv->lock);
	return n;
}

static void *reporter(void *arg)
{
	struct ival *iv = arg;
	struct timespec ts;
	double t;

	pthread_mutex_lock(&iv->lock);
	while (!iv->stop) {
		t = clock_wall() +
		    (iv->read && iv->next ? iv->next - iv->o.now() : 0.1);
		ts.tv_sec = (time_t)t;
		ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
		pthread_cond_timedwait(&iv->cond, &iv->lock, &ts);
		if (!iv->stop)
			tick_locked(iv);
	}
	pthread_mutex_unlock(&iv->lock);
	return NULL;
}

int ival_open(struct ival **ivp, const struct ival_opts *o, char *err,
	      size_t len)
{
	const struct ival_unit *u;
	struct ival *iv;

	*ivp = NULL;
	if (o->interval <= 0)
		return 0;
	u = unit_of(o->unit);
	if (!u) {
		snprintf(err, len, "-i: no unit '%s'", o->unit);
		return -EINVAL;
	}
	iv = calloc(1, sizeof(*iv));
	if (!iv) {
		snprintf(err, len, "-i: out of memory");
		return -ENOMEM;
	}
	iv->o = *o;
	iv->u = u;
	if (!iv->o.stream)
		iv->o.stream = stdout;
	if (!iv->o.now)
		iv->o.now = clock_now;
	pthread_mutex_init(&iv->lock, NULL);
	pthread_cond_init(&iv->cond, NULL);
	if (o->cpu) /* no CPU column where /proc/stat cannot be read */
		iv->cpu = meter_open("procstat", NULL, err, len);
	*ivp = iv;
	return 0;
}

/* End the thread of the sample being watched, if it runs. */
static void halt(struct ival *iv)
{
	if (!iv->running)
		return;
	thread_end(iv->th, &iv->lock, &iv->cond, &iv->stop);
	iv->running = 0;
}

int ival_open_for(struct ival **ivp, double interval, int json_stream, int cpu,
		  const char *label, const char *unit, FILE *out, char *err,
		  size_t len)
{
	struct ival_opts o = {.interval = interval,
			      .json_stream = json_stream,
			      .cpu = cpu,
			      .label = label,
			      .unit = unit,
			      .out = out};

	return ival_open(ivp, &o, err, len);
}

void ival_close(struct ival *iv)
{
	if (!iv)
		return;
	halt(iv);
	json_decref(iv->list);
	if (iv->cpu)
		meter_close(iv->cpu);
	pthread_mutex_destroy(&iv->lock);
	pthread_cond_destroy(&iv->cond);
	free(iv);
}

int ival_start(struct ival *iv, int idx, const char *label, char *err,
	       size_t len)
{
	(void)err; /* nothing here fails yet: the thread starts in watch */
	(void)len;
	if (!iv)
		return 0;
	halt(iv);
	iv->label = label ? label : iv->o.label;
	iv->idx = idx;
	iv->read = NULL;
	iv->extra = NULL;
	iv->stop = 0;
	iv->last = 0;
	iv->next = iv->tlast = 0;
	json_decref(iv->list);
	iv->list = json_array();
	return 0;
}

void ival_extra(struct ival *iv, ival_extra_fn fn, void *arg)
{
	if (!iv)
		return;
	pthread_mutex_lock(&iv->lock);
	iv->extra = fn;
	iv->extra_arg = arg;
	pthread_mutex_unlock(&iv->lock);
}

int ival_unit(struct ival *iv, const char *unit)
{
	const struct ival_unit *u = unit_of(unit);

	if (!u)
		return -EINVAL;
	if (!iv)
		return 0;
	pthread_mutex_lock(&iv->lock);
	iv->u = u;
	pthread_mutex_unlock(&iv->lock);
	return 0;
}

void ival_watch_fn(struct ival *iv, uint64_t (*read)(void *), void *arg)
{
	if (!iv || !iv->list)
		return;
	pthread_mutex_lock(&iv->lock);
	if (read && !iv->read) {
		iv->t0 = iv->tlast = iv->o.now();
		iv->next = iv->t0 + iv->o.interval;
		iv->last = read(arg);
		if (iv->cpu)
			meter_start(iv->cpu);
		/* the thread from the data on: a tool may fork its workers
		 * before (no thread of ours in a child); without one, the
		 * sample is one interval, up to ival_stop */
		if (!iv->o.manual && !iv->running)
			iv->running =
				!pthread_create(&iv->th, NULL, reporter, iv);
	}
	iv->read = read;
	iv->arg = arg;
	pthread_cond_signal(&iv->cond);
	pthread_mutex_unlock(&iv->lock);
}

void ival_watch(struct ival *iv, const uint64_t *counter)
{
	ival_watch_fn(iv, counter ? read_ctr : NULL, (void *)counter);
}

json_t *ival_stop(struct ival *iv, uint64_t final)
{
	json_t *list;

	if (!iv || !iv->list)
		return NULL;
	halt(iv);
	if (iv->tlast > 0 && final >= iv->last)
		emit(iv, iv->o.now(), final); /* the last, partial interval */
	list = iv->list;
	iv->list = NULL;
	iv->read = NULL;
	iv->extra = NULL;
	iv->tlast = 0;
	iv->next = 0;
	return list;
}

void ival_stream_end(FILE *stream, struct res_doc *d)
{
	json_t *e;

	if (!stream)
		stream = stdout;
	res_summarize(d);
	e = json_pack("{s:s, s:O}", "event", "end", "data", res_json(d));
	json_dumpf(e, stream, JSON_COMPACT);
	fputc('\n', stream);
	fflush(stream);
	json_decref(e);
}
