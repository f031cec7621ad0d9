/* test_perf.c: the perf meter: software events count, events the machine
 * lacks are reported unavailable with the reason, unknown names too. */
#include "config.h"
#include "meter.h"
#include "t.h"

#include <errno.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <time.h>

static double cpu_now(void)
{
	struct rusage r;

	getrusage(RUSAGE_SELF, &r);
	return (double)r.ru_utime.tv_sec + r.ru_utime.tv_usec / 1e6 +
	       (double)r.ru_stime.tv_sec + r.ru_stime.tv_usec / 1e6;
}

static void spin(double seconds)
{
	t_spin(CLOCK_MONOTONIC, seconds);
}

static const struct meter_counter *find(const struct cpu_sample *s,
					const char *name)
{
	for (int i = 0; i < s->ncounters; i++)
		if (!strcmp(s->ctr[i].name, name))
			return &s->ctr[i];
	return NULL;
}

int main(void)
{
	struct meter_opts o = {0};
	const struct meter_counter *c;
	struct cpu_sample s;
	struct meter *m;
	char err[256];
	double cpu0, cpu;

	m = meter_open("perf", &o, err, sizeof(err));
	if (!m && strstr(err, "not permitted"))
		T_SKIP("perf_event_open not permitted here");
	T_ASSERT(m);
	meter_start(m);
	cpu0 = cpu_now();
	spin(0.3);
	cpu = cpu_now() - cpu0;
	T_CHECK(meter_stop(m, &s) == 0);
	T_CHECK(s.ok);
	T_STREQ(s.scope, "process");
	T_CHECK(s.ncounters == 6);
	c = find(&s, "task-clock");
	T_ASSERT(c);
	/* task-clock agrees with getrusage (the box may be busy: we may
	 * have had much less than the 0.3 s of wall time) */
	T_CHECK(c->ok && c->per_sec > 0);
	T_NEAR(c->value / 1e9, cpu, 0.02 + 0.2 * cpu);
	T_CHECK(s.busy_pct > 0 && s.busy_pct <= 100);
	c = find(&s, "context-switches");
	T_CHECK(c && c->ok);
	c = find(&s, "cycles");
	T_ASSERT(c);
	/* a machine without a PMU: unavailable, with the reason */
	T_CHECK(c->ok || strstr(c->why, "perf_event_open") != NULL);
	if (!c->ok)
		printf("cycles: %s\n", c->why);
	/* a window can be read again (REPORT) and keeps counting */
	spin(0.1);
	T_CHECK(meter_stop(m, &s) == 0);
	c = find(&s, "task-clock");
	T_CHECK(c && c->value / 1e9 >= cpu * 0.8);
	meter_close(m);

	/* ourselves: our threads, not the processes we fork (a soak host
	 * forked after the meter opened must not count as our load) */
	o.perf_events = "task-clock";
	m = meter_open("perf", &o, err, sizeof(err));
	T_ASSERT(m);
	meter_start(m);
	{
		pid_t p = fork();

		if (p == 0) {
			spin(0.3);
			_exit(0);
		}
		waitpid(p, NULL, 0);
	}
	T_CHECK(meter_stop(m, &s) == 0);
	c = find(&s, "task-clock");
	T_CHECK(c && c->ok && c->value < 0.1e9);
	meter_close(m);

	/* a name libpfm4 does not know: unavailable, the rest goes on */
	o.perf_events = "page-faults,no-such-event";
	m = meter_open("perf", &o, err, sizeof(err));
	T_ASSERT(m);
	meter_start(m);
	T_CHECK(meter_stop(m, &s) == 0);
	c = find(&s, "no-such-event");
	T_CHECK(c && !c->ok && strstr(c->why, "libpfm4"));
	T_CHECK(strstr(s.note, "task-clock") != NULL);
	meter_close(m);

	/* nothing usable: the meter does not open */
	o.perf_events = "no-such-event";
	T_CHECK(meter_open("perf", &o, err, sizeof(err)) == NULL);
	T_CHECK(strstr(err, "no-such-event") != NULL);

	/* per CPU */
	o.perf_events = "context-switches";
	o.perf_system_wide = 1;
	m = meter_open("perf", &o, err, sizeof(err));
	T_ASSERT(m);
	meter_start(m);
	spin(0.05);
	T_CHECK(meter_stop(m, &s) == 0);
	T_STREQ(s.scope, "box");
	meter_close(m);
	return t_done();
}
