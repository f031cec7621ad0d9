/* test_meter.c: the meter interface with the procstat and rusage meters. */
#include "config.h"
#include "cpujson.h"
#include "meter.h"
#include "result.h"
#include "t.h"

#include <errno.h>
#include <time.h>

static void spin(double seconds)
{
	t_spin(CLOCK_PROCESS_CPUTIME_ID, seconds);
}

static struct cpu_sample fake(const char *meter, int ok, double busy)
{
	struct cpu_sample c;

	memset(&c, 0, sizeof(c));
	snprintf(c.meter, sizeof(c.meter), "%s", meter);
	c.ok = ok;
	c.busy_pct = busy;
	c.ncpu = 2;
	c.elapsed_s = 1;
	return c;
}

static int has(json_t *sample, const char *name)
{
	return json_object_get(json_object_get(sample, "metrics"), name) !=
	       NULL;
}

/* Paired runs: which figure goes under which name (lib/cpu/meter.h). */
static void pass_names(void)
{
	struct res_doc *d = res_new("t", 0, NULL);
	struct cpu_sample s[2] = { fake("soak", 1, 40), fake("procstat", 1, 38) };
	json_t *j = json_object();

	/* metered run: soak is primary and plain, procstat set aside */
	meter_add_metrics(d, j, "local", s, 2, 1024, 1);
	T_CHECK(has(j, "cpu_local_pct") && has(j, "cpu_local_soak_pct"));
	T_CHECK(has(j, "sd_local_us_per_kb") && has(j, "sd_local_soak_us_per_kb"));
	T_CHECK(has(j, "metered_cpu_local_procstat_pct"));
	T_CHECK(has(j, "metered_cpu_local_softirq_pct"));
	T_CHECK(!has(j, "cpu_local_procstat_pct"));
	T_NEAR(json_number_value(json_object_get(json_object_get(j, "metrics"),
						 "cpu_local_pct")),
	       40, 1e-9);
	/* service demand: 40% of 2 CPUs for 1 s over 1 KB = 800000 us/KB */
	T_NEAR(json_number_value(json_object_get(json_object_get(j, "metrics"),
						 "sd_local_us_per_kb")),
	       800000, 1e-6);
	json_decref(j);
	/* unmetered run: soak paused, so no primary; procstat plain */
	s[0] = fake("soak", 0, 0);
	s[0].paused = 1;
	j = json_object();
	meter_add_metrics(d, j, "local", s, 2, 1024, 0);
	T_CHECK(!has(j, "cpu_local_pct") && !has(j, "sd_local_us_per_kb"));
	T_CHECK(has(j, "cpu_local_procstat_pct"));
	T_CHECK(has(j, "sd_local_procstat_us_per_kb"));
	T_CHECK(!has(j, "cpu_local_soak_pct"));
	json_decref(j);
	/* a side without soak: its first usable meter is primary */
	j = json_object();
	s[0] = fake("rusage", 0, 0);
	meter_add_metrics(d, j, "remote", s, 2, 0, 0);
	T_CHECK(has(j, "cpu_remote_pct") && has(j, "cpu_remote_procstat_pct"));
	T_CHECK(!has(j, "sd_remote_us_per_kb")); /* no bytes, no demand */
	json_decref(j);
	/* the same side in a metered run (soakers on elsewhere) */
	j = json_object();
	meter_add_metrics(d, j, "remote", s, 2, 0, 1);
	T_CHECK(has(j, "metered_cpu_remote_pct") && !has(j, "cpu_remote_pct"));
	json_decref(j);
	/* the paused flag survives the JSON round trip (peer reports) */
	s[0] = fake("soak", 0, 0);
	s[0].paused = 1;
	j = cpu_sample_to_json(&s[0]);
	{
		struct cpu_sample b;
		char err[128];

		T_CHECK(cpu_sample_from_json(j, &b, err, sizeof(err)) == 0);
		T_CHECK(b.paused && !b.ok);
	}
	json_decref(j);
	T_CHECK(meter_perturbed(0.94) && meter_perturbed(1.06));
	T_CHECK(!meter_perturbed(0.96) && !meter_perturbed(1.04));
	T_CHECK(meter_runs(1, 3) == 6 && meter_runs(0, 3) == 3);
	T_CHECK(meter_run_metered(1, 0) && !meter_run_metered(1, 1));
	T_CHECK(!meter_run_metered(0, 0));
	res_free(d);
}

static double metric(json_t *sample, const char *name)
{
	json_t *v = json_object_get(json_object_get(sample, "metrics"), name);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The CPU-normalised rate: work per CPU-second of the primary meter,
 * higher is better, named as the primary's other figures. */
static void per_cpu(void)
{
	struct res_doc *d = res_new("t", 0, NULL);
	struct cpu_sample s[2] = { fake("soak", 1, 25), fake("procstat", 1, 20) };
	json_t *j = json_object(), *def;

	/* 25% of 2 CPUs for 1 s is 0.5 CPU-s: 10 MB over it, 20 MB/CPU-s */
	T_NEAR(meter_per_cpu_s(&s[0], 10), 20, 1e-9);
	T_CHECK(isnan(meter_per_cpu_s(&s[0], 0)));
	s[1].busy_pct = 0;
	T_CHECK(isnan(meter_per_cpu_s(&s[1], 10)));
	s[1].busy_pct = 20;
	/* a metered run: soak's figure, plain, with its bytes */
	meter_add_metrics(d, j, "local", s, 2, 10e6, 1);
	T_NEAR(metric(j, "MB_per_cpu_s_local"), 20, 1e-9);
	def = json_object_get(json_object_get(res_json(d), "metrics"),
			      "MB_per_cpu_s_local");
	T_STREQ(json_string_value(json_object_get(def, "better")), "higher");
	T_STREQ(json_string_value(json_object_get(def, "unit")), "MB/CPU-s");
	/* it stays plain when the pair's figures are set aside */
	res_sample_set(j, "throughput_MBps", 10);
	res_sample_pair(d, j, 0, 1);
	T_NEAR(metric(j, "MB_per_cpu_s_local"), 20, 1e-9);
	T_CHECK(!has(j, "metered_MB_per_cpu_s_local"));
	T_CHECK(has(j, "metered_throughput_MBps"));
	json_decref(j);
	/* the unmetered run: no primary, no figure */
	s[0] = fake("soak", 0, 0);
	s[0].paused = 1;
	j = json_object();
	meter_add_metrics(d, j, "local", s, 2, 10e6, 0);
	T_CHECK(!has(j, "MB_per_cpu_s_local"));
	json_decref(j);
	/* a side whose primary is procstat, in a run slowed by soakers
	 * elsewhere: set aside; messages and transactions by their words */
	j = json_object();
	meter_put_per_cpu(d, j, "box", &s[1], 1, "msgs", "msg/CPU-s", 400, 1);
	T_NEAR(metric(j, "metered_msgs_per_cpu_s_box"), 1000, 1e-9);
	meter_put_per_cpu(d, j, "remote", &s[1], 1, "trans", "trans/CPU-s", 0, 0);
	T_CHECK(!has(j, "trans_per_cpu_s_remote")); /* no work, no figure */
	json_decref(j);
	res_free(d);
}

/* the line before each run of a pair names the meter it is paired for */
static void pair_lines(void)
{
	T_CHECK(strstr(meter_pair_run("soak", 1), "soakers on") != NULL);
	T_CHECK(strstr(meter_pair_run(NULL, 0), "soakers parked") != NULL);
	T_CHECK(strstr(meter_pair_run("profile", 1), "profiler on") != NULL);
	T_CHECK(strstr(meter_pair_run("profile", 0), "profiler off") != NULL);
	T_CHECK(strstr(meter_pair_run("profile", 0), "soak") == NULL);
}

/* Meters are known by their properties: the names come from the table,
 * the words from the paired meters, the primary sample by flag. */
static void properties(void)
{
	struct cpu_sample s[3];
	char names[160];
	int i;

	T_STREQ(meter_names(names, sizeof(names), ","),
		"soak,procstat,rusage,perf,profile,sched");
	for (i = 0; meter_table[i]; i++) {
		const struct meter_ops *o = meter_table[i];

		/* a paired meter pauses and has its words; one that pauses
		 * is paired */
		T_CHECK(!(o->flags & METER_PAIRED) == !o->pause);
		T_CHECK(!(o->flags & METER_PAIRED) || o->words);
		T_CHECK(!(o->flags & METER_NO_LOAD) ||
			(o->print && o->metrics && o->to_json && o->from_json));
	}
	T_STREQ(meter_pairer(), "soak");
	T_CHECK(meter_flags_of("pid") == 0);
	T_CHECK(meter_words_of(NULL) == meter_words_of("soak"));
	T_CHECK(meter_words_of("procstat") == meter_words_of("soak"));
	T_STREQ(meter_words_of("profile")->agent, "profiler");
	T_STREQ(meter_pair_run("profile", 0),
		"unmetered run: profiler off (this rate is the result)");
	/* the primary sample: soak when the side has it (none when it was
	 * paused), else the first usable one with a load */
	memset(s, 0, sizeof(s));
	snprintf(s[0].meter, sizeof(s[0].meter), "profile");
	snprintf(s[1].meter, sizeof(s[1].meter), "procstat");
	snprintf(s[2].meter, sizeof(s[2].meter), "soak");
	s[0].ok = s[1].ok = 1;
	T_CHECK(meter_primary(s, 3) == 1);
	s[2].paused = 1;
	T_CHECK(meter_primary(s, 3) == -1);
	s[2].ok = 1;
	s[2].paused = 0;
	T_CHECK(meter_primary(s, 3) == 2);
	T_CHECK(meter_is_primary(&s[2]) && !meter_is_primary(&s[1]));
	T_CHECK(meter_soak_ran(s, 3) && !meter_soak_ran(s, 2));
}

/* A server from before paired runs: said once, and each unmetered run
 * its soakers slowed, on out and in the document, in the tool's words. */
static void old_server(void)
{
	static const struct meter_old_server w = {"zcc", "zcs", "zcs"};
	struct res_doc *d = res_new("t", 0, NULL);
	struct cpu_sample s[2] = {fake("procstat", 1, 10), fake("soak", 1, 40)};
	char buf[1024] = "";
	json_t *warn;
	FILE *out;
	int told = 0;

	T_ASSERT(d);
	out = fmemopen(buf, sizeof(buf), "w");
	T_ASSERT(out);
	meter_old_server(out, d, &w, 1, s, 2, 1, &told); /* metered */
	meter_old_server(out, d, &w, 0, s, 1, 2, &told); /* no soak ran */
	meter_old_server(out, d, &w, 0, s, 2, 3, &told); /* soak ran */
	fclose(out);
	T_CHECK(told == 3);
	T_STREQ(buf,
		"zcc: the server is a zcs from before paired runs: it cannot park its soakers, its side runs unpaired\n"
		"zcc: the server's soakers ran during unmetered run 3: that rate is perturbed\n");
	warn = json_object_get(res_json(d), "warnings");
	T_ASSERT(json_array_size(warn) == 2);
	T_STREQ(json_string_value(json_array_get(warn, 0)),
		"the server is a zcs from before paired runs: its side runs unpaired");
	T_STREQ(json_string_value(json_array_get(warn, 1)),
		"the server's soakers ran during unmetered run 3: that rate is perturbed (a zcs of this version parks them)");
	res_free(d);
}

int main(void)
{
	struct meter_opts o = { 0 };
	struct cpu_sample s[METER_MAX], r;
	struct meterset set;

	pair_lines();
	char err[256], root[4200];
	struct meter *m;
	json_t *j, *sample;
	struct res_doc *d;
	int n;

	pass_names();
	old_server();
	per_cpu();
	properties();
	/* unknown names are named in the error */
	T_CHECK(meter_open("bogus", &o, err, sizeof(err)) == NULL);
	T_STREQ(err, "unknown CPU meter \"bogus\" (soak, procstat, rusage, perf, profile, sched)");
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
	meter_add_metrics(d, sample, "local", &r, 1, 1048576, 0);
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
