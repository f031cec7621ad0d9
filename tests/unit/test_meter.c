/* test_meter.c: the meter interface with the procstat and rusage meters. */
#include "config.h"
#include "meter.h"
#include "result.h"
#include "t.h"

#include <errno.h>
#include <time.h>

static void spin(double seconds)
{
	struct timespec a, b;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((double)(b.tv_sec - a.tv_sec) +
			 (double)(b.tv_nsec - a.tv_nsec) / 1e9 <
		 seconds);
	(void)x;
}

int main(void)
{
	struct meter_opts o = { 0 };
	struct cpu_sample s[METER_MAX], r;
	struct meterset set;
	char err[256], root[4200];
	struct meter *m;
	json_t *j, *sample;
	struct res_doc *d;
	int n;

	/* unknown names are named in the error */
	T_CHECK(meter_open("bogus", &o, err, sizeof(err)) == NULL);
	T_CHECK(strstr(err, "bogus") != NULL);
	T_CHECK(meterset_open(&set, "procstat,bogus", &o, err, sizeof(err)) ==
		-EINVAL);
	T_CHECK(strstr(err, "bogus") != NULL);
	T_CHECK(meterset_open(&set, "", &o, err, sizeof(err)) == -EINVAL);

	/* rusage sees our own busy loop */
	m = meter_open("rusage", &o, err, sizeof(err));
	T_ASSERT(m);
	meter_start(m);
	spin(0.3);
	T_CHECK(meter_stop(m, &r) == 0);
	T_CHECK(r.ok);
	T_STREQ(r.meter, "rusage");
	T_CHECK(r.utime_s + r.stime_s > 0.2);
	T_CHECK(r.busy_pct > 0 && r.busy_pct <= 100.5);
	meter_close(m);

	/* a set: procstat + rusage side by side */
	T_ASSERT(meterset_open(&set, "procstat,rusage", &o, err, sizeof(err)) == 0);
	meterset_start(&set);
	spin(0.3);
	n = meterset_stop(&set, s);
	T_CHECK(n == 2);
	T_STREQ(s[0].meter, "procstat");
	T_STREQ(s[1].meter, "rusage");
	T_CHECK(s[0].ok && s[1].ok);
	T_CHECK(s[0].busy_pct > 0);
	T_CHECK(s[0].elapsed_s >= 0.29);
	meterset_close(&set);

	/* a meter that cannot open stays in the set, marked unavailable */
	snprintf(root, sizeof(root), "%s/proc-a", t_datadir());
	o.proc_root = "/nonexistent";
	T_CHECK(meterset_open(&set, "procstat", &o, err, sizeof(err)) == -ENODEV);
	T_ASSERT(meterset_open(&set, "procstat,rusage", &o, err, sizeof(err)) == 0);
	meterset_start(&set);
	n = meterset_stop(&set, s);
	T_CHECK(n == 2 && !s[0].ok && s[1].ok);
	T_CHECK(strstr(s[0].why, "/nonexistent") != NULL);
	meterset_close(&set);
	o.proc_root = NULL;

	/* service demand, netperf's: 50% of 2 CPUs for 1 s over 1 MiB =
	 * 1e6 us / 1024 KB */
	memset(&r, 0, sizeof(r));
	r.ok = 1;
	r.busy_pct = 50;
	r.ncpu = 2;
	r.elapsed_s = 1;
	T_NEAR(meter_service_demand(&r, 1048576), 1e6 / 1024, 1e-9);
	T_CHECK(isnan(meter_service_demand(&r, 0)));

	/* JSON round trip and metrics */
	snprintf(r.meter, sizeof(r.meter), "procstat");
	r.softirq_pct = 3;
	j = cpu_sample_to_json(&r);
	T_CHECK(cpu_sample_from_json(j, &s[0], err, sizeof(err)) == 0);
	T_NEAR(s[0].busy_pct, 50, 0);
	T_NEAR(s[0].softirq_pct, 3, 0);
	json_decref(j);
	d = res_new("t", 0, NULL);
	sample = json_object();
	meter_add_metrics(d, sample, "local", &r, 1, 1048576);
	meter_add_raw(sample, "local", &r, 1);
	j = json_object_get(sample, "metrics");
	T_NEAR(json_real_value(json_object_get(j, "cpu_local_pct")), 50, 0);
	T_NEAR(json_real_value(json_object_get(j, "cpu_local_procstat_pct")), 50,
	       0);
	T_NEAR(json_real_value(json_object_get(j, "cpu_local_softirq_pct")), 3, 0);
	T_NEAR(json_real_value(json_object_get(j, "sd_local_us_per_kb")),
	       1e6 / 1024, 1e-9);
	T_CHECK(json_object_get(json_object_get(res_json(d), "metrics"),
				"cpu_local_pct") != NULL);
	json_decref(sample);
	res_free(d);
	return t_done();
}
