/* test_probe: lib/run/probe.c, the box's speed by a fixed piece of work:
 * its bounds, that it runs on every CPU the process may use and on one
 * when pinned, that it ran for its time, and its document. Nothing here
 * depends on how fast the box is. */
#define _GNU_SOURCE
#include "config.h"
#include "probe.h"
#include "t.h"

#include <math.h>
#include <sched.h>
#include <string.h>

static void test_bounds(void)
{
	const double bad[] = {0, -1, 0.5, PROBE_MS_MAX + 1, NAN, INFINITY};
	struct probe_result r;
	char err[128];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		T_CHECK(probe_run(bad[i], &r, err, sizeof(err)) == -1);
		T_CHECK(strstr(err, "probe: ") && strstr(err, "ms (1 to"));
		T_CHECK(r.ncpu == 0);
	}
}

static void test_runs(void)
{
	struct probe_result r;
	cpu_set_t all, one;
	char err[128] = "";
	int first;
	json_t *j;

	T_ASSERT(!sched_getaffinity(0, sizeof(all), &all));
	T_CHECK(probe_run(20, &r, err, sizeof(err)) == 0);
	T_CHECK(r.ncpu == CPU_COUNT(&all));
	T_CHECK(r.ms >= 20);
	T_CHECK(r.mops > 0 && isfinite(r.mops));
	j = probe_json(&r);
	T_NEAR(json_number_value(json_object_get(j, "Mops")), r.mops, 0);
	T_NEAR(json_number_value(json_object_get(j, "ms")), r.ms, 0);
	T_CHECK(json_integer_value(json_object_get(j, "ncpu")) == r.ncpu);
	json_decref(j);

	/* pinned to one CPU, as zc-vs-copy pins an end: it probes that one */
	for (first = 0; !CPU_ISSET(first, &all); first++)
		;
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	T_ASSERT(!sched_setaffinity(0, sizeof(one), &one));
	T_CHECK(probe_run(5, &r, err, sizeof(err)) == 0);
	T_CHECK(r.ncpu == 1 && r.ms >= 5 && r.mops > 0);
	T_ASSERT(!sched_setaffinity(0, sizeof(all), &all));
}

int main(void)
{
	test_bounds();
	test_runs();
	printf("test_probe: %d checks, %d failed\n", t_checks, t_failures);
	return t_failures ? 1 : 0;
}
