/* probe.c: the box's speed by a fixed piece of user-space work (probe.h). */
#include "config.h"
#include "probe.h"

#include "clock.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROBE_WORDS (1u << 20) /* 8 MiB of uint64_t a thread */
#define PROBE_BATCH 4096       /* steps between two looks at the clock */

/* The threads fill their tables, then wait for go together (a failure
 * to make one sets stop instead). */
struct probe_start {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int ready, go, stop;
};

struct probe_thread {
	pthread_t t;
	int cpu;
	double ms;
	struct probe_start *start;
	uint64_t steps;
	double took;		/* seconds */
	uint64_t sink;		/* keeps the work from being optimised out */
	int err;		/* errno of a failure */
};

static void *probe_main(void *arg)
{
	struct probe_thread *p = arg;
	uint64_t *w = malloc(PROBE_WORDS * sizeof(*w)), x = 1;
	cpu_set_t set;
	double t0, t;
	size_t i;

	CPU_ZERO(&set);
	CPU_SET(p->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		p->err = EINVAL;
	for (i = 0; w && i < PROBE_WORDS; i++)
		w[i] = i * 2654435761u;
	if (!w)
		p->err = ENOMEM;
	pthread_mutex_lock(&p->start->mu);
	p->start->ready++;
	pthread_cond_broadcast(&p->start->cv);
	while (!p->start->go && !p->start->stop)
		pthread_cond_wait(&p->start->cv, &p->start->mu);
	if (p->start->stop && !p->err)
		p->err = ECANCELED;
	pthread_mutex_unlock(&p->start->mu);
	if (p->err) {
		free(w);
		return NULL;
	}
	t0 = clock_now();
	do {
		for (i = 0; i < PROBE_BATCH; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			w[(x >> 20) & (PROBE_WORDS - 1)] += x;
		}
		p->steps += PROBE_BATCH;
		t = clock_now();
	} while ((t - t0) * 1e3 < p->ms);
	p->took = t - t0;
	p->sink = x ^ w[x & (PROBE_WORDS - 1)];
	free(w);
	return NULL;
}

/* Let the threads made go, or stop them. */
static void probe_release(struct probe_start *st, int made, int stop)
{
	pthread_mutex_lock(&st->mu);
	while (!stop && st->ready < made)
		pthread_cond_wait(&st->cv, &st->mu);
	if (stop)
		st->stop = 1;
	else
		st->go = 1;
	pthread_cond_broadcast(&st->cv);
	pthread_mutex_unlock(&st->mu);
}

int probe_run(double ms, struct probe_result *r, char *err, size_t len)
{
	struct probe_start st = {PTHREAD_MUTEX_INITIALIZER,
				 PTHREAD_COND_INITIALIZER, 0, 0, 0};
	struct probe_thread *th;
	cpu_set_t set;
	int cpu, n = 0, i, made, e = 0;
	double steps = 0, took = 0;

	memset(r, 0, sizeof(*r));
	if (!(ms >= 1 && ms <= PROBE_MS_MAX)) {
		snprintf(err, len, "probe: %g ms (1 to %d)", ms, PROBE_MS_MAX);
		return -1;
	}
	if (sched_getaffinity(0, sizeof(set), &set)) {
		snprintf(err, len, "probe: sched_getaffinity: %s",
			 strerror(errno));
		return -1;
	}
	th = calloc((size_t)CPU_COUNT(&set), sizeof(*th));
	if (!th)
		abort();
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set)) {
			th[n].cpu = cpu;
			th[n].ms = ms;
			th[n++].start = &st;
		}
	for (made = 0; made < n; made++)
		if ((e = pthread_create(&th[made].t, NULL, probe_main,
					&th[made])))
			break;
	/* go once every thread has filled its table: they start within a
	 * wake-up of each other, each runs ms of its own, and the
	 * slowest's time is the window */
	probe_release(&st, made, e != 0);
	for (i = 0; i < made; i++)
		pthread_join(th[i].t, NULL);
	if (e) {
		free(th);
		snprintf(err, len, "probe: pthread_create: %s", strerror(e));
		return -1;
	}
	for (i = 0; i < n && !e; i++) {
		e = th[i].err;
		steps += (double)th[i].steps;
		if (th[i].took > took)
			took = th[i].took;
	}
	free(th);
	if (e || !(took > 0)) {
		snprintf(err, len, "probe: %s",
			 e ? strerror(e) : "no time passed");
		return -1;
	}
	r->mops = steps / took / 1e6;
	r->ms = took * 1e3;
	r->ncpu = n;
	return 0;
}

json_t *probe_json(const struct probe_result *r)
{
	return json_pack("{sfsfsi}", "Mops", r->mops, "ms", r->ms, "ncpu",
			 r->ncpu);
}
