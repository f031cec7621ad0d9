/* test_quiet.c: the box's steal and the CPU outside the run over a
 * window (lib/cpu/quiet.h), from readings made up here and from this
 * process's own. */
#include "config.h"
#include "meter.h"
#include "quiet.h"
#include "t.h"

#include <time.h>

/* A reading of the "cpu" line: user, nice, system, idle, steal ticks. */
static void line(struct procstat_snap *p, uint64_t user, uint64_t nice,
		 uint64_t sys, uint64_t idle, uint64_t steal)
{
	memset(p, 0, sizeof(*p));
	p->ncpu = 2;
	p->total[PS_USER] = user;
	p->total[PS_NICE] = nice;
	p->total[PS_SYSTEM] = sys;
	p->total[PS_IDLE] = idle;
	p->total[PS_STEAL] = steal;
	p->total[PS_SOFTIRQ] = 10; /* the same at both ends */
}

static void figures(void)
{
	static struct procstat_snap a, b;
	struct quiet_sample s;
	char why[160];

	/* 1000 ticks: user 300, system 100, nice 200 (soakers), idle 370,
	 * steal 30; this tree took 250 of them, the other processes 150 */
	line(&a, 1000, 500, 1000, 5000, 100);
	line(&b, 1300, 700, 1100, 5370, 130);
	quiet_figures(&a, &b, 250, 150, 5, &s);
	T_CHECK(s.ok && s.ncpu == 2);
	T_NEAR(quiet_self_cpu_s(&s), 2.5, 1e-9); /* 25% of 2 CPUs x 5 s */
	T_NEAR(s.steal_pct, 3, 1e-9);
	T_NEAR(s.task_pct, 40, 1e-9); /* nice left out */
	T_NEAR(s.self_pct, 25, 1e-9);
	T_NEAR(s.others_pct, 15, 1e-9);
	T_NEAR(s.outside_pct, 15, 1e-9);
	T_STREQ(s.from, "procstat");
	/* past 2% steal: disturbed, saying why */
	T_CHECK(quiet_disturbed(&s, 2, 50, why, sizeof(why)) == 1);
	T_CHECK(strstr(why, "steal 3.0%") != NULL);
	T_CHECK(quiet_disturbed(&s, 5, 10, why, sizeof(why)) == 1);
	T_CHECK(strstr(why, "outside the run took 15.0%") != NULL);
	T_CHECK(quiet_disturbed(&s, 5, 20, why, sizeof(why)) == 0);
	T_STREQ(why, "");
	/* the processes' own ticks past /proc/stat's 1000: all of the box,
	 * not more */
	quiet_figures(&a, &b, 250, 1200, 5, &s);
	T_NEAR(s.others_pct, 100, 1e-9);
	T_NEAR(s.outside_pct, 100, 1e-9);
	quiet_figures(&a, &b, 250, 150, 5, &s);
	/* a server of the run took 10% of the box (5 s x 2 CPUs = 10
	 * CPU-s, 1 of them): the run's, not outside */
	quiet_add_run_s(&s, 1);
	T_NEAR(s.run_pct, 10, 1e-9);
	T_NEAR(s.outside_pct, 5, 1e-9);
	quiet_add_run(&s, 20); /* never below 0 */
	T_NEAR(s.outside_pct, 0, 1e-9);
	/* the processes unknown: outside unknown, and never disturbing */
	quiet_figures(&a, &b, -1, -1, 5, &s);
	T_CHECK(isnan(s.outside_pct));
	T_CHECK(quiet_disturbed(&s, 5, 0, why, sizeof(why)) == 0);
	/* a short window of 10 ticks: one other process's tick is 10% of
	 * the box, past 5%, yet one tick is a daemon's wakeup caught, not a
	 * disturbance; two of them are */
	line(&a, 0, 0, 0, 0, 0);
	line(&b, 4, 0, 0, 6, 0);
	quiet_figures(&a, &b, 3, 1, 0.05, &s);
	T_NEAR(s.tick_pct, 10, 1e-9);
	T_NEAR(s.outside_pct, 10, 1e-9);
	T_CHECK(quiet_disturbed(&s, 2, 5, why, sizeof(why)) == 0);
	quiet_figures(&a, &b, 2, 2, 0.05, &s);
	T_CHECK(quiet_disturbed(&s, 2, 5, why, sizeof(why)) == 1);
	/* the sched meter's share is exact: no tick rule */
	quiet_figures(&a, &b, 3, 1, 0.05, &s);
	quiet_use_sched(&s, &(struct cpu_sample){.ok = 1, .sched = {.other_pct = 8}});
	T_STREQ(s.from, "sched");
	T_CHECK(quiet_disturbed(&s, 2, 5, why, sizeof(why)) == 1);
	/* no time between the readings: nothing known */
	quiet_figures(&a, &a, 0, 0, 0, &s);
	T_CHECK(!s.ok && quiet_disturbed(&s, 0, 0, why, sizeof(why)) == 0);
}

static void with_sched(void)
{
	static struct procstat_snap a, b;
	struct quiet_sample s;
	struct cpu_sample c;
	json_t *j;

	line(&a, 0, 0, 0, 0, 0);
	line(&b, 600, 0, 200, 200, 0);
	quiet_figures(&a, &b, 100, 700, 1, &s);
	T_NEAR(s.outside_pct, 70, 1e-9);
	memset(&c, 0, sizeof(c));
	snprintf(c.meter, sizeof(c.meter), "sched");
	c.ok = 1;
	c.sched.other_pct = 12;
	quiet_use_sched(&s, &c); /* the exact share wins */
	T_NEAR(s.outside_pct, 12, 1e-9);
	T_STREQ(s.from, "sched");
	j = quiet_json(&s);
	T_STREQ(json_string_value(json_object_get(j, "from")), "sched");
	json_decref(j);
	/* a peer on this box sched does not name: its rusage misses the
	 * softirq sched gave it, so /proc/stat's figure, softirq no one's */
	quiet_add_run(&s, 2);
	T_NEAR(s.outside_pct, 68, 1e-9);
	T_STREQ(s.from, "procstat");
	j = quiet_json(&s);
	T_NEAR(json_number_value(json_object_get(j, "outside_pct")), 68, 1e-9);
	T_NEAR(json_number_value(json_object_get(j, "run_pct")), 12, 1e-9);
	json_decref(j);
	j = quiet_disturbed_json(&s, 2, 5, 1);
	T_CHECK(json_is_true(json_object_get(j, "rerun")));
	T_NEAR(json_number_value(json_object_get(j, "outside_max")), 5, 0);
	json_decref(j);
	/* unknown figures are null, never NaN */
	quiet_figures(&a, &b, -1, -1, 1, &s);
	j = quiet_json(&s);
	T_CHECK(json_is_null(json_object_get(j, "outside_pct")));
	json_decref(j);
}

/* This process's own CPU is the run's: a spin is not outside. */
static void live(void)
{
	struct quiet q;
	struct quiet_sample s;

	memset(&q, 0, sizeof(q));
	quiet_start(&q, NULL);
	t_spin(CLOCK_PROCESS_CPUTIME_ID, 0.3);
	quiet_stop(&q, &s);
	T_CHECK(s.ok);
	T_CHECK(s.elapsed_s >= 0.29);
	T_CHECK(s.self_pct > 0);
	T_CHECK(s.steal_pct >= 0 && s.steal_pct <= 100);
	T_CHECK(s.outside_pct >= 0 && s.outside_pct <= 100);
	if (!(s.outside_pct >= 0 && s.outside_pct <= 100))
		fprintf(stderr, "outside %g%% (from %s; others %g%%, self %g%%, "
			"steal %g%%, %g s)\n", s.outside_pct, s.from,
			s.others_pct, s.self_pct, s.steal_pct, s.elapsed_s);
	quiet_close(&q);
	/* no /proc/stat there: nothing known */
	quiet_start(&q, "/nonexistent");
	quiet_stop(&q, &s);
	T_CHECK(!s.ok && isnan(s.outside_pct));
	quiet_close(&q);
}

int main(void)
{
	figures();
	with_sched();
	live();
	return t_done();
}
